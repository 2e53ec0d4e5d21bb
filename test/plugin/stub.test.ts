import { afterEach, describe, expect, it } from 'vitest';
import { Event, PLUGIN_SERVICE, eventBit, nri } from '../../src/api/index.js';
import { PluginError, SDK_NRI_VERSION, Stub, type PluginHandlers, type StubOptions } from '../../src/plugin/index.js';
import { Code, TtrpcError } from '../../src/ttrpc/index.js';
import { MODERN_CONFIGURE, RuntimePeer, V061_CONFIGURE, type PeerBehaviour } from './peer.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup(handlers: PluginHandlers, opts: StubOptions = {}, behaviour: PeerBehaviour = {}) {
  const peer = await RuntimePeer.listen(behaviour);
  cleanups.push(() => peer.close());
  const stub = new Stub(handlers, { name: 'tester', index: '10', socketPath: peer.socketPath, ...opts });
  cleanups.push(() => stub.stop());
  const started = stub.start();
  started.catch(() => {}); // inspected by the tests that expect a failure
  const session = await peer.next();
  return { peer, stub, started, session };
}

async function live(handlers: PluginHandlers, configure: nri.IConfigureRequest = MODERN_CONFIGURE) {
  const s = await setup(handlers);
  const hs = await s.session.handshake(configure);
  await s.started;
  return { ...s, ...hs };
}

const pod = (id: string): nri.IPodSandbox => ({ id, name: `pod-${id}`, namespace: 'default', labels: { app: id } });
const ctr = (id: string, podId: string): nri.IContainer => ({ id, podSandboxId: podId, name: `ctr-${id}` });

describe('registration, configuration and synchronization', () => {
  it('registers with name, index and our NRI version, subscribes to its handlers, and goes live after Synchronize', async () => {
    const seen: Array<[number, number]> = [];
    const { stub, session, started, configured, synced } = await live({
      createContainer: () => undefined,
      synchronize: (pods, ctrs) => {
        seen.push([pods.length, ctrs.length]);
      },
    });
    const reg = await session.registered;
    expect(reg.pluginName).toBe('tester');
    expect(reg.pluginIdx).toBe('10');
    expect(reg.NRIVersion).toBe(SDK_NRI_VERSION);
    expect(configured.events).toBe(eventBit(Event.CREATE_CONTAINER));
    expect(synced[0].more).toBe(false);
    await expect(started).resolves.toBeUndefined();
    expect(seen).toEqual([[0, 0]]);
    expect(stub.runtime).toEqual({
      name: 'test-runtime',
      version: '1.0.0',
      vintage: 'NRI v0.12.0',
      kind: 'other',
      label: 'test-runtime 1.0.0',
      // As the runtime said it in Configure (NRI v0.12 and later say it).
      nriVersion: 'v0.12.0',
    });
    expect(stub.events).toBe(eventBit(Event.CREATE_CONTAINER));
  });

  it('collects a state sent in several parts, answers each part with more=true and no updates, and hands over the whole state once', async () => {
    const calls: Array<{ pods: string[]; ctrs: string[] }> = [];
    const { session, started } = await setup({
      startContainer: () => {},
      synchronize: (pods, ctrs) => {
        calls.push({ pods: pods.map((p) => p.id!), ctrs: ctrs.map((c) => c.id!) });
        return [{ containerId: 'c3', linux: { resources: { cpu: { shares: { value: 512 } } } } }];
      },
    });
    const { synced } = await session.handshake(MODERN_CONFIGURE, [
      { pods: [pod('p1')], containers: [ctr('c1', 'p1')], more: true },
      { pods: [pod('p2')], containers: [ctr('c2', 'p2')], more: true },
      { pods: [], containers: [ctr('c3', 'p2')], more: false },
    ]);
    await started;
    expect(synced.slice(0, 2).map((r) => [r.more, r.update.length])).toEqual([
      [true, 0],
      [true, 0],
    ]);
    expect(synced[2].more).toBe(false);
    expect(synced[2].update.map((u) => u.containerId)).toEqual(['c3']);
    expect(calls).toEqual([{ pods: ['p1', 'p2'], ctrs: ['c1', 'c2', 'c3'] }]);
  });

  it('never subscribes to events a v0.6 runtime cannot know, and lets configure narrow but not widen the mask', async () => {
    const handlers: PluginHandlers = {
      runPodSandbox: () => {},
      createContainer: () => {},
      updatePodSandbox: () => {},
      validateContainerAdjustment: () => {},
    };
    const all = eventBit(Event.RUN_POD_SANDBOX) | eventBit(Event.CREATE_CONTAINER);
    const newer = eventBit(Event.UPDATE_POD_SANDBOX) | eventBit(Event.VALIDATE_CONTAINER_ADJUSTMENT);

    const modern = await live(handlers);
    expect(modern.configured.events).toBe(all | newer);

    const old = await live(handlers, V061_CONFIGURE);
    expect(old.configured.events).toBe(all);
    expect(old.configured.events & ~0x7ff).toBe(0);
    expect(old.stub.runtime?.vintage).toBe('NRI v0.6 or older');

    const narrowed = await live({
      ...handlers,
      configure: () => ({ events: eventBit(Event.CREATE_CONTAINER) | eventBit(Event.REMOVE_CONTAINER) }),
    });
    expect(narrowed.configured.events).toBe(eventBit(Event.CREATE_CONTAINER));
  });

  it('refuses to configure when no handled event reaches the runtime (0 would mean "everything")', async () => {
    const { session, started } = await setup({ updatePodSandbox: () => {} });
    await session.registered;
    const answer = session.call('Configure', V061_CONFIGURE);
    await expect(answer).rejects.toMatchObject({ code: Code.FailedPrecondition });
    const err = (await started.catch((e: unknown) => e)) as PluginError;
    expect(err).toBeInstanceOf(PluginError);
    expect(err.reason).toBe('no-events');
    expect(err.step).toBe('configure');
    expect(err.message).toContain('UpdatePodSandbox');
  });

  it('uses an explicit events option instead of the handlers', async () => {
    const { session, started } = await setup({ synchronize: () => {} }, { events: eventBit(Event.START_CONTAINER) });
    const { configured } = await session.handshake(MODERN_CONFIGURE);
    await started;
    expect(configured.events).toBe(eventBit(Event.START_CONTAINER));
  });
});

