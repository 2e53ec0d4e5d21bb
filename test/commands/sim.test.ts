// `nrictl sim` as a real child process of the built CLI (bin/run.js over dist/; `npm test`
// builds first): output order and formats, the generator, pre-started plugins, stdin
// control, flag errors and the socket's permissions.
import { spawn } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, it, type ExpectStatic } from 'vitest';
import YAML from 'yaml';
import { runBuilt } from './cli-child.js';
import { BIN, cliEnv, runCli } from './nri-cli.js';
import { builtBundle } from '../support/built.js';
import { unpacedDemo, withUnpacedDemo } from '../support/unpaced-demo.js';

const repo = path.resolve(import.meta.dirname, '../..');

// Each test has its own simulator, socket and directories (the plugin directory shared
// below is only read), so the tests run side by side: a scenario's sleeps overlap.
// CI set, so the simulator never reads stdin unless a test gives it input (then as a child).
async function sim(args: string[], input?: string) {
  const r =
    input === undefined
      ? await runCli(['sim', ...args], { CI: '1' })
      : await runBuilt(['sim', ...args], { cwd: repo, input, timeoutMs: 30_000, env: cliEnv({ CI: '1' }) });
  return { code: r.code, stdout: r.stdout, stderr: r.stderr, lines: r.stdout.split('\n').filter(Boolean) };
}

/** The SDK as the plugins here load it: the build, bundled (test/support/built.ts). */
let sdk: string;

let jsonWithCalls: ReturnType<typeof sim> | undefined;
/** `sim DEMO --plugin-dir PLUGINS --calls -o json`, run once for the two tests that read what it printed. */
const demoJsonWithCalls = (): ReturnType<typeof sim> =>
  (jsonWithCalls ??= sim([demo, '--plugin-dir', plugins, '--calls', '-o', 'json']));

/** A run refused before it plays: the demo in `args` unpaced (withUnpacedDemo), so that the run stays in process. */
async function refused(args: string[]) {
  return sim((await withUnpacedDemo(['sim', ...args])).slice(1));
}

// One plugin script, behaving by the name it is launched under (a launched plugin gets
// only the NRI variables, so the interpreter is named by absolute path).
const pluginScript = (): string => `#!${process.execPath}
const { Stub } = require(${JSON.stringify(sdk)});
const me = process.env.NRI_PLUGIN_NAME;
const stub = new Stub({
  createContainer: (_pod, ctr) => {
    if (me === 'annotate') return { adjust: { annotations: { 'example.com/annotated-by': me } } };
    if (ctr.name === 'clash') return { adjust: { annotations: { 'example.com/annotated-by': me } } };
  },
  updateContainer: (_pod, ctr) => me === 'annotate' ? [{ containerId: ctr.id, linux: { resources: { cpu: { shares: { value: 777 } } } } }] : [],
  startContainer: () => undefined,
});
void stub.start();
`;

