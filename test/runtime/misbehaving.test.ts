// Plugins that hang, talk garbage, vanish mid-event or refuse split Synchronize: each is
// dropped and reported, and the others go on.
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { nri } from '../../src/api/index.js';
import { Stub } from '../../src/plugin/index.js';
import { connectRawPlugin, ofType, startSim, waitFor, waitForPlugin, type RawPlugin, type Sim } from './helpers.js';

let sim: Sim | undefined;
const cleanup: Array<() => unknown> = [];
afterEach(async () => {
  for (const f of cleanup.splice(0)) await f();
  await sim?.close();
  sim = undefined;
});

const POD = { id: 'p', name: 'p', namespace: 'n' };

async function sdkPlugin(name: string, index: string, handlers: ConstructorParameters<typeof Stub>[0]): Promise<Stub> {
  const s = new Stub(handlers, { name, index, socketPath: sim!.socketPath });
  cleanup.push(() => s.stop().catch(() => undefined));
  await s.start();
  await waitForPlugin(sim!, `${index}-${name}`);
  return s;
}

/** A hand-written plugin peer on this test's simulator, closed after the test. */
async function rawPlugin(
  name: string,
  index: string,
  methods: Record<string, (payload: Buffer) => Uint8Array | Promise<Uint8Array>>,
  events = 0,
): Promise<RawPlugin> {
  const peer = await connectRawPlugin(sim!.socketPath, name, index, methods, events);
  cleanup.push(() => peer.socket.destroy());
  return peer;
}