describe('nothing the runtime sends reaches the handlers before registration completed', () => {
  it('refuses events before RegisterPlugin was answered, and serves Configure and Synchronize meanwhile', async () => {
    let answerRegistration!: () => void;
    const registrationAnswered = new Promise<void>((resolve) => (answerRegistration = resolve));
    const seen: string[] = [];
    const { stub, session, started } = await setup(
      { runPodSandbox: (p) => void seen.push(p.id ?? '') },
      {},
      { register: () => registrationAnswered },
    );
    await session.registered;
    // A peer that has not answered RegisterPlugin sends events: each is refused, none is handled.
    for (let i = 0; i < 20; i++) {
      await expect(
        session.call('StateChange', { event: Event.RUN_POD_SANDBOX, pod: pod(`early-${i}`) }),
      ).rejects.toMatchObject({ code: Code.FailedPrecondition });
    }
    await expect(session.call('RunPodSandbox', { pod: pod('early') })).rejects.toMatchObject({
      code: Code.FailedPrecondition,
      message: expect.stringContaining('plugin 10-tester is not registered yet') as string,
    });
    // Configure and Synchronize are served all the same (a Go runtime may send them before
    // our RegisterPlugin answer arrives); events stay refused, and start() waits for the answer.
    await session.call('Configure', MODERN_CONFIGURE);
    await session.call('Synchronize', {});
    await expect(session.call('RunPodSandbox', { pod: pod('still-early') })).rejects.toMatchObject({
      code: Code.FailedPrecondition,
    });
    let resolved = false;
    void started.then(() => (resolved = true));
    await new Promise((r) => setTimeout(r, 50));
    expect(resolved).toBe(false);
    answerRegistration();
    await started;
    await session.call('RunPodSandbox', { pod: pod('live') });
    expect(seen).toEqual(['live']);
    expect(stub.runtime?.name).toBe(MODERN_CONFIGURE.runtimeName);
  });

  it('handles events that come after Configure while its Synchronize is in flight, as iSulad sends them', async () => {
    const seen: string[] = [];
    let finishSync!: () => void;
    const syncHeld = new Promise<void>((resolve) => (finishSync = resolve));
    const { session, started } = await setup({
      runPodSandbox: (p) => void seen.push(p.id ?? ''),
      synchronize: () => syncHeld,
    });
    await session.registered;
    await session.call('Configure', MODERN_CONFIGURE);
    // iSulad puts an external plugin in its list before it synchronizes it: a CRI call made
    // meanwhile reaches the plugin before the Synchronize answer, and an error would drop it.
    const sync = session.call('Synchronize', {});
    await session.call('RunPodSandbox', { pod: pod('during-sync') });
    expect(seen).toEqual(['during-sync']);
    finishSync();
    await sync;
    await started;
    await session.call('RunPodSandbox', { pod: pod('live') });
    expect(seen).toEqual(['during-sync', 'live']);
  });
});

