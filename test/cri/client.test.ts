// The CRI client against the simulator's CRI face over a real unix socket: every call of
// the subset, every error kind, and what a bad socket says (one line, and the exit code
// the command line gives it).
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import http2 from 'node:http2';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { describeError } from '../../src/cli/error-table.js';
import { ExitCode } from '../../src/cli/exit-codes.js';
import { CriCgroupDriver, CriContainerState, CriError, CriPodState, openCriClient } from '../../src/cri/index.js';
import { Stub } from '../../src/plugin/index.js';
import { CANNOT_SWITCH_USER, cleanupAsNobody, nodeEvalAsNobody } from '../commands/as-another-user.js';
import { waitForPlugin } from '../runtime/helpers.js';
import { container, criSimPerTest, POD } from './helpers.js';

const start = criSimPerTest();

afterAll(() => cleanupAsNobody());

const scratch: string[] = [];
const closers: Array<() => void> = [];
afterEach(() => {
  for (const c of closers.splice(0)) c();
  for (const d of scratch.splice(0)) rmSync(d, { recursive: true, force: true });
});
function tempDir(): string {
  const d = mkdtempSync(path.join(os.tmpdir(), 'cri-'));
  scratch.push(d);
  return d;
}

/** What opening a client at `socketPath` throws, with how the command line would show it. */
async function openFails(socketPath: string, timeoutMs = 400) {
  const err = await openCriClient({ socketPath, timeoutMs }).then(
    (c) => {
      c.close();
      throw new Error(`${socketPath} opened`);
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(CriError);
  const shown = describeError(err);
  expect(shown.message).not.toContain('\n');
  return { err: err as CriError, ...shown };
}

describe('every call of the subset', () => {
  it('drives a pod and a container through their whole life', async () => {
    const { client } = await start();
    expect(client.runtimeVersion).toMatchObject({ runtimeName: 'nrictl-sim', runtimeApiVersion: 'v1' });
    expect((await client.version()).runtimeVersion).toBe('0.1.0');
    const status = await client.status(true);
    expect(status.status?.conditions?.map((c) => [c.type, c.status])).toEqual([
      ['RuntimeReady', true],
      ['NetworkReady', true],
    ]);
    expect(JSON.parse(status.info.config)).toMatchObject({ simulator: 'nrictl sim' });
    expect((await client.runtimeConfig()).linux?.cgroupDriver).toBe(CriCgroupDriver.CGROUPFS);

    const { podSandboxId: pod } = await client.runPodSandbox(POD);
    expect(pod).toMatch(/^[0-9a-f]{64}$/);
    const pods = await client.listPodSandbox();
    expect(pods.items.map((p) => [p.id, p.metadata?.name, p.state])).toEqual([[pod, 'web', CriPodState.READY]]);
    const podStatus = await client.podSandboxStatus(pod.slice(0, 12), true);
    expect(podStatus.status).toMatchObject({ id: pod, metadata: { namespace: 'shop', uid: 'uid-web', attempt: 1 } });
    expect(JSON.parse(podStatus.info.info)).toMatchObject({
      processStatus: 'running',
      config: { metadata: { name: 'web' }, labels: { app: 'web' } },
    });

    const config = container('app', { linux: { resources: { cpuShares: 512, memoryLimitInBytes: 268435456 } } });
    const { containerId: ctr } = await client.createContainer(pod, config, POD);
    expect((await client.listContainers({ podSandboxId: pod })).containers.map((c) => [c.id, c.state])).toEqual([
      [ctr, CriContainerState.CREATED],
    ]);
    await client.startContainer(ctr);
    let s = (await client.containerStatus(ctr)).status!;
    expect(s).toMatchObject({ state: CriContainerState.RUNNING, metadata: { name: 'app' } });
    expect(s.image?.image).toBe('registry.k8s.io/e2e-test-images/busybox:1.29-2');
    expect(s.resources?.linux).toMatchObject({ cpuShares: 512, memoryLimitInBytes: 268435456 });

    await client.updateContainerResources(ctr, { cpuShares: 1024, memoryLimitInBytes: 536870912 });
    s = (await client.containerStatus(ctr)).status!;
    expect(s.resources?.linux).toMatchObject({ cpuShares: 1024, memoryLimitInBytes: 536870912 });

    await client.stopContainer(ctr);
    s = (await client.containerStatus(ctr)).status!;
    expect(s).toMatchObject({ state: CriContainerState.EXITED, reason: 'Completed', exitCode: 0 });
    await client.removeContainer(ctr);
    expect((await client.listContainers()).containers).toEqual([]);
    await client.stopPodSandbox(pod);
    expect((await client.podSandboxStatus(pod)).status?.state).toBe(CriPodState.NOTREADY);
    await client.removePodSandbox(pod);
    expect((await client.listPodSandbox()).items).toEqual([]);
  });

  it('updates a pod’s resources where the runtime can (newest), and reports them in the verbose status', async () => {
    const { client } = await start();
    const { podSandboxId: pod } = await client.runPodSandbox(POD);
    await client.updatePodSandboxResources(pod, { resources: { cpuShares: 256, cpuQuota: 25000, cpuPeriod: 100000 } });
    const info = JSON.parse((await client.podSandboxStatus(pod, true)).info.info);
    expect(info.resources.linux).toMatchObject({ cpu_shares: 256, cpu_quota: 25000, cpu_period: 100000 });
  });

  it('images: every image is there unless the scenario lists them; a pull of another fails as a registry does', async () => {
    const open = await start();
    expect((await open.client.pullImage('busybox')).imageRef).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect((await open.client.imageStatus('anything:1')).image?.repoTags).toEqual(['docker.io/library/anything:1']);
    expect((await open.client.listImages()).images.map((i) => i.repoTags?.[0])).toEqual([
      'docker.io/library/busybox:latest',
    ]);

    const { client } = await start({ images: ['registry.k8s.io/pause:3.10'] });
    expect((await client.listImages()).images.map((i) => i.spec?.image)).toEqual(['registry.k8s.io/pause:3.10']);
    expect((await client.imageStatus('registry.k8s.io/pause:3.10')).image?.id).toMatch(/^sha256:/);
    expect((await client.imageStatus('busybox')).image).toBeNull();
    const err = await client.pullImage('busybox').catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'not-found', kind: 'not-found', details: { grpcCode: 5 } });
    expect((err as CriError).details.grpcMessage).toBe(
      'failed to pull and unpack image "docker.io/library/busybox:latest": failed to resolve reference "docker.io/library/busybox:latest": docker.io/library/busybox:latest: not found',
    );
    // Nor is a container made of it.
    const { podSandboxId: pod } = await client.runPodSandbox(POD);
    await expect(client.createContainer(pod, container('app'), POD)).rejects.toMatchObject({ code: 'not-found' });
  });
});