describe('misbehaving plugins', () => {
  it('drops a plugin that sleeps past the request timeout; the next event still reaches the others', async () => {
    // The sleepy plugin answers only when the test ends: late whatever the timeout, so the
    // timeout can leave the steady one, which answers at once, a margin on a busy machine.
    sim = await startSim({ pods: [POD], containers: [] }, { requestTimeoutMs: 1000 });
    const seen: string[] = [];
    let wake!: () => void;
    const woken = new Promise<void>((r) => (wake = r));
    onTestFinished(() => wake());
    await sdkPlugin('sleepy', '10', {
      createContainer: async (_p, c) => {
        seen.push(`sleepy ${c.id}`);
        await woken;
      },
    });
    await sdkPlugin('steady', '20', { createContainer: (_p, c) => void seen.push(`steady ${c.id}`) });
    expect((await sim.runtime.createContainer('p', { id: 'c1', name: 'c1' })).ok).toBe(true);
    expect(ofType(sim.events, 'dropped')).toMatchObject([{ plugin: '10-sleepy' }]);
    expect(ofType(sim.events, 'dropped')[0].reason).toMatch(/request timeout \(1000 ms\)/);
    expect((await sim.runtime.createContainer('p', { id: 'c2', name: 'c2' })).ok).toBe(true);
    expect(seen).toEqual(['sleepy c1', 'steady c1', 'steady c2']);
    expect(sim.runtime.plugins().map((p) => p.name)).toEqual(['20-steady']);
  });

  it('drops a plugin that sends garbage bytes without failing', async () => {
    sim = await startSim({ pods: [POD], containers: [] });
    const seen: string[] = [];
    const { socket } = await rawPlugin('noisy', '10', {
      CreateContainer: () => {
        // Not a mux frame: a length far beyond anything valid on connection 7.
        socket.write(Buffer.from('GARBAGE! this is not a trunk frame at all'));
        return new Promise<Uint8Array>(() => undefined);
      },
    });
    await waitForPlugin(sim, '10-noisy');
    await sdkPlugin('steady', '20', { createContainer: (_p, c) => void seen.push(c.id!) });
    expect((await sim.runtime.createContainer('p', { id: 'c1', name: 'c1' })).ok).toBe(true);
    expect(seen).toEqual(['c1']);
    expect(ofType(sim.events, 'dropped').map((e) => e.plugin)).toEqual(['10-noisy']);
    expect(sim.runtime.plugins().map((p) => p.name)).toEqual(['20-steady']);
  });

  it('drops a plugin that disconnects in the middle of an event', async () => {
    sim = await startSim({ pods: [POD], containers: [] });
    const { socket } = await rawPlugin('quitter', '10', {
      CreateContainer: () => {
        socket.destroy();
        return new Promise<Uint8Array>(() => undefined);
      },
    });
    await waitForPlugin(sim, '10-quitter');
    const r = await sim.runtime.createContainer('p', { id: 'c1', name: 'c1' });
    expect(r.ok).toBe(true);
    await waitFor('drop report', () => ofType(sim!.events, 'dropped').length === 1);
    expect(ofType(sim.events, 'dropped')[0]).toMatchObject({ plugin: '10-quitter' });
    expect(sim.runtime.plugins()).toEqual([]);
  });

  it('falls back to StateChange when a plugin answers the dedicated RPC with Unimplemented', async () => {
    sim = await startSim({ pods: [POD], containers: [] });
    const changes: number[] = [];
    await rawPlugin('legacy', '10', {
      StateChange: (p) => {
        changes.push(nri.StateChangeEvent.decode(p).event);
        return nri.Empty.encode({}).finish();
      },
    });
    await waitForPlugin(sim, '10-legacy');
    await sim.runtime.runPodSandbox({ id: 'p2', name: 'p2', namespace: 'n' });
    await sim.runtime.stopPodSandbox('p2');
    expect(changes).toEqual([nri.Event.RUN_POD_SANDBOX, nri.Event.STOP_POD_SANDBOX]);
    expect(ofType(sim.events, 'invoke').map((e) => [e.event, e.via])).toEqual([
      ['RunPodSandbox', 'StateChange'],
      ['StopPodSandbox', 'StateChange'],
    ]);
  });

  it('rejects a registration with an invalid external name or index, and an event mask with unknown bits', async () => {
    sim = await startSim();
    await expect(rawPlugin('bad name!', '10', {})).rejects.toThrow(/invalid plugin name/);
    await expect(rawPlugin('fine', '1', {})).rejects.toThrow(/invalid plugin index/);
    await rawPlugin('greedy', '10', {}, (1 << 20) | 1);
    await waitFor('error report', () =>
      ofType(sim!.events, 'error').some((e) => /invalid plugin events: 0x100000/.test(e.message)),
    );
    expect(sim.runtime.plugins()).toEqual([]);
  });

  it('splits a large Synchronize into several messages with more=true on all but the last', async () => {
    const pods = Array.from({ length: 30 }, (_, i) => ({ id: `p${i}`, name: `p${i}`, namespace: 'n' }));
    const containers = pods.flatMap((p) =>
      [0, 1, 2].map((j) => ({ id: `${p.id}c${j}`, podSandboxId: p.id, name: `c${j}` })),
    );
    sim = await startSim({ pods, containers }, { syncChunkSize: 25 });
    const { syncRequests } = await rawPlugin('big', '10', {});
    await waitForPlugin(sim, '10-big');
    expect(syncRequests.length).toBeGreaterThan(3);
    expect(syncRequests.slice(0, -1).every((r) => r.more)).toBe(true);
    expect(syncRequests.at(-1)!.more).toBe(false);
    expect(syncRequests.flatMap((r) => r.pods.map((p) => p.id))).toEqual(pods.map((p) => p.id));
    expect(syncRequests.flatMap((r) => r.containers.map((c) => c.id))).toEqual(containers.map((c) => c.id));
    expect(ofType(sim.events, 'synchronized')[0]).toMatchObject({ plugin: '10-big', messages: syncRequests.length });
  });

  it('splits when the state exceeds the ttrpc message limit, as the Go runtime does', async () => {
    const big = 'x'.repeat(4096);
    const pods = Array.from({ length: 1200 }, (_, i) => ({
      id: `p${i}`,
      name: `p${i}`,
      namespace: 'n',
      annotations: { big },
    }));
    // 5 MB of state: its registration, not its speed, is tested; 30 s bounds it on a busy machine.
    sim = await startSim({ pods, containers: [] }, { requestTimeoutMs: 10_000, registrationTimeoutMs: 30_000 });
    const s = await sdkPlugin('sdk', '10', { synchronize: () => undefined, runPodSandbox: () => undefined });
    expect(s.events).not.toBe(0);
    const [synced] = ofType(sim.events, 'synchronized');
    expect(synced.messages).toBeGreaterThan(1);
    expect(synced.pods).toBe(1200);
  });

  it('drops a plugin that answers a split Synchronize part with more=false', async () => {
    const pods = Array.from({ length: 20 }, (_, i) => ({ id: `p${i}`, name: `p${i}`, namespace: 'n' }));
    sim = await startSim({ pods, containers: [] }, { syncChunkSize: 8 });
    await rawPlugin('old', '10', {
      Synchronize: () => nri.SynchronizeResponse.encode({ more: false }).finish(),
    });
    await waitFor('error', () =>
      ofType(sim!.events, 'error').find((e) => /does not handle split sync requests/.test(e.message)),
    );
    expect(sim.runtime.plugins()).toEqual([]);
  });
});

