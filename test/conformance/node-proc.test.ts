// The look beyond CRI on a real node: /proc and /sys/fs/cgroup as this machine has them.
// A real child process whose command line is a containerd shim's for an id is found by
// that id, and one in a real cgroup named after an id (where the test may make one) is
// found by its cgroup; a node that hides what it would need says why, with real
// permission bits where they can be had (as root, read by an unprivileged child).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openProcNode } from '../../src/conformance/node-proc.js';
import { lookOnNode, removalCommand, settledLook } from '../../src/conformance/node-view.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { reachableTempDir, UNREACHABLE_NOTE, OTHERS_CANNOT_REACH } from '../support/reachable.js';

const children: ChildProcess[] = [];
const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
  for (const f of cleanups.splice(0).reverse()) f();
});

const newId = (): string => randomBytes(32).toString('hex');

/** A real process whose command line is a containerd shim's for `id` (argv[0] set as the runtime sets it), exiting after `ms`. */
async function fakeShim(id: string, ms = 60_000): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    ['-e', `setTimeout(() => {}, ${ms})`, '--', '-namespace', 'k8s.io', '-id', id, '-address', '/nonexistent.sock'],
    { argv0: '/usr/local/bin/containerd-shim-runc-v2', stdio: 'ignore' },
  );
  children.push(child);
  await new Promise((resolve) => child.once('spawn', resolve));
  return child;
}

describe('the node as /proc shows it', () => {
  it('finds a real process whose command line names an id of the run, as a shim', async () => {
    const id = newId();
    const child = await fakeShim(id);
    // runtimeName without a known process: whether its process is in sight is not asked.
    const node = openProcNode({ runtimeName: 'nrictl-test' });
    expect(node.unavailable).toBeUndefined();
    const look = lookOnNode(node, [id, newId()]);
    expect(look.checked).toBe(true);
    if (!look.checked) return;
    expect(look.found).toHaveLength(1);
    const f = look.found[0];
    expect(f.id).toBe(id);
    expect(f.processes).toEqual([{ pid: child.pid, role: 'shim', argv: expect.arrayContaining(['-id', id]) }]);
    expect(f.containerdNamespace).toBe('k8s.io');
    expect(removalCommand(f, { name: 'containerd', answering: true })).toBe(
      `ctr -n k8s.io task rm -f ${id} && ctr -n k8s.io container rm ${id}`,
    );
    expect(removalCommand(f, { name: 'containerd', answering: false })).toBe(`kill -KILL ${child.pid}`);
    // Gone, it is found no more.
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    const after = lookOnNode(node, [id]);
    expect(after.checked && after.found).toEqual([]);
  });

  it('a shim that exits within the settle time is no leftover; one that stays is, once the time is over', async () => {
    const going = newId();
    const staying = newId();
    await fakeShim(going, 300);
    const stays = await fakeShim(staying);
    const node = openProcNode({ runtimeName: 'nrictl-test' });
    const before = lookOnNode(node, [going]);
    expect(before.checked && before.found).toHaveLength(1);
    const gone = await settledLook(node, [going], 5_000, sleep);
    expect(gone.checked && gone.found).toEqual([]);
    const left = await settledLook(node, [staying], 500, sleep);
    expect(left.checked && left.found.map((f) => f.processes.map((p) => p.pid))).toEqual([[stays.pid]]);
  });

  it("can look once the runtime's own process is in sight (a real process named as containerd)", async () => {
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], {
      argv0: '/usr/local/bin/containerd',
      stdio: 'ignore',
    });
    children.push(child);
    await new Promise((resolve) => child.once('spawn', resolve));
    expect(openProcNode({ runtimeName: 'containerd' }).unavailable).toBeUndefined();
  });

  it('cannot look when no process of the runtime is in sight (another pid namespace)', () => {
    const t = reachableTempDir('nrictl-proc-');
    cleanups.push(() => t.cleanup());
    mkdirSync(path.join(t.dir, '1'));
    writeFileSync(path.join(t.dir, '1', 'cmdline'), '/sbin/init\0');
    const node = openProcNode({ runtimeName: 'containerd', proc: t.dir, root: true });
    expect(node.unavailable).toBe(
      `no containerd process is in sight in ${t.dir}: nrictl runs in another pid namespace than the runtime's (a container without the host's pid namespace?), so neither are its shims`,
    );
    expect(lookOnNode(node, [newId()])).toEqual({ checked: false, why: node.unavailable });
  });

  it('finds a real process in a real cgroup named after an id, by /proc/PID/cgroup and by the cgroup directory', async (ctx) => {
    const hierarchy = writableHierarchy();
    if (hierarchy === undefined) return ctx.skip();
    const id = newId();
    const dir = path.join(hierarchy, `nrictl-test-${id}`);
    mkdirSync(dir);
    const child = spawn('sleep', ['60'], { stdio: 'ignore' });
    children.push(child);
    await new Promise((resolve) => child.once('spawn', resolve));
    cleanups.push(() => {
      child.kill('SIGKILL');
      spawnSync('sh', ['-c', `while [ -s ${dir}/cgroup.procs ]; do sleep 0.05; done; rmdir ${dir}`]);
    });
    writeFileSync(path.join(dir, 'cgroup.procs'), String(child.pid));
    const look = lookOnNode(openProcNode({ runtimeName: 'nrictl-test' }), [id]);
    expect(look.checked).toBe(true);
    if (!look.checked) return;
    expect(look.found).toHaveLength(1);
    expect(look.found[0].processes).toEqual([{ pid: child.pid, role: 'process', argv: ['sleep', '60'] }]);
    expect(look.found[0].cgroups).toEqual([dir]);
    expect(removalCommand(look.found[0], { name: 'containerd', answering: true })).toBe(
      `kill -KILL ${child.pid}; sleep 1; rmdir ${dir}`,
    );
  });
});