describe('the wait for Synchronize, once registered and configured', () => {
  it("is the runtime's to bound: a Synchronize later than the registration timeout still starts the plugin", async () => {
    const { session, started } = await setup({ runPodSandbox: () => {} });
    await session.registered;
    await session.call('Configure', { ...MODERN_CONFIGURE, registrationTimeout: 200 });
    // A runtime starting other plugins first, on a busy node: it synchronizes late, and has not given up on us.
    await new Promise((r) => setTimeout(r, 600));
    await session.call('Synchronize', {});
    await started;
  });
});

describe('a registration timeout from the runtime past what a timer can wait', () => {
  it('waits instead of failing at once (Node fires a timer of 2^31 ms or more immediately)', async () => {
    const { session, started } = await setup({ runPodSandbox: () => {} });
    await session.registered;
    await session.call('Configure', { ...MODERN_CONFIGURE, registrationTimeout: 2 ** 31 * 10 });
    await new Promise((r) => setTimeout(r, 50));
    await session.call('Synchronize', {});
    await started;
  });
});

describe('events', () => {
  it('delivers the dedicated RPC and the legacy StateChange to the same handler', async () => {
    const got: string[] = [];
    const { session } = await live({ postStartContainer: (p, c) => void got.push(`${p.id}/${c.id}`) });
    await session.call('PostStartContainer', { pod: pod('p1'), container: ctr('c1', 'p1') });
    await session.call('StateChange', {
      event: Event.POST_START_CONTAINER,
      pod: pod('p2'),
      container: ctr('c2', 'p2'),
    });
    expect(got).toEqual(['p1/c1', 'p2/c2']);
  });

  it('answers CreateContainer with the adjustment, updates and evictions the handler returns', async () => {
    const { session } = await live({
      createContainer: (_p, c) => ({
        adjust: { annotations: { 'seen-by': `tester:${c.name}` } },
        update: [{ containerId: 'other', ignoreFailure: true }],
        evict: [{ containerId: 'victim', reason: 'too big' }],
      }),
    });
    const res = await session.call<nri.CreateContainerResponse>('CreateContainer', {
      pod: pod('p'),
      container: ctr('c', 'p'),
    });
    expect(res.adjust?.annotations).toEqual({ 'seen-by': 'tester:ctr-c' });
    expect(res.update.map((u) => u.containerId)).toEqual(['other']);
    expect(res.evict.map((e) => e.reason)).toEqual(['too big']);
  });

  it('answers a method this schema lacks with Unimplemented, and unhandled events with an empty answer', async () => {
    const { session } = await live({ createContainer: () => {} });
    const unknown = await session.client
      .call(PLUGIN_SERVICE, 'FutureEvent', new Uint8Array(0))
      .catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(TtrpcError);
    expect((unknown as TtrpcError).code).toBe(Code.Unimplemented);
    const res = await session.call<nri.UpdateContainerResponse>('UpdateContainer', {
      pod: pod('p'),
      container: ctr('c', 'p'),
    });
    expect(res.update).toEqual([]);
  });

  it('turns a throwing handler into an error status naming the plugin and method', async () => {
    const { session } = await live({
      stopContainer: () => {
        throw new Error('disk on fire');
      },
    });
    const err = (await session
      .call('StopContainer', { pod: pod('p'), container: ctr('c', 'p') })
      .catch((e: unknown) => e)) as TtrpcError;
    expect(err).toBeInstanceOf(TtrpcError);
    expect(err.code).toBe(Code.Unknown);
    expect(err.statusMessage).toBe('plugin 10-tester: StopContainer failed: disk on fire');
  });

  it('answers a handler that returns at once and one that returns a promise alike', async () => {
    const { session } = await live({
      createContainer: (_p, c) => ({ adjust: { annotations: { sync: c.id! } } }),
      updateContainer: async (_p, c) => {
        await new Promise((r) => setTimeout(r, 5));
        return [{ containerId: c.id! }];
      },
    });
    const created = await session.call<nri.CreateContainerResponse>('CreateContainer', {
      pod: pod('p'),
      container: ctr('c', 'p'),
    });
    expect(created.adjust?.annotations).toEqual({ sync: 'c' });
    const updated = await session.call<nri.UpdateContainerResponse>('UpdateContainer', {
      pod: pod('p'),
      container: ctr('u', 'p'),
    });
    expect(updated.update.map((u) => u.containerId)).toEqual(['u']);
  });

  it('lets a handler that never settles hold neither the call past its deadline nor the calls after it; a rejected one answers with its error', async () => {
    const { session } = await live({
      createContainer: () => new Promise<void>(() => {}),
      stopContainer: async () => {
        throw new Error('later fire');
      },
    });
    const late = (await session
      .call('CreateContainer', { pod: pod('p'), container: ctr('c', 'p') }, 200)
      .catch((e: unknown) => e)) as TtrpcError;
    expect(late).toBeInstanceOf(TtrpcError);
    expect(late.code).toBe(Code.DeadlineExceeded);
    const failed = (await session
      .call('StopContainer', { pod: pod('p'), container: ctr('c', 'p') })
      .catch((e: unknown) => e)) as TtrpcError;
    expect(failed).toBeInstanceOf(TtrpcError);
    expect(failed.code).toBe(Code.Unknown);
    expect(failed.statusMessage).toBe('plugin 10-tester: StopContainer failed: later fire');
  });

  it('rejects an adjustment with the reason an async validator rejects with', async () => {
    const { session } = await live({
      validateContainerAdjustment: async () => {
        throw new Error('not today');
      },
    });
    const bad = await session.call<nri.ValidateContainerAdjustmentResponse>('ValidateContainerAdjustment', {
      adjust: {},
    });
    expect(bad).toMatchObject({ reject: true, reason: 'not today' });
  });

  it('rejects an adjustment with the reason the validator throws', async () => {
    const { session } = await live({
      validateContainerAdjustment: (req) => {
        if (req.adjust?.annotations?.['forbidden']) throw new Error('annotation "forbidden" is not allowed');
      },
    });
    const bad = await session.call<nri.ValidateContainerAdjustmentResponse>('ValidateContainerAdjustment', {
      adjust: { annotations: { forbidden: 'x' } },
    });
    expect(bad).toMatchObject({ reject: true, reason: 'annotation "forbidden" is not allowed' });
    const good = await session.call<nri.ValidateContainerAdjustmentResponse>('ValidateContainerAdjustment', {
      adjust: {},
    });
    expect(good.reject).toBe(false);
  });
});