describe('socket', () => {
  it('listens in a fresh 0700 directory on a 0600 socket by default', async () => {
    sim = await startSim(undefined, { socketPath: undefined as unknown as string });
    const dir = path.dirname(sim.socketPath);
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    expect((await stat(sim.socketPath)).mode & 0o777).toBe(0o600);
    await sim.runtime.stop();
    await expect(stat(dir)).rejects.toThrow();
  });

  it('chmods a given socket 0600 and refuses a group-writable directory', async () => {
    sim = await startSim();
    expect((await stat(sim.socketPath)).mode & 0o777).toBe(0o600);
    const { chmod, mkdir } = await import('node:fs/promises');
    const shared = path.join(sim.dir, 'shared');
    await mkdir(shared);
    await chmod(shared, 0o775);
    const { Runtime } = await import('../../src/runtime/sim/runtime.js');
    const { SimState } = await import('../../src/runtime/sim/state.js');
    const r = new Runtime(new SimState(), { socketPath: path.join(shared, 'nri.sock') });
    await expect(r.start()).rejects.toThrow(/writable by group or others/);
    // A live socket is not taken over.
    const second = new Runtime(new SimState(), { socketPath: sim.socketPath });
    await expect(second.start()).rejects.toThrow(/in use/);
  });

  it('refuses a path longer than a unix socket path can be, before binding anything', async () => {
    sim = await startSim();
    const { readdir } = await import('node:fs/promises');
    const { Runtime } = await import('../../src/runtime/sim/runtime.js');
    const { SimState } = await import('../../src/runtime/sim/state.js');
    const { ListenError } = await import('../../src/runtime/adaptation/adaptation-listen.js');
    const long = path.join(sim.dir, `${'s'.repeat(134 - sim.dir.length - 1)}`);
    expect(Buffer.byteLength(long)).toBe(134);
    const before = await readdir(sim.dir);
    const r = new Runtime(new SimState(), { socketPath: long });
    const err = await r.start().then(
      () => undefined,
      (e: unknown) => e,
    );
    await r.stop();
    expect(err).toBeInstanceOf(ListenError);
    expect(err).toMatchObject({ reason: 'path-too-long', socketPath: long });
    expect((err as Error).message).toBe(
      `refusing to listen: socket path ${long} is 134 bytes long; a unix socket path can have at most 107 bytes; pick a shorter path`,
    );
    // Node would have bound the first 107 bytes of the path: nothing may appear there.
    expect(await readdir(sim.dir)).toEqual(before);
  });
});
