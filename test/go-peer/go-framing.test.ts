// nrictl's traffic read by peers that frame and read like the Go ones (containerd/nri
// pkg/net/multiplex over containerd/ttrpc): every message nrictl sends, in either role,
// must be readable by a reader that gets one mux frame per Read and fails with ENOMEM
// when the frame is bigger than the buffer it offers.
import { execFile } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { nri } from '../../src/api/index.js';
import { Stub } from '../../src/plugin/index.js';
import { generateScenario } from '../../src/runtime/sim/generate.js';
import { ofType, startSim, waitFor, type Sim } from '../runtime/helpers.js';
import { GoMux } from './go-mux.js';
import { GoChannel } from './go-ttrpc.js';
import { goPlugin, listenGoRuntime, type GoRuntime } from './go-nri.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'go-framing-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

async function sim(...args: Parameters<typeof startSim>): Promise<Sim> {
  const s = await startSim(...args);
  cleanups.push(() => s.close());
  return s;
}

function dial(socketPath: string): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const sock = net.connect(socketPath, () => resolve(sock));
    sock.once('error', reject);
  });
}

describe('the Go reader model', () => {
  // Its strictness is what makes the tests below worth anything: it must refuse what Go refuses.
  it('refuses a message written in one frame bigger than 4096 bytes, and reads what a Go writer sends', async () => {
    const dir = await tempDir();
    const sockPath = path.join(dir, 'pair.sock');
    const server = net.createServer();
    await new Promise<void>((r) => server.listen(sockPath, r));
    cleanups.push(() => void server.close());
    const accepted = new Promise<net.Socket>((r) => server.once('connection', r));
    const a = await dial(sockPath);
    const b = await accepted;
    const goWriter = new GoChannel(new GoMux(a).open(1));
    const readerMux = new GoMux(b);
    cleanups.push(() => {
      a.destroy();
      b.destroy();
    });
    const goReader = new GoChannel(readerMux.open(1));

    for (const size of [0, 100, 4086, 4087, 4096, 8192, 10_000, 1 << 20]) {
      goWriter.send(1, 1, Buffer.alloc(size, 7));
      const msg = await goReader.recv();
      expect(msg.payload.length).toBe(size);
    }
    expect(readerMux.enomem).toEqual([]);

    // One frame holding a whole 5000-byte message: what nrictl wrote before the fix.
    const whole = Buffer.alloc(10 + 5000);
    whole.writeUInt32BE(5000, 0);
    whole.writeUInt32BE(3, 4);
    whole[8] = 1;
    new GoMux(a).writeFrame(1, whole);
    await expect(goReader.recv()).rejects.toThrow(/cannot allocate memory/);
    expect(readerMux.enomem).toEqual([{ connId: 1, frameLength: 5010, capacity: 4096 }]);
  });
});