let tmp: string;
let plugins: string;
/** The demo without its pauses, for the runs that read what sim printed (in process). */
let demo: string;
/** How many steps it has: the demo's 13 less its pauses. */
let demoSteps: number;
beforeAll(async () => {
  sdk = await builtBundle();
  demo = await unpacedDemo();
  demoSteps = (YAML.parse(readFileSync(demo, 'utf8')) as { steps: unknown[] }).steps.length;
  tmp = mkdtempSync(path.join(os.tmpdir(), 'simcmd-'));
  plugins = path.join(tmp, 'plugins');
  mkdirSync(plugins);
  writeFileSync(path.join(tmp, 'plugin.cjs'), pluginScript(), { mode: 0o755 });
  copyFileSync(path.join(tmp, 'plugin.cjs'), path.join(plugins, '10-annotate'));
  chmodSync(path.join(plugins, '10-annotate'), 0o755);
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe.concurrent('nrictl sim SCENARIO', () => {
  it('prints the socket path first, then registration, events with round-trip times, adjustments and updates', async ({
    expect,
  }) => {
    const r = await sim([demo, '--plugin-dir', plugins, '--calls']);
    expect(r.code).toBe(0);
    expect(r.lines[0]).toMatch(/listening\s+\/\S+\/nri\.sock$/);
    const text = r.stdout;
    const order = ['registered', 'synchronized', 'invoke', 'adjusted', 'updated', 'script done'].map((w) =>
      text.indexOf(w),
    );
    expect(order.every((i) => i > 0)).toBe(true);
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(text).toMatch(/registered\s+10-annotate pre-started/);
    expect(text).toMatch(/invoke\s+CreateContainer\s+-> 10-annotate \d+\.\d+ ms c5f6a7b8c9d0/);
    expect(text).toMatch(/adjusted\s+c5f6a7b8c9d0 by 10-annotate: .*annotated-by/);
    expect(text).toMatch(/updated\s+c5f6a7b8c9d0 by runtime \(update\): .*"value":777/);
    expect(text).toMatch(new RegExp(`script done: ${demoSteps} steps, 0 failed`));
  });

  it('reports two plugins setting the same annotation as a conflict naming both', async ({ expect }) => {
    const dir = mkdtempSync(path.join(tmp, 'clash-'));
    copyFileSync(path.join(tmp, 'plugin.cjs'), path.join(dir, '10-annotate'));
    copyFileSync(path.join(tmp, 'plugin.cjs'), path.join(dir, '20-rival'));
    chmodSync(path.join(dir, '10-annotate'), 0o755);
    chmodSync(path.join(dir, '20-rival'), 0o755);
    const scenario = path.join(dir, 's.yaml');
    writeFileSync(
      scenario,
      'pods:\n  - {id: pod0, name: web, namespace: shop}\nsteps:\n  - create: {id: ctr0, pod: pod0, name: calm}\n  - create: {id: ctr1, pod: pod0, name: clash}\n',
    );
    const r = await sim([scenario, '--plugin-dir', dir]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/conflict\s+.*10-annotate.*20-rival|conflict\s+.*20-rival.*10-annotate/);
    expect(r.stdout).toMatch(/script done: 2 steps, 1 failed/);
  });

  it('without --calls prints no invoke line, and the rest as with it', async ({ expect }) => {
    const types = (r: Awaited<ReturnType<typeof sim>>) => r.lines.map((l) => (JSON.parse(l) as { type: string }).type);
    const [without, withCalls] = (
      await Promise.all([sim([demo, '--plugin-dir', plugins, '-o', 'json']), demoJsonWithCalls()])
    ).map(types);
    expect(without).not.toContain('invoke');
    expect(withCalls).toContain('invoke');
    const others = (ts: string[]) => ts.filter((t) => t !== 'invoke' && t !== 'plugin-output');
    expect(others(without)).toEqual(others(withCalls));
  });

  it('-o json prints one JSON object per line, every line', async ({ expect }) => {
    const r = await demoJsonWithCalls();
    expect(r.code).toBe(0);
    const objects = r.lines.map(
      (l) =>
        JSON.parse(l) as {
          type: string;
          time: string;
          update?: { linux?: { resources?: { memory?: { limit?: { value?: unknown } } } } };
        },
    );
    expect(objects[0].type).toBe('listening');
    // Printed in order, stamped in order: the socket first, the launched plugin after it, no time going back.
    expect(objects[1]).toMatchObject({ type: 'launched', plugin: '10-annotate' });
    const times = objects.map((o) => o.time);
    expect(times).toEqual([...times].sort());
    // The time format of logs and sync dump: RFC 3339, UTC, milliseconds.
    expect(
      objects.every((o) => typeof o.type === 'string' && /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(o.time)),
    ).toBe(true);
    // NRI messages inside events follow the protobuf JSON mapping, as in logs: int64 as strings.
    const limit = objects.find((o) => o.type === 'updated' && o.update?.linux?.resources?.memory?.limit)!.update!.linux!
      .resources!.memory!.limit!.value;
    expect(limit).toMatch(/^\d+$/);
    const types = new Set(objects.map((o) => o.type));
    for (const t of ['registered', 'synchronized', 'invoke', 'adjusted', 'updated', 'state-changed'])
      expect(types).toContain(t);
  });

  it('generates 50 pods with 3 containers each and synchronizes them', async ({ expect }) => {
    // Without a script the simulator serves until told to stop: here by `quit` on stdin.
    const r = await sim(
      ['--pods', '50', '--containers-per-pod', '3', '--plugin-dir', plugins, '-o', 'json', '--interactive'],
      'dump\nquit\n',
    );
    expect(r.code).toBe(0);
    const synced = r.stdout
      .split('\n')
      .filter((l) => l.startsWith('{"time"'))
      .map((l) => JSON.parse(l) as { type: string; pods?: number; containers?: number })
      .find((o) => o.type === 'synchronized');
    expect(synced).toMatchObject({ pods: 50, containers: 150 });
    // The dump (pretty JSON after the event lines) holds the generated state.
    expect(r.stdout.match(/"podSandboxId"/g)).toHaveLength(150);
    // In sync dump's form: enum names rather than numbers.
    expect(r.stdout).toContain('"state": "CONTAINER_RUNNING"');
    expect(r.stdout).not.toMatch(/"state": \d/);
  });

  it('with --nri-version v0.6.1 delivers start events through StateChange', async ({ expect }) => {
    const r = await sim([demo, '--plugin-dir', plugins, '--nri-version', 'v0.6.1', '--calls', '-o', 'json']);
    expect(r.code).toBe(0);
    const starts = r.lines
      .map((l) => JSON.parse(l) as { type: string; event?: string; via?: string })
      .filter((o) => o.type === 'invoke' && o.event === 'StartContainer');
    expect(starts).toHaveLength(1);
    expect(starts[0].via).toBe('StateChange');
  });
});

// Each run here is a child process of its own, for its stdin: what one session can show,
// one session shows.
describe.concurrent('nrictl sim --interactive with piped stdin', () => {
  it('runs create/start/update/stop/remove/dump/quit lines; dump prints nanosecond timestamps as strings, as sync dump does', async ({
    expect,
  }) => {
    const input = [
      'run-pod pod9 shop',
      'create ctr9 pod9 app',
      'start ctr9',
      'update ctr9 cpus=0-1 memory=268435456',
      'dump',
      'stop ctr9',
      'remove ctr9',
      'dump',
      'quit',
      '',
    ].join('\n');
    const r = await sim(['--interactive', '--plugin-dir', plugins, '--calls'], input);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/state\s+CreateContainer ctr9 -> CREATED/);
    expect(r.stdout).toMatch(/state\s+StartContainer ctr9 -> RUNNING/);
    expect(r.stdout).toMatch(/invoke\s+UpdateContainer\s+-> 10-annotate/);
    expect(r.stdout).toMatch(/"cpus": "0-1"/);
    // The first dump holds ctr9 created and started: its times are the runtime's own, in nanoseconds.
    const start = r.stdout.indexOf('{\n');
    const dump = JSON.parse(r.stdout.slice(start, r.stdout.indexOf('\n}\n', start) + 2)) as {
      containers: Array<{ id: string; createdAt?: unknown; startedAt?: unknown }>;
    };
    const ctr9 = dump.containers.find((c) => c.id === 'ctr9')!;
    expect(ctr9.createdAt).toMatch(/^\d{19}$/);
    expect(ctr9.startedAt).toMatch(/^\d{19}$/);
    expect(r.stdout).toMatch(/state\s+RemoveContainer ctr9/);
    // The last dump shows the pod without the removed container.
    const lastDump = r.stdout.slice(r.stdout.lastIndexOf('"pods"'));
    expect(lastDump).toMatch(/"containers": \[\]/);
  });

  it('names a bad line, and a command the plugins failed, on stderr, not on stdout, and goes on', async ({
    expect,
  }) => {
    const dir = mkdtempSync(path.join(tmp, 'refuse-'));
    writeFileSync(
      path.join(dir, '10-refuse'),
      `#!${process.execPath}
const { Stub } = require(${JSON.stringify(sdk)});
const refuse = (id, what) => { if (id.startsWith('refused')) throw new Error('10-refuse will not ' + what); };
void new Stub({
  runPodSandbox: (pod) => refuse(pod.id, 'run this pod'),
  createContainer: (_pod, ctr) => refuse(ctr.id, 'create this container'),
  updateContainer: () => { throw new Error('10-refuse will not update anything'); },
}).start();
`,
      { mode: 0o755 },
    );
    const input = [
      'frobnicate',
      'run-pod refused-pod',
      'run-pod p1',
      'create refused-ctr p1',
      'create c1 p1',
      'update c1 shares=512',
      'start c1',
      'quit',
      '',
    ].join('\n');
    const r = await sim(['--interactive', '--plugin-dir', dir], input);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/unknown command "frobnicate"/);
    expect(r.stdout).not.toMatch(/frobnicate/);
    expect(r.stdout).toMatch(/RunPodSandbox p1/);
    expect(r.stderr.split('\n').filter((l) => / failed: /.test(l))).toEqual([
      expect.stringMatching(/^run-pod failed: .*10-refuse will not run this pod/),
      expect.stringMatching(/^creation failed: .*10-refuse will not create this container/),
      expect.stringMatching(/^update failed: .*10-refuse will not update anything/),
    ]);
    expect(r.stdout).not.toMatch(/(run-pod|creation|update) failed/);
    expect(r.stdout).toMatch(/state\s+StartContainer c1 -> RUNNING/);
  });
});