/** A simulator whose one plugin holds every RunPodSandbox until released. */
async function heldRunPodSandbox() {
  const { sim, client } = await start({ requestTimeoutMs: 5000 });
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  const plugin = new Stub({ runPodSandbox: () => held }, { name: 'hold', index: '10', socketPath: sim.socketPath });
  await plugin.start();
  closers.push(() => void plugin.stop());
  await waitForPlugin(sim, '10-hold');
  return { client, release };
}

describe('error kinds', () => {
  it('not-found: an unknown container or pod (exit 2)', async () => {
    const { client } = await start();
    const err = (await client.containerStatus('nope').catch((e: unknown) => e)) as CriError;
    expect(err).toMatchObject({
      code: 'not-found',
      kind: 'not-found',
      details: { call: 'ContainerStatus', grpcCode: 5 },
    });
    expect(err.message).toMatch(
      /^ContainerStatus at \/.*\/cri\.sock: NotFound: an error occurred when try to find container "nope": not found$/,
    );
    expect(err.goStatus).toBe(
      'rpc error: code = NotFound desc = an error occurred when try to find container "nope": not found',
    );
    expect(describeError(err).exitCode).toBe(ExitCode.USAGE);
    await expect(client.stopPodSandbox('nope')).rejects.toMatchObject({ code: 'not-found' });
    // Removing what is not there succeeds, as on containerd.
    await client.removeContainer('nope');
    await client.removePodSandbox('nope');
  });

  it('unimplemented: a call the runtime imitated does not have (exit 7)', async () => {
    const { client } = await start({ preset: 'containerd-2.1' });
    const err = (await client.updatePodSandboxResources('any', {}).catch((e: unknown) => e)) as CriError;
    expect(err).toMatchObject({ code: 'unimplemented', kind: 'unimplemented', details: { grpcCode: 12 } });
    expect(err.message).toContain('does not implement UpdatePodSandboxResources');
    expect(describeError(err).exitCode).toBe(ExitCode.REFUSED);
  });

  it('refused: the runtime answers with an error (exit 7)', async () => {
    const { client } = await start();
    const { podSandboxId: pod } = await client.runPodSandbox(POD);
    const { containerId } = await client.createContainer(pod, container('app'), POD);
    await client.startContainer(containerId);
    const err = (await client.startContainer(containerId).catch((e: unknown) => e)) as CriError;
    expect(err).toMatchObject({ code: 'refused', kind: 'refused', details: { grpcCode: 2 } });
    expect(err.message).toContain('is in CONTAINER_RUNNING state');
    expect(describeError(err).exitCode).toBe(ExitCode.REFUSED);
    // The same name twice is refused while the first lives (containerd's reservation).
    await expect(client.runPodSandbox(POD)).rejects.toMatchObject({ code: 'refused' });
  });

  it('timeout: a call unanswered past its deadline (exit 6)', async () => {
    const { client, release } = await heldRunPodSandbox();
    const err = (await client.runPodSandbox(POD, '', { timeoutMs: 200 }).catch((e: unknown) => e)) as CriError;
    release();
    expect(err).toMatchObject({ code: 'no-answer', kind: 'timeout', details: { call: 'RunPodSandbox', grpcCode: 4 } });
    expect(err.message).toMatch(
      /did not answer RunPodSandbox within 200ms: the runtime is busy or hung; the call may still take effect$/,
    );
    expect(describeError(err).exitCode).toBe(ExitCode.RUNTIME_GONE);
  });

  it('cancelled: the caller’s signal ends a call', async () => {
    const { client, release } = await heldRunPodSandbox();
    const stop = new AbortController();
    const call = client.runPodSandbox(POD, '', { signal: stop.signal });
    setTimeout(() => stop.abort(), 50);
    await expect(call).rejects.toMatchObject({ code: 'cancelled', kind: 'failed' });
    release();
  });

  it('cancelled: the client closed with a call in flight', async () => {
    const { client, release } = await heldRunPodSandbox();
    const call = client.runPodSandbox(POD);
    setTimeout(() => client.close(), 50);
    await expect(call).rejects.toMatchObject({ code: 'cancelled', kind: 'failed' });
    release();
  });

  it('runtime-gone: the runtime went away during a call, which gRPC ends as cancelled (exit 6)', async () => {
    const { sim } = await start({ requestTimeoutMs: 5000 });
    const { serveCri } = await import('../../src/runtime/sim/cri/serve.js');
    const served = await serveCri(sim.runtime, path.join(tempDir(), 'cri.sock'), {
      runtimeName: 'x',
      runtimeVersion: '1',
    });
    const client = await openCriClient({ socketPath: served.socketPath, timeoutMs: 5000 });
    closers.push(() => client.close());
    // The runtime shuts down while a plugin holds the pod's hook.
    const plugin = new Stub(
      { runPodSandbox: () => served.close() },
      { name: 'shutdown', index: '10', socketPath: sim.socketPath },
    );
    await plugin.start();
    closers.push(() => void plugin.stop());
    await waitForPlugin(sim, '10-shutdown');
    const err = (await client.runPodSandbox(POD).catch((e: unknown) => e)) as CriError;
    expect(err).toMatchObject({ code: 'runtime-gone', kind: 'runtime-gone', details: { grpcCode: 1 } });
    expect(err.message).toMatch(/^the runtime at .* went away during RunPodSandbox: /);
    expect(describeError(err).exitCode).toBe(ExitCode.RUNTIME_GONE);
  });

  it('runtime-gone: the runtime went away between calls (exit 6)', async () => {
    const dir = tempDir();
    const sock = path.join(dir, 'cri.sock');
    // A CRI socket that answers Version, then is gone.
    const { sim } = await start();
    const { serveCri } = await import('../../src/runtime/sim/cri/serve.js');
    const served = await serveCri(sim.runtime, sock, { runtimeName: 'x', runtimeVersion: '1' });
    const client = await openCriClient({ socketPath: sock, timeoutMs: 1000 });
    closers.push(() => client.close());
    await served.close();
    const err = (await client.listPodSandbox().catch((e: unknown) => e)) as CriError;
    expect(err).toMatchObject({ code: 'runtime-gone', kind: 'runtime-gone' });
    expect(err.message).toMatch(/^the runtime at .* went away during ListPodSandbox: no CRI socket at/);
    expect(describeError(err).exitCode).toBe(ExitCode.RUNTIME_GONE);
  });
});