describe('UpdateContainers', () => {
  it('sends updates and evictions and returns the ones the runtime failed', async () => {
    const peer = await RuntimePeer.listen({ failed: (req) => req.update.filter((u) => u.containerId === 'bad') });
    cleanups.push(() => peer.close());
    const stub = new Stub({ createContainer: () => {} }, { name: 'upd', index: '20', socketPath: peer.socketPath });
    cleanups.push(() => stub.stop());
    const started = stub.start();
    const session = await peer.next();
    await session.handshake(MODERN_CONFIGURE);
    await started;
    const failed = await stub.updateContainers(
      [
        { containerId: 'good', linux: { resources: { memory: { limit: { value: 1 << 30 } } } } },
        { containerId: 'bad' },
      ],
      [{ containerId: 'evictee', reason: 'no room' }],
    );
    expect(failed.map((u) => u.containerId)).toEqual(['bad']);
    expect(session.updates).toHaveLength(1);
    expect(session.updates[0].evict.map((e) => e.containerId)).toEqual(['evictee']);
    expect(Number(session.updates[0].update[0].linux?.resources?.memory?.limit?.value)).toBe(1 << 30);
  });

  it('refuses before start() with a PluginError', async () => {
    const stub = new Stub(
      { createContainer: () => {} },
      { name: 'x', index: '01', socketPath: '/nonexistent/nri.sock' },
    );
    await expect(stub.updateContainers([{ containerId: 'c' }])).rejects.toMatchObject({
      step: 'update',
      reason: 'closed',
    });
  });
});

