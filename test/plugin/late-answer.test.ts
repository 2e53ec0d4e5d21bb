// A runtime closes a plugin whose answer is later than its request timeout, and the plugin
// learns only that the connection closed ("write EPIPE" when its late answer goes out).
// The SDK's error then names the handler, how long it ran, the timeout and the setting
// that bounds it; a plugin closed for any other reason is told nothing of the kind. Against
// the simulator, which drops a late plugin as the Go adaptation does, over a real socket.
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { HandlerClock } from '../../src/plugin/handler-clock.js';
import { PluginError, Stub, type PluginHandlers } from '../../src/plugin/index.js';
import { RUNTIME_PRESETS } from '../../src/runtime/sim/presets.js';
import type { RuntimeOptions } from '../../src/runtime/sim/runtime.js';
import { startSim, waitFor, type Sim } from '../runtime/helpers.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const fn of cleanups.splice(0).reverse()) await fn();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Holds the event loop, as a handler doing heavy work synchronously does. */
const busy = (ms: number): void => {
  const until = performance.now() + ms;
  while (performance.now() < until);
};

async function sim(opts: RuntimeOptions): Promise<Sim> {
  const s = await startSim({ pods: [{ id: 'p1', name: 'web', namespace: 'shop', uid: 'u1' }], containers: [] }, opts);
  cleanups.push(() => s.close());
  return s;
}

function plugin(s: Sim, handlers: PluginHandlers): { stub: Stub; closed: Promise<PluginError | undefined> } {
  let onClose!: (err: PluginError | undefined) => void;
  const closed = new Promise<PluginError | undefined>((r) => (onClose = r));
  const stub = new Stub(
    { ...handlers, onClose: (err) => onClose(err as PluginError | undefined) },
    { name: 'slow', index: '50', socketPath: s.socketPath },
  );
  cleanups.push(() => stub.stop());
  return { stub, closed };
}

const containerd = { ...RUNTIME_PRESETS['containerd-2.3'], quirks: undefined };