describe.concurrent('nrictl sim flag errors', () => {
  it.for<[string[], RegExp]>([
    [['--request-timeout', 'abc'], /--request-timeout abc: write numbers with units/],
    [['--registration-timeout', '5'], /--registration-timeout 5: a duration needs a unit, such as 2s or 500ms/],
    [['/nonexistent/scenario.yaml'], /nonexistent\/scenario\.yaml/],
    [['--nri-version', 'v0.2.0'], /--nri-version: .*older than v0\.3\.0/],
    [['demo', '--buffer', '0'], /--buffer: Expected an integer greater than or equal to 1 but received: 0/],
  ])('%j gives one clear line and exit 2', async ([args, message], { expect }) => {
    const r = await refused(args);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(message);
  });

  it('a malformed scenario gives one line naming the file, and exit 2', async ({ expect }) => {
    const bad = path.join(tmp, 'bad.yaml');
    writeFileSync(bad, 'pods:\n  - {id: p0, name: [unclosed\n');
    const r = await sim([bad]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('bad.yaml');
  });
});

describe.concurrent('nrictl sim grammar', () => {
  it('`nrictl sim demo` runs the built-in scenario and exits by itself', async ({ expect }) => {
    const r = await sim(['demo']);
    expect(r.code).toBe(0);
    expect(r.lines[0]).toMatch(/listening\s+\/\S+\/nri\.sock$/);
    expect(r.lines.at(-1)).toBe('script done: 13 steps, 0 failed');
    expect(r.stderr).toBe('');
  });

  it('the old spellings still work, each with a one-line warning', async ({ expect }) => {
    const r = await sim(['--scenario', demo, '--no-interactive', '--plugin-path', plugins, '-o', 'text']);
    expect(r.code).toBe(0);
    expect(r.lines.at(-1)).toBe(`script done: ${demoSteps} steps, 0 failed`);
    expect(r.stdout).toMatch(/registered\s+10-annotate pre-started/);
    expect(r.stderr.trim().split('\n').sort()).toEqual([
      'Warning: --plugin-path is deprecated: use --plugin-dir (the old name goes away in the next release)',
      'Warning: --scenario is deprecated: use nrictl sim SCENARIO (the old name goes away in the next release)',
      'Warning: -o text is deprecated: use -o table (the default)',
    ]);
  });

  it('-o yaml streams one document per record, ending with the script', async ({ expect }) => {
    const r = await sim([demo, '-o', 'yaml']);
    expect(r.code).toBe(0);
    const docs = r.stdout.split(/^---$/m).filter((d) => d.trim());
    expect(docs[0]).toMatch(/^\s*time: .*\ntype: listening\nsocketPath: \//);
    expect(docs.at(-1)).toMatch(new RegExp(`type: script-done\nsteps: ${demoSteps}\nfailed: 0\nstopped: false`));
  });

  it('-o json ends with the script as one more object', async ({ expect }) => {
    const r = await sim([demo, '-o', 'json']);
    const last = JSON.parse(r.lines.at(-1)!) as Record<string, unknown>;
    expect(last).toMatchObject({ type: 'script-done', steps: demoSteps, failed: 0, stopped: false });
  });

  it('refuses the scenario given twice, and -o junit without --expect', async ({ expect }) => {
    const [twice, junit] = await Promise.all([sim([demo, '--scenario', demo]), sim([demo, '-o', 'junit'])]);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toMatch(/give the scenario once/);
    expect(junit.code).toBe(2);
    expect(junit.stderr).toMatch(/-o junit reports expectations: give --expect FILE/);
  });
});

describe.concurrent('nrictl sim and plugins that leave', () => {
  it('a pre-started plugin that exits after its work is stopped, not dropped', async ({ expect }) => {
    const dir = mkdtempSync(path.join(tmp, 'leaver-'));
    writeFileSync(
      path.join(dir, '10-leaver'),
      `#!${process.execPath}\nconst { Stub } = require(${JSON.stringify(sdk)});\nconst stub = new Stub({ createContainer: () => void setTimeout(() => void stub.stop(), 20) });\nvoid stub.start();\n`,
      { mode: 0o755 },
    );
    const r = await sim(['demo', '--plugin-dir', dir]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/stopped\s+10-leaver: the plugin exited \(status 0\)/);
    expect(r.stdout).not.toMatch(/dropped/);
  });
});

describe.concurrent('nrictl sim checks its inputs before anything starts', () => {
  /** Exit 2, one line naming the flag, nothing on stdout: no socket was made, no plugin ran. */
  async function refusedBeforeStart(expect: ExpectStatic, args: string[], message: RegExp): Promise<void> {
    const r = await refused(args);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(message);
  }

  it('a plugin directory that does not exist', async ({ expect }) => {
    await refusedBeforeStart(
      expect,
      ['demo', '--plugin-dir', '/nonexistent/plugins'],
      /^Error: --plugin-dir: \/nonexistent\/plugins does not exist/,
    );
  });

  it('a plugin directory that is a file', async ({ expect }) => {
    const file = path.join(tmp, 'plugin.cjs');
    await refusedBeforeStart(
      expect,
      ['demo', '--plugin-dir', file],
      /^Error: --plugin-dir: .*plugin\.cjs is not a directory/,
    );
  });

  it('a configuration directory that does not exist', async ({ expect }) => {
    await refusedBeforeStart(
      expect,
      ['demo', '--plugin-dir', plugins, '--conf-dir', '/nonexistent/conf.d'],
      /^Error: --conf-dir: \/nonexistent\/conf\.d does not exist/,
    );
  });

  it('an expectation after a step the scenario does not have, before any plugin starts', async ({ expect }) => {
    const dir = mkdtempSync(path.join(tmp, 'wrong-step-'));
    const marker = path.join(dir, 'plugin-ran');
    mkdirSync(path.join(dir, 'plugins'));
    // A plugin that leaves a mark when it runs at all.
    writeFileSync(
      path.join(dir, 'plugins', '10-mark'),
      `#!/bin/sh\ntouch ${marker}\nexec ${process.execPath} ${path.join(tmp, 'plugin.cjs')}\n`,
      { mode: 0o755 },
    );
    writeFileSync(
      path.join(dir, 'expect.yaml'),
      'scenario: ' +
        path.join(repo, 'examples/demo.yaml') +
        '\nexpect:\n  - after: create no-such-container\n    result: succeeded\n',
    );
    await refusedBeforeStart(
      expect,
      ['--plugin-dir', path.join(dir, 'plugins'), '--expect', path.join(dir, 'expect.yaml')],
      /expect\.yaml: expect\[0\]\.after: no step "create no-such-container"/,
    );
    expect(existsSync(marker)).toBe(false);
  });
});

describe.concurrent('nrictl sim socket permissions', () => {
  it('makes a 0700 directory with a 0600 socket by default', async ({ expect }) => {
    const child = spawn(process.execPath, [BIN, 'sim', '--keep-running', '-o', 'json'], {
      cwd: repo,
      env: cliEnv({ CI: '1' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const first = await new Promise<string>((resolve, reject) => {
      let buf = '';
      child.stdout.on('data', (b: Buffer) => {
        buf += b.toString();
        if (buf.includes('\n')) resolve(buf.split('\n')[0]);
      });
      child.once('exit', (code) => reject(new Error(`sim exited ${code}`)));
    });
    const { socketPath } = JSON.parse(first) as { socketPath: string };
    try {
      expect(statSync(socketPath).isSocket()).toBe(true);
      expect(statSync(socketPath).mode & 0o777).toBe(0o600);
      expect(statSync(path.dirname(socketPath)).mode & 0o777).toBe(0o700);
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
    // Cleaned up on exit.
    expect(existsSync(path.dirname(socketPath))).toBe(false);
  });

  it('refuses a socket path over 107 bytes with exit 2 and one line, leaving nothing at the cut-off path', async ({
    expect,
  }) => {
    const dir = mkdtempSync(path.join(tmp, 'long-'));
    const long = path.join(dir, 'l'.repeat(134 - dir.length - 1));
    const r = await sim(['--socket', long]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([
      `Error: --socket: socket path ${long} is 134 bytes long; a unix socket path can have at most 107 bytes; pick a shorter path`,
    ]);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('refuses a socket in a group- or other-writable directory with a clear message', async ({ expect }) => {
    const open = path.join(tmp, 'open');
    mkdirSync(open);
    chmodSync(open, 0o777);
    const r = await sim(['--socket', path.join(open, 'nri.sock')]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(
      /refusing to listen on .*open\/nri\.sock: its directory .* is writable by group or others \(mode 777\)/,
    );
    expect(existsSync(path.join(open, 'nri.sock'))).toBe(false);
  });
});

describe.concurrent('nrictl sim --wait-for-plugins', () => {
  it('holds the script until an external plugin has synchronized, which then sees every scripted event', async ({
    expect,
  }) => {
    const { Stub } = await import('../../src/plugin/index.js');
    const child = spawn(
      process.execPath,
      [BIN, 'sim', 'examples/demo.yaml', '--wait-for-plugins', '1', '--calls', '-o', 'json'],
      {
        cwd: repo,
        env: cliEnv({ CI: '1' }),
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const lines: Array<{ type: string; event?: string; plugin?: string; socketPath?: string }> = [];
    let buf = '';
    const seen = (pred: (l: (typeof lines)[number]) => boolean) =>
      new Promise<(typeof lines)[number]>((resolve) => {
        const check = () => {
          const hit = lines.find(pred);
          if (hit) resolve(hit);
          else child.stdout.once('data', () => setImmediate(check));
        };
        check();
      });
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      buf += d;
      const parts = buf.split('\n');
      buf = parts.pop() ?? '';
      for (const p of parts) if (p.trim()) lines.push(JSON.parse(p));
    });
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));

    const listening = await seen((l) => l.type === 'listening');
    // Long enough for the old fixed 200 ms pause to have let the script run.
    await new Promise((r) => setTimeout(r, 600));
    expect(lines.filter((l) => l.type === 'state-changed' || l.type === 'invoke')).toEqual([]);

    const received: string[] = [];
    const stub = new Stub(
      {
        runPodSandbox: (pod) => void received.push(`RunPodSandbox:${pod.name}`),
        createContainer: (_pod, ctr) => void received.push(`CreateContainer:${ctr.name}`),
      },
      { socketPath: listening.socketPath!, name: 'waited-for', index: '50' },
    );
    await stub.start();
    expect(await exited).toBe(0);
    await stub.stop();
    expect(received).toEqual(['RunPodSandbox:payments-5f4d9c8b7-qw7rt', 'CreateContainer:payments']);
    expect(lines.some((l) => l.type === 'invoke' && l.plugin === '50-waited-for')).toBe(true);
  });
});