describe('the simulator, read by a Go plugin', () => {
  it('synchronizes 600 pods and 3,000 containers, split in parts, without a frame the Go reader refuses', async () => {
    // Some 10 MB, over twice ttrpc's 4 MiB message limit: refused whole, the state goes out
    // in three parts (a first, a middle and a last), each over many 4096-byte frames.
    const scenario = generateScenario({ pods: 600, containersPerPod: 5, detail: 'full' });
    // Framing, not speed, is under test: a loaded test machine must not trip the request timeout.
    const s = await sim(scenario, { requestTimeoutMs: 30_000 });
    const plugin = goPlugin(await dial(s.socketPath), 'gobig', '10');
    cleanups.push(() => plugin.close());
    await plugin.registered;
    await waitFor(
      'the Go plugin to synchronize or fail',
      () =>
        plugin.readErrors.length > 0 ||
        plugin.mux.closed ||
        ofType(s.events, 'synchronized').find((e) => e.plugin === '10-gobig'),
      30_000,
    );

    expect(plugin.mux.enomem).toEqual([]);
    expect(plugin.readErrors).toEqual([]);
    expect(plugin.syncParts.length).toBeGreaterThan(1);
    expect(plugin.syncParts.at(-1)?.more).toBe(false);
    expect(plugin.syncParts.reduce((n, p) => n + p.containers.length, 0)).toBe(3000);
    expect(plugin.syncParts.reduce((n, p) => n + p.pods.length, 0)).toBe(600);
    expect(ofType(s.events, 'dropped')).toEqual([]);
  }, 60_000);

  it('configures a pre-started Go plugin with a 200 KB configuration', async () => {
    const dir = await tempDir();
    const plugins = path.join(dir, 'plugins');
    const confd = path.join(dir, 'conf.d');
    await mkdir(plugins);
    await mkdir(confd);
    // The Go peer's TypeScript bundled into the executable (esbuild's own program, as in
    // test/support/built.ts): node runs it as it is, where tsx would compile the peer and
    // the API's sources again in the plugin's process.
    const here = path.dirname(fileURLToPath(import.meta.url));
    const esbuild = createRequire(import.meta.url).resolve('esbuild/bin/esbuild');
    const plugin = path.join(plugins, '10-goconf');
    await promisify(execFile)(
      esbuild,
      [
        ...['--bundle', '--format=cjs', '--platform=node', '--target=node20', '--log-level=error'],
        `--banner:js=#!${process.execPath}`,
        `--outfile=${plugin}`,
        path.join(here, 'launched-plugin.ts'),
      ],
      { timeout: 60_000 },
    );
    await chmod(plugin, 0o755);
    const config = `# ${'x'.repeat(200 * 1024)}\n`;
    await writeFile(path.join(confd, '10-goconf.conf'), config);

    const s = await sim(undefined, { pluginPath: plugins, pluginConfigPath: confd, registrationTimeoutMs: 15_000 });
    const said = await waitFor(
      'the Go plugin to read its configuration or fail',
      () => ofType(s.events, 'plugin-output').find((e) => /configured with|error receiving/.test(e.line)),
      15_000,
    );
    expect(said.line).toBe(`configured with ${config.length} bytes of configuration`);
    await waitFor(
      'the Go plugin to synchronize',
      () => ofType(s.events, 'synchronized').find((e) => e.plugin === '10-goconf'),
      15_000,
    );
    expect(ofType(s.events, 'dropped')).toEqual([]);
  });
});