describe('a bad socket: one line, and its exit code', () => {
  it('no socket there (connect, exit 4)', async () => {
    const p = path.join(tempDir(), 'missing.sock');
    const { err, exitCode, message } = await openFails(p);
    expect(err).toMatchObject({ code: 'no-socket', kind: 'connect' });
    expect(message).toBe(
      `no CRI socket at ${p}: is the runtime running? (give the runtime's CRI socket with --cri-socket)`,
    );
    expect(exitCode).toBe(ExitCode.CONNECT);
  });

  it('a file or a directory that is not a socket (connect, exit 4)', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'config.toml');
    writeFileSync(file, 'version = 3\n');
    const f = await openFails(file);
    expect(f.message).toBe(
      `${file} is not a socket (it is a regular file): give the runtime's CRI socket with --cri-socket`,
    );
    expect(f.exitCode).toBe(ExitCode.CONNECT);
    const d = await openFails(dir);
    expect(d.err.code).toBe('not-a-socket');
    expect(d.message).toContain('it is a directory');
  });

  it('a socket nothing listens on (connect, exit 4)', async () => {
    // A process that bound a socket and died leaves the file behind, bound by nobody.
    const p = path.join(tempDir(), 'stale.sock');
    const listen = `require('net').createServer().listen(${JSON.stringify(p)}, () => process.exit(0))`;
    expect(spawnSync(process.execPath, ['-e', listen]).status).toBe(0);
    const { err, exitCode, message } = await openFails(p);
    expect(err.code).toBe('connection-refused');
    expect(message).toBe(`connection refused at ${p}: no runtime listens there (a socket left by one that stopped?)`);
    expect(exitCode).toBe(ExitCode.CONNECT);
  });

  it.skipIf(CANNOT_SWITCH_USER)(
    'a socket only its owner may use, dialled by another user (connect, exit 4)',
    async () => {
      const { criSocket } = await start();
      // The socket is 0600 (the simulator makes it so); let the user reach it, not use it.
      chmodSync(path.dirname(criSocket), 0o755);
      const run = nodeEvalAsNobody(
        `import { openCriClient } from './dist/src/cri/index.js';
       import { describeError } from './dist/src/cli/error-table.js';
       await openCriClient({ socketPath: ${JSON.stringify(criSocket)}, timeoutMs: 1000 }).then(
         () => console.log('opened'),
         (e) => console.log(JSON.stringify({ code: e.code, ...describeError(e) })),
       );`,
      );
      expect(run.stderr).toBe('');
      expect(JSON.parse(run.stdout)).toEqual({
        code: 'permission-denied',
        exitCode: ExitCode.CONNECT,
        message: `permission denied on ${criSocket}: run as root or as the socket's owner`,
      });
    },
  );

  it("NRI's socket is not CRI's (connect, exit 4)", async () => {
    const { sim } = await start();
    const { err, exitCode, message } = await openFails(sim.socketPath);
    expect(err).toMatchObject({ code: 'not-cri', kind: 'connect' });
    expect(message).toBe(
      `${sim.socketPath} is not a CRI socket: it closes the connection on an HTTP/2 request (an NRI socket does); give the runtime's CRI socket with --cri-socket`,
    );
    expect(exitCode).toBe(ExitCode.CONNECT);
  });

  it('an HTTP/1 server is not CRI (connect, exit 4)', async () => {
    const p = path.join(tempDir(), 'http.sock');
    const server = http.createServer((_req, res) => res.end('hello'));
    await new Promise<void>((r) => server.listen(p, r));
    closers.push(() => void server.close());
    const { err, message } = await openFails(p);
    expect(err.code).toBe('not-cri');
    expect(message).toContain('it answers HTTP/1.x, not gRPC');
  });

  it('garbage on the wire is not CRI (connect, exit 4)', async () => {
    const p = path.join(tempDir(), 'garbage.sock');
    // The client hangs up on it: a reset on this side is expected.
    const server = net.createServer((s) => s.on('error', () => {}).end('\x01\x02\x03garbage, not a frame\n'));
    await new Promise<void>((r) => server.listen(p, r));
    closers.push(() => void server.close());
    const { err, exitCode, message } = await openFails(p);
    expect(err).toMatchObject({ code: 'not-cri', kind: 'connect' });
    expect(message).toBe(
      `${p} is not a CRI socket: it answers with something other than HTTP/2; give the runtime's CRI socket with --cri-socket`,
    );
    expect(exitCode).toBe(ExitCode.CONNECT);
  });

  it('an HTTP/2 server whose answer to Version is not CRI (connect, exit 4)', async () => {
    const p = path.join(tempDir(), 'h2.sock');
    // gRPC framing (uncompressed, 4 bytes long) around bytes no protobuf message decodes from.
    const frame = Buffer.from([0, 0, 0, 0, 4, 0xff, 0xff, 0xff, 0xff]);
    const server = http2.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/grpc' });
      res.addTrailers({ 'grpc-status': '0' });
      res.end(frame);
    });
    await new Promise<void>((r) => server.listen(p, r));
    closers.push(() => void server.close());
    const { err, exitCode, message } = await openFails(p);
    expect(err).toMatchObject({ code: 'not-cri', kind: 'connect' });
    expect(message).toMatch(
      new RegExp(
        `^${p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is not a CRI socket: its answer to Version is not CRI \\(.+\\); give the runtime's CRI socket with --cri-socket$`,
      ),
    );
    expect(exitCode).toBe(ExitCode.CONNECT);
  });

  it('a socket that accepts and never answers (timeout, exit 6)', async () => {
    const p = path.join(tempDir(), 'silent.sock');
    const held: net.Socket[] = [];
    const server = net.createServer((s) => void held.push(s));
    await new Promise<void>((r) => server.listen(p, r));
    closers.push(() => {
      for (const s of held) s.destroy();
      server.close();
    });
    const { err, exitCode, message } = await openFails(p, 300);
    expect(err).toMatchObject({ code: 'no-answer', kind: 'timeout' });
    expect(message).toBe(
      `${p} accepts connections but says nothing (waited 300ms): the runtime is hung, or this is not a CRI socket`,
    );
    expect(exitCode).toBe(ExitCode.RUNTIME_GONE);
  });

  it('a path too long for a unix socket (usage, exit 2), nothing dialled', async () => {
    const p = `/tmp/${'x'.repeat(120)}.sock`;
    const { err, exitCode } = await openFails(p);
    expect(err.code).toBe('path-too-long');
    expect(exitCode).toBe(ExitCode.USAGE);
  });

  it('a relative path that fits where its absolute form is too long: dialled as given, named in full', async () => {
    // nrictl sim binds a relative --cri-socket as given, and doctor's NRI session dials it
    // so: in a deep directory (an installed package's tour) only CRI had refused it.
    const { criSocket } = await start();
    const deep = path.join(tempDir(), 'd'.repeat(100));
    mkdirSync(deep);
    symlinkSync(criSocket, path.join(deep, 'cri.sock'));
    const absolute = path.join(realpathSync(deep), 'cri.sock');
    expect(Buffer.byteLength(absolute)).toBeGreaterThan(107);
    const here = process.cwd();
    process.chdir(deep);
    try {
      const c = await openCriClient({ socketPath: 'cri.sock', timeoutMs: 5000 });
      try {
        expect(c.socketPath).toBe(absolute);
        expect(c.runtimeVersion.runtimeName).toBe('nrictl-sim');
        expect((await c.listPodSandbox()).items).toEqual([]);
      } finally {
        c.close();
      }
    } finally {
      process.chdir(here);
    }
  });
});