describe('cgroup trees as a node mounts them (files laid out as cgroupfs has them)', () => {
  it('v2: one hierarchy, a systemd scope named after the id, with its processes', () => {
    const t = reachableTempDir('nrictl-cg-');
    cleanups.push(() => t.cleanup());
    const id = newId();
    const scope = path.join(t.dir, 'test.slice', `cri-containerd-${id}.scope`);
    mkdirSync(scope, { recursive: true });
    writeFileSync(path.join(t.dir, 'cgroup.controllers'), 'cpu memory pids\n');
    writeFileSync(path.join(scope, 'cgroup.procs'), '4242\n4243\n');
    const node = openProcNode({ runtimeName: 'nrictl-test', cgroupRoot: t.dir });
    expect(node.cgroups(new Set([id, newId()]))).toEqual([{ path: scope, id, pids: [4242, 4243] }]);
  });

  it('v1: every controller hierarchy; a cgroup named after the id counts while it holds a process, never empty', () => {
    const t = reachableTempDir('nrictl-cg-');
    cleanups.push(() => t.cleanup());
    const id = newId();
    const dirs = ['pids', 'memory'].map((c) => path.join(t.dir, c, 'kubepods', id));
    for (const d of dirs) {
      mkdirSync(d, { recursive: true });
      writeFileSync(path.join(d, 'cgroup.procs'), '');
    }
    const node = openProcNode({ runtimeName: 'nrictl-test', cgroupRoot: t.dir });
    // Empty, as CRI-O leaves crio-conmon-ID for every container: nothing left that runs.
    expect(node.cgroups(new Set([id]))).toHaveLength(2);
    expect(lookOnNode(node, [id])).toMatchObject({ checked: true, found: [] });
    for (const d of dirs) writeFileSync(path.join(d, 'cgroup.procs'), '4242\n');
    const look = lookOnNode(node, [id]);
    expect(look.checked && look.found).toEqual([
      { id, processes: [{ pid: 4242, role: 'process', argv: [] }], cgroups: expect.arrayContaining(dirs) },
    ]);
    if (!look.checked) return;
    expect(removalCommand(look.found[0], { name: 'containerd', answering: true })).toBe(
      `kill -KILL 4242; sleep 1; rmdir ${look.found[0].cgroups.join(' ')}`,
    );
  });
});