describe('an SDK plugin, read by a Go runtime', () => {
  async function registeredStub(
    handlers: ConstructorParameters<typeof Stub>[0],
  ): Promise<{ stub: Stub; rt: GoRuntime }> {
    const dir = await tempDir();
    const socketPath = path.join(dir, 'nri.sock');
    const listening = await listenGoRuntime(socketPath);
    cleanups.push(() => listening.close());
    const stub = new Stub(handlers, { name: 'big', index: '50', socketPath });
    cleanups.push(() => stub.stop());
    const started = stub.start();
    const rt = await listening.accepted;
    await rt.registration;
    await rt.call(
      'Configure',
      nri.ConfigureRequest.encode({
        runtimeName: 'go',
        runtimeVersion: 'v0.12.2',
        requestTimeout: 2000,
        registrationTimeout: 5000,
      }).finish(),
      (b) => nri.ConfigureResponse.decode(b),
    );
    await rt.call('Synchronize', nri.SynchronizeRequest.encode({}).finish(), (b) => nri.SynchronizeResponse.decode(b));
    await started;
    return { stub, rt };
  }

  const createRequest = nri.CreateContainerRequest.encode({
    pod: { id: 'pod1', name: 'web', namespace: 'default' },
    container: { id: 'ctr1', podSandboxId: 'pod1', name: 'app' },
  }).finish();

  for (const [label, count, valueSize] of [
    ['6 KB', 200, 16],
    ['1 MB', 1000, 1024],
  ] as const) {
    it(`answers CreateContainer with a ${label} adjustment the Go runtime can read`, async () => {
      const env = Array.from({ length: count }, (_, i) => ({ key: `VAR_${i}`, value: 'v'.repeat(valueSize) }));
      const { rt } = await registeredStub({ createContainer: () => ({ adjust: { env } }) });
      const answer = await rt.call('CreateContainer', createRequest, (b) => nri.CreateContainerResponse.decode(b));
      expect(answer.adjust?.env).toHaveLength(count);
      expect(answer.adjust?.env?.[count - 1]).toMatchObject({ key: `VAR_${count - 1}` });
      expect(rt.mux.enomem).toEqual([]);
      expect(rt.readErrors).toEqual([]);
    });
  }

  it('keeps many small messages in flight in both directions readable', async () => {
    const { stub, rt } = await registeredStub({
      createContainer: (_pod, ctr) => ({ adjust: { annotations: { seen: String(ctr.id) } } }),
    });
    // 300 UpdateContainers from the plugin at once, and 300 CreateContainer answers at once.
    const updates = Array.from({ length: 300 }, (_, i) =>
      stub.updateContainers([
        { containerId: `ctr${i}`, linux: { resources: { cpu: { shares: { value: 100 + i } } } } },
      ]),
    );
    const creates = Array.from({ length: 300 }, (_, i) =>
      rt.call(
        'CreateContainer',
        nri.CreateContainerRequest.encode({ pod: { id: 'p' }, container: { id: `c${i}`, podSandboxId: 'p' } }).finish(),
        (b) => nri.CreateContainerResponse.decode(b),
      ),
    );
    // A Go reader that fails leaves the calls it was reading unanswered: stop waiting then.
    const settled = await Promise.race([
      Promise.all([Promise.allSettled(updates), Promise.allSettled(creates)]),
      waitFor('a read error', () => rt.readErrors.length > 0 || rt.client.failure, 15_000),
    ]);
    expect(rt.readErrors).toEqual([]);
    expect(rt.client.failure).toBeUndefined();
    const [updated, created] = settled as [
      PromiseSettledResult<unknown>[],
      PromiseSettledResult<nri.CreateContainerResponse>[],
    ];
    expect(updated.filter((r) => r.status === 'rejected')).toEqual([]);
    expect(created.map((r) => (r.status === 'fulfilled' ? r.value.adjust?.annotations?.seen : r.reason))).toEqual(
      Array.from({ length: 300 }, (_, i) => `c${i}`),
    );
    expect(rt.updates).toHaveLength(300);
    expect(rt.mux.enomem).toEqual([]);
    expect(rt.readErrors).toEqual([]);
  });
});

describe('the simulator, as strict as a Go runtime', () => {
  const env = Array.from({ length: 200 }, (_, i) => ({ key: `VAR_${i}`, value: 'v'.repeat(16) }));
  const pod = { id: 'pod1', name: 'web', namespace: 'default', uid: 'u1' };

  async function createWith(wholeFrames: boolean) {
    const s = await sim({ pods: [pod], containers: [] });
    const plugin = goPlugin(await dial(s.socketPath), 'framer', '20', {
      createAnswer: { adjust: { env } },
      wholeFrames,
    });
    cleanups.push(() => plugin.close());
    await waitFor('the plugin to synchronize', () => ofType(s.events, 'synchronized').length > 0);
    const result = await s.runtime.createContainer('pod1', { id: 'ctr1', podSandboxId: 'pod1', name: 'app' });
    return { s, result };
  }

  it('drops a plugin that answers with a 6 KB message in one frame, saying a Go runtime would', async () => {
    const { s, result } = await createWith(true);
    const dropped = await waitFor('the plugin to be dropped', () => ofType(s.events, 'dropped')[0]);
    expect(dropped.plugin).toBe('20-framer');
    expect(dropped.reason).toMatch(/chunk of \d+ bytes where a Go ttrpc reader offers 4096.*cannot allocate memory/);
    // As in Go: the container is created without the dropped plugin's adjustment.
    expect(result.ok).toBe(true);
    expect((result.ok && result.container.env) || []).not.toContainEqual(expect.stringMatching(/^VAR_0=/));
  });

  it('takes the same answer framed as Go frames it', async () => {
    const { s, result } = await createWith(false);
    expect(ofType(s.events, 'dropped')).toEqual([]);
    expect(result.ok).toBe(true);
    expect(result.ok && result.container.env).toContain('VAR_0=vvvvvvvvvvvvvvvv');
  });
});