describe('the SDK says why the runtime dropped it', () => {
  it('a synchronize handler past the request timeout: the handler, how long, the timeout and the setting', async () => {
    const s = await sim({ requestTimeoutMs: 300, runtimeName: containerd.runtimeName, runtimeVersion: 'v2.3.4' });
    const { stub } = plugin(s, { synchronize: () => sleep(600).then(() => []), createContainer: () => undefined });
    const err = (await stub.start().catch((e: unknown) => e)) as PluginError;
    expect(err).toBeInstanceOf(PluginError);
    expect(err).toMatchObject({ step: 'synchronize', reason: 'closed' });
    expect(err.message).toMatch(
      /^runtime closed the connection during synchronize \(.*nri\.sock\)(: .+)?: the synchronize handler (had run \d\.\d\d s without answering|ran \d\.\d\d s), and the runtime's request timeout is 300ms: the runtime drops a plugin whose answer is late; answer within it \(do slow work after answering\), or raise it: plugin_request_timeout in containerd's config\.toml \(\[plugins\."io\.containerd\.nri\.v1\.nri"\]\)$/,
    );
    // Running still when the runtime gave up (or, on a loaded machine, just answered).
    expect(err.late).toMatchObject({ handler: 'synchronize', requestTimeoutMs: 300, timeoutFromRuntime: true });
    expect(err.late!.ms).toBeGreaterThanOrEqual(285);
    // The simulator dropped it for that very reason.
    const failed = await waitFor('the failure', () => s.events.find((e) => e.type === 'error'));
    expect(failed).toMatchObject({
      plugin: '50-slow',
      event: 'Synchronize',
      message: expect.stringMatching(/failed to handle Synchronize: no answer within the request timeout \(300 ms\)$/),
    });
  });

  it('a handler that holds the event loop past it hears of the close after answering: "ran", and the runtime named by Configure', async () => {
    const crio = RUNTIME_PRESETS['crio-1.35'];
    const s = await sim({ requestTimeoutMs: 200, runtimeName: crio.runtimeName, runtimeVersion: crio.runtimeVersion });
    const { stub, closed } = plugin(s, { createContainer: () => busy(450) });
    await stub.start();
    const created = s.runtime.createContainer('p1', { id: 'c1', name: 'app' });
    const err = await closed;
    await created;
    expect(err).toBeInstanceOf(PluginError);
    expect(err!.message).toMatch(
      /^runtime closed the connection \(.*\): .*the createContainer handler ran 0\.\d\d s, and the runtime's request timeout is 200ms: .*raise it: nri_plugin_request_timeout in CRI-O's crio\.conf \(\[crio\.nri\]\)$/,
    );
    expect(err!.late).toMatchObject({ handler: 'createContainer', running: false });
  });

  it('a plugin closed for another reason is told nothing of a timeout', async () => {
    const s = await sim({ requestTimeoutMs: 300 });
    // A handler well within the timeout, then the runtime goes away.
    const { stub, closed } = plugin(s, { createContainer: () => sleep(50).then(() => undefined) });
    await stub.start();
    expect((await s.runtime.createContainer('p1', { id: 'c1', name: 'app' })).ok).toBe(true);
    await s.runtime.stop();
    const err = await closed;
    expect(err).toBeInstanceOf(PluginError);
    expect(err!.late).toBeUndefined();
    expect(err!.message).not.toMatch(/timeout|handler/);
  });

  it('a runtime that does not say its timeout (NRI v0.6): the 2 s default is what the plugin knows, and it says so', async () => {
    const s = await sim({ requestTimeoutMs: 2000, nriVersion: 'v0.6.1' });
    // Still running when the runtime gives up at its 2 s: waiting, not holding the event
    // loop as the test above does, so the 2 s cost no CPU (holding it is that test's case).
    let wake!: () => void;
    const woken = new Promise<void>((r) => (wake = r));
    onTestFinished(() => wake());
    const { stub, closed } = plugin(s, { createContainer: () => woken.then(() => undefined) });
    await stub.start();
    void s.runtime.createContainer('p1', { id: 'c1', name: 'app' });
    const err = await closed;
    expect(err!.message).toMatch(
      /the createContainer handler had run \d+\.\d\d s without answering, and the runtime's request timeout is 2s \(NRI's default: this runtime does not say its own\): .*raise it: nrictl sim's --request-timeout$/,
    );
    // Named once it had run the default by the plugin's clock (less its slack), not another bound.
    expect(err!.late).toMatchObject({
      handler: 'createContainer',
      running: true,
      requestTimeoutMs: 2000,
      timeoutFromRuntime: false,
    });
    expect(err!.late!.ms).toBeGreaterThanOrEqual(1900);
  });
});

describe('HandlerClock', () => {
  it('claims a handler only while it runs past the timeout, or within a second of answering after one', () => {
    const clock = new HandlerClock();
    const quick = clock.begin('createContainer');
    clock.end(quick);
    expect(clock.late(500)).toBeUndefined();
    const slow = clock.begin('synchronize');
    expect(clock.late(500, slow.startedAt + 400)).toBeUndefined();
    expect(clock.late(500, slow.startedAt + 480)).toMatchObject({ handler: 'synchronize', running: true });
    slow.startedAt -= 900; // it ran 900 ms
    clock.end(slow);
    expect(clock.late(500, slow.endedAt! + 10)).toMatchObject({ handler: 'synchronize', running: false });
    expect(clock.late(500, slow.endedAt! + 1500)).toBeUndefined(); // closed much later: something else
    expect(clock.late(1000, slow.endedAt! + 10)).toBeUndefined(); // within a longer timeout: no claim
  });

  // Node fires a timer by the event loop's millisecond clock, which here ran up to 1.6 ms
  // behind performance.now(): a timer of 10 ms fired after 8.4 ms by it. A settle() that
  // trusted its timer found the handler short of the bound and named nothing (a busy
  // run of late-answer-race.test saw it). Here performance.now() runs 2 % slow, so every
  // timer fires short by our clock, on any machine.
  it('settle() names a running handler once it has run the bound by our clock, however early its timer fires', async () => {
    const realNow = performance.now.bind(performance);
    const origin = realNow();
    vi.spyOn(performance, 'now').mockImplementation(() => origin + (realNow() - origin) * 0.98);
    const clock = new HandlerClock();
    const run = clock.begin('synchronize');
    const late = await clock.settle(200);
    expect(late).toMatchObject({ handler: 'synchronize', running: true });
    expect(late!.ms).toBeGreaterThanOrEqual(190);
    clock.end(run);
  });
});
