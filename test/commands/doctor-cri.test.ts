// `nrictl doctor` comparing CRI's view with NRI's, as a user runs it: the built CLI
// against `nrictl sim --cri-socket` in another process, both over real sockets, driven
// over CRI from here. It says which CRI socket it asked and why, lists each difference
// with its reason, and without CRI access says "not checked" and why: a missing socket,
// none found, one the user may not open. The reasons themselves, one run each, are in
// test/diagnose/compare-views.test.ts.
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCriClient, type CriClient } from '../../src/cri/index.js';
import { reachableTempDir } from '../support/reachable.js';
import { container, POD } from '../cri/helpers.js';
import { CANNOT_SWITCH_USER, cleanupAsNobody, nrictlAsNobody } from './as-another-user.js';
import { assertBuilt, BIN, runCli } from './nri-cli.js';

let t: ReturnType<typeof reachableTempDir>;
let sim: ChildProcess;
let client: CriClient;
let nriSocket: string;
let criSocket: string;
let root: string;
let exitedId: string;

beforeAll(async () => {
  assertBuilt('doctor', 'sim');
  // Reachable by another user, for the run as nobody; the simulator's CRI socket goes in a
  // directory it makes 0700 itself, its NRI socket in one open to all (see below).
  t = reachableTempDir('doccri-');
  chmodSync(t.dir, 0o755);
  root = path.join(t.dir, 'root');
  mkdirSync(root, { mode: 0o755 });
  nriSocket = path.join(t.dir, 'nri.sock');
  criSocket = path.join(t.dir, 'cri', 'cri.sock');
  sim = spawn(
    process.execPath,
    [BIN, 'sim', '--preset', 'containerd-2.3', '--socket', nriSocket, '--cri-socket', criSocket, '-o', 'json'],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1', CI: '1' } },
  );
  await new Promise<void>((resolve, reject) => {
    let out = '';
    sim.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('"api":"cri"')) resolve();
    });
    sim.once('close', (code) => reject(new Error(`sim exited ${code}`)));
  });
  sim.stdout!.resume();
  client = await openCriClient({ socketPath: criSocket, timeoutMs: 5000 });
  const { podSandboxId } = await client.runPodSandbox(POD);
  for (const name of ['app', 'init']) {
    const { containerId } = await client.createContainer(podSandboxId, container(name), POD);
    await client.startContainer(containerId);
    if (name === 'init') exitedId = containerId;
  }
  await client.stopContainer(exitedId);
});

afterAll(async () => {
  client?.close();
  if (sim && sim.exitCode === null) {
    const closed = new Promise((r) => sim.once('close', r));
    sim.kill('SIGTERM');
    await closed;
  }
  cleanupAsNobody();
  t?.cleanup();
});

const doctor = (...args: string[]) => ['doctor', '--root', root, '--socket', nriSocket, ...args];

describe('nrictl doctor and CRI', () => {
  it('--cri-socket: says which socket, and lists each difference with its reason; an expected one is no finding', async () => {
    const r = await runCli(doctor('--cri-socket', criSocket));
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.split('\n');
    const at = lines.findIndex((l) => l.startsWith('CRI: '));
    expect(lines[at]).toBe(
      `CRI: CRI socket ${criSocket} (as given): containerd v2.3.4 lists 1 pod, 2 containers; NRI handed plugins 1 pod, 1 container; they differ in 1 object:`,
    );
    expect(lines[at + 1]).toBe(
      `  container shop/web/init ${exitedId.slice(0, 13)}, CRI only (exited): it exited: the runtime hands plugins no exited container in Synchronize (containerd and CRI-O leave them out; plugins were told when it stopped)`,
    );
    expect(r.stdout).not.toMatch(/\[(cri|nri)-/);
  });

  it("CONTAINER_RUNTIME_ENDPOINT (crictl's variable, unix:// form) names the socket too; -o json carries the comparison", async () => {
    const r = await runCli(doctor('-o', 'json'), { CONTAINER_RUNTIME_ENDPOINT: `unix://${criSocket}` });
    expect(r.code, r.stderr).toBe(0);
    const views = (JSON.parse(r.stdout) as { views: Record<string, unknown> }).views;
    expect(views).toMatchObject({
      status: 'compared',
      criSocket,
      criChoice: `CRI socket ${criSocket} (as given)`,
      cri: { pods: 1, containers: 2 },
      nri: { pods: 1, containers: 1 },
      differences: [{ id: exitedId, reason: 'exited', expected: true }],
    });
  });

  it('no CRI socket named and none found: not checked, saying where it looked', async () => {
    const r = await runCli(doctor(), { CONTAINER_RUNTIME_ENDPOINT: undefined });
    expect(r.code, r.stderr).toBe(0);
    const looked = path.join(root, 'run/containerd/containerd.sock');
    expect(r.stdout).toContain(
      `CRI: not checked: CRI socket ${looked} (no runtime config found, and none of /run/containerd/containerd.sock, /var/run/crio/crio.sock, /var/run/isulad.sock is there)`,
    );
    expect(r.stdout).toContain('[cri-not-compared]');
    expect(r.stdout).not.toMatch(/NRI handed plugins the same/);
  });

  it('a CRI socket that is not there: not checked, and why', async () => {
    const missing = path.join(t.dir, 'nothing.sock');
    const r = await runCli(doctor('--cri-socket', missing, '-o', 'json'));
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as { views: unknown }).views).toEqual({
      status: 'not-checked',
      criSocket: missing,
      reason: `no CRI socket at ${missing}: is the runtime running? (give the runtime's CRI socket with --cri-socket)`,
    });
  });

  describe.skipIf(CANNOT_SWITCH_USER !== undefined)(
    `not root${CANNOT_SWITCH_USER ? `: skipped, ${CANNOT_SWITCH_USER}` : ''}`,
    () => {
      it('a CRI socket the user may not open: not checked, permission denied, never "the same"', () => {
        // NRI's socket opened to all (a test's doing: a runtime's is root's), CRI's kept as the simulator made it.
        chmodSync(nriSocket, 0o666);
        const r = nrictlAsNobody(...doctor('--cri-socket', criSocket, '-o', 'json'));
        expect(r.stderr).toBe('');
        const json = JSON.parse(r.stdout) as { connection: string; views: unknown };
        expect(json.connection).toBe('answered');
        expect(json.views).toEqual({
          status: 'not-checked',
          criSocket,
          reason: `permission denied on ${criSocket}: run as root or as the socket's owner`,
        });
      });
    },
  );
});