describe('a node that does not let nrictl look', () => {
  it('a procfs with no process in it (not mounted there)', () => {
    const t = reachableTempDir('nrictl-proc-');
    cleanups.push(() => t.cleanup());
    expect(openProcNode({ runtimeName: 'containerd', proc: t.dir }).unavailable).toBe(
      `${t.dir} lists no process (procfs is not mounted there)`,
    );
  });

  it("/proc mounted with hidepid, not root, and the runtime's process out of sight", () => {
    const t = reachableTempDir('nrictl-proc-');
    cleanups.push(() => t.cleanup());
    mkdirSync(path.join(t.dir, '4242'));
    writeFileSync(path.join(t.dir, '4242', 'cmdline'), 'bash\0');
    mkdirSync(path.join(t.dir, 'self'));
    writeFileSync(
      path.join(t.dir, 'self', 'mountinfo'),
      '21 26 0:20 / /proc rw,relatime - proc proc rw,hidepid=invisible\n',
    );
    expect(openProcNode({ runtimeName: 'containerd', proc: t.dir, root: false }).unavailable).toBe(
      `${t.dir} hides other users' processes (mounted with hidepid) and nrictl is not root: run it as root to look`,
    );
  });

  it(`procfs and the cgroup tree that cannot be read, by their real permission bits${UNREACHABLE_NOTE}`, (ctx) => {
    if (OTHERS_CANNOT_REACH) return ctx.skip();
    const t = reachableTempDir('nrictl-proc-');
    cleanups.push(() => t.cleanup());
    chmodSync(t.dir, 0o755);
    const proc = path.join(t.dir, 'proc');
    const cgroup = path.join(t.dir, 'cgroup');
    mkdirSync(proc, { mode: 0o700 });
    mkdirSync(cgroup, { mode: 0o700 });
    chmodSync(proc, 0o000);
    chmodSync(cgroup, 0o000);
    cleanups.push(() => {
      chmodSync(proc, 0o700);
      chmodSync(cgroup, 0o700);
    });
    const seen = asUnprivileged(`
      const { openProcNode } = await import(${JSON.stringify(path.resolve('src/conformance/node-proc.ts'))});
      const noProc = openProcNode({ runtimeName: 'containerd', proc: ${JSON.stringify(proc)} });
      const noCgroup = openProcNode({ runtimeName: 'nrictl-test', cgroupRoot: ${JSON.stringify(cgroup)} });
      console.log(JSON.stringify({ proc: noProc.unavailable, cgroup: noCgroup.limits() }));`);
    expect(seen).toEqual({
      proc: `${proc} cannot be read (EACCES)`,
      cgroup: [`cgroup directories not looked at: ${cgroup} cannot be read (EACCES)`],
    });
  });
});

/** A cgroup hierarchy this test may make a directory in (root, v1 pids or v2), or undefined. */
function writableHierarchy(): string | undefined {
  if (process.getuid?.() !== 0) return undefined;
  for (const h of ['/sys/fs/cgroup/pids', '/sys/fs/cgroup'])
    if (
      existsSync(path.join(h, 'cgroup.procs')) &&
      (h.endsWith('pids') || existsSync(path.join(h, 'cgroup.controllers')))
    )
      return h;
  return undefined;
}

/**
 * Runs `code` (an ES module body) as an unprivileged user when this test runs as root, so
 * that permission bits hold; as itself otherwise. Its stdout's JSON.
 */
function asUnprivileged(code: string): unknown {
  const root = process.getuid?.() === 0;
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
    encoding: 'utf8',
    ...(root ? { uid: 65534, gid: 65534, env: { ...process.env, HOME: '/tmp' } } : {}),
    timeout: 60_000,
  });
  if (r.status !== 0) throw new Error(`the unprivileged child failed (${r.status}): ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').at(-1) ?? '');
}