describe('failures during start', () => {
  it('rejects when the runtime refuses the registration, with its reason', async () => {
    const { started, peer } = await setup(
      { createContainer: () => {} },
      {},
      {
        register: () => {
          throw new Error('plugin "10-tester" already registered');
        },
      },
    );
    const err = (await started.catch((e: unknown) => e)) as PluginError;
    expect(err).toBeInstanceOf(PluginError);
    expect(err).toMatchObject({ step: 'register', reason: 'rejected', socketPath: peer.socketPath });
    expect(err.message).toBe(
      `registration of plugin 10-tester rejected by the runtime at ${peer.socketPath}: plugin "10-tester" already registered`,
    );
  });

  it('gives up when the runtime never answers the registration', async () => {
    const { started } = await setup(
      { createContainer: () => {} },
      { registrationTimeoutMs: 300 },
      { register: () => new Promise(() => {}) },
    );
    const err = (await started.catch((e: unknown) => e)) as PluginError;
    expect(err).toMatchObject({ step: 'register', reason: 'timeout' });
    expect(err.message).toMatch(
      /^registration of plugin 10-tester not completed within 300ms: no answer to RegisterPlugin/,
    );
  });

  it('gives up when Configure never comes, naming that step', async () => {
    const { started, session } = await setup({ createContainer: () => {} }, { registrationTimeoutMs: 300 });
    await session.registered;
    const err = (await started.catch((e: unknown) => e)) as PluginError;
    expect(err).toMatchObject({ step: 'configure', reason: 'timeout' });
  });

  it('rejects when the runtime closes the connection before synchronizing', async () => {
    const { started, session } = await setup({ createContainer: () => {} });
    await session.registered;
    await session.call('Configure', MODERN_CONFIGURE);
    session.close();
    const err = (await started.catch((e: unknown) => e)) as PluginError;
    expect(err).toMatchObject({ step: 'synchronize', reason: 'closed' });
    expect(err.message).toMatch(/^runtime closed the connection during synchronize/);
  });

  it('rejects a pending start() on stop()', async () => {
    const { started, stub, session } = await setup({ createContainer: () => {} });
    await session.registered;
    await stub.stop();
    await expect(started).rejects.toMatchObject({ reason: 'closed' });
  });
});

describe('after start', () => {
  it("reports a runtime that goes away through 'close' and onClose, with an error", async () => {
    const closes: Array<Error | undefined> = [];
    const { stub, session } = await live({ createContainer: () => {}, onClose: (err) => void closes.push(err) });
    const closed = new Promise<Error | undefined>((resolve) => stub.once('close', resolve));
    session.close();
    const err = await closed;
    expect(err).toBeInstanceOf(PluginError);
    expect(err).toMatchObject({ reason: 'closed', step: 'closed' });
    expect(closes).toEqual([err]);
    await expect(stub.updateContainers([])).rejects.toMatchObject({ reason: 'closed' });
  });

  it('runs the shutdown handler and then takes the close as expected', async () => {
    let shutdowns = 0;
    const { stub, session } = await live({ createContainer: () => {}, shutdown: () => void shutdowns++ });
    const closed = new Promise<Error | undefined>((resolve) => stub.once('close', resolve));
    await session.call('Shutdown', {});
    session.close();
    expect(await closed).toBeUndefined();
    expect(shutdowns).toBe(1);
  });

  it('stop() closes cleanly and the runtime sees the trunk end', async () => {
    const { stub, session } = await live({ createContainer: () => {} });
    const peerClosed = new Promise<void>((resolve) => session.mux.once('close', () => resolve()));
    const closed = new Promise<Error | undefined>((resolve) => stub.once('close', resolve));
    await stub.stop();
    expect(await closed).toBeUndefined();
    await peerClosed;
    expect(session.mux.closed).toBe(true);
  });
});
