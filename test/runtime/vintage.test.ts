// The simulator as a given generation of the Go runtime adaptation: every difference
// between v0.6.1 (iSulad 2.1.5, later containerd 1.7), v0.3/v0.4 (containerd
// 1.7.0-1.7.13) and the newest, seen by real plugins over real sockets.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { nri } from '../../src/api/index.js';
import { Stub } from '../../src/plugin/index.js';
import { loadScenario, parseScenario } from '../../src/runtime/sim/scenario.js';
import { runScript } from '../../src/runtime/sim/script.js';
import { runtimeVintage, VintageError } from '../../src/runtime/adaptation/vintage.js';
import { connectRawPlugin } from './raw-plugin.js';
import { nriV061 } from '../fixtures/index.js';
import { ofType, simPerTest, waitFor, waitForPlugin, type Sim } from './helpers.js';

const perTest = simPerTest();
let sim: Sim | undefined;
const plugin = (name: string, index: string, handlers: ConstructorParameters<typeof Stub>[0]): Stub =>
  perTest.plugin(name, index, handlers);

const ONE_POD = parseScenario(
  `
pods:
  - {id: pod0, name: web, namespace: shop}
containers:
  - {id: ctr0, pod: pod0, name: nginx, state: RUNNING}
  - {id: ctr1, pod: pod0, name: sidecar, state: RUNNING}
`,
  'inline.yaml',
);

describe('runtimeVintage', () => {
  it('maps versions to behaviour and refuses what it cannot simulate', () => {
    expect(runtimeVintage('v0.6.1')).toMatchObject({
      configureTimeouts: false,
      perEventRpc: false,
      knownEventsMask: 0x7ff,
      syncLaunched: false,
    });
    expect(runtimeVintage('0.7')).toMatchObject({
      nriVersion: 'v0.7.0',
      configureTimeouts: true,
      syncLaunched: true,
      splitSync: true,
      validation: false,
      knownEventsMask: 0x7ff,
    });
    expect(runtimeVintage('v0.10.0')).toMatchObject({
      podSandboxUpdates: true,
      validation: true,
      perEventRpc: false,
      externalNameRule: false,
    });
    expect(runtimeVintage()).toMatchObject({ perEventRpc: true, configureNriVersion: true, externalNameRule: true });
    expect(() => runtimeVintage('v0.2.0')).toThrow(VintageError);
    expect(() => runtimeVintage('v0.13.0')).toThrow(/newer than/);
    expect(() => runtimeVintage('latest')).toThrow(/expected a version/);
  });
});

describe.each(['v0.3.0', 'v0.4.0', 'v0.6.1'])('as NRI %s', (version) => {
  it('configures without timeouts or NRI version and synchronizes in one message without `more`', async () => {
    sim = await perTest.start(ONE_POD, { nriVersion: version, syncChunkSize: 1 });
    let configure: nri.IConfigureRequest | undefined;
    const s = plugin('probe', '10', { configure: (req) => void (configure = req), startContainer: () => undefined });
    await s.start();
    await waitForPlugin(sim, '10-probe');
    expect(configure?.runtimeName).toBe('nrictl-sim');
    expect(Number(configure?.registrationTimeout ?? 0)).toBe(0);
    expect(Number(configure?.requestTimeout ?? 0)).toBe(0);
    expect(configure?.NRIVersion ?? '').toBe('');
    expect(s.runtime?.vintage).toMatch(/0\.6|older/);
    const [synced] = ofType(sim.events, 'synchronized');
    expect(synced).toMatchObject({ messages: 1, pods: 1, containers: 2 });
  });

  it('rejects a subscription with bits beyond 0x7ff as invalid plugin events', async () => {
    sim = await perTest.start(ONE_POD, { nriVersion: version });
    const raw = connectRawPlugin(sim.socketPath, { name: 'greedy', index: '10', events: 0x3fff });
    perTest.onCleanup(() => raw.close());
    await raw.registered;
    const err = await waitFor('the refusal', () =>
      ofType(sim!.events, 'error').find((e) => /invalid plugin events/.test(e.message)),
    );
    expect(err.message).toMatch(/0x3800/);
    expect(sim.runtime.plugins()).toEqual([]);
  });

  it('delivers pod events and post-events only as StateChange, and no pod sandbox updates', async () => {
    sim = await perTest.start(ONE_POD, { nriVersion: version });
    const raw = connectRawPlugin(sim.socketPath, { name: 'logger', index: '10', events: 0x7ff });
    perTest.onCleanup(() => raw.close());
    await waitForPlugin(sim, '10-logger');
    await sim.runtime.runPodSandbox({ id: 'pod1', name: 'api', namespace: 'shop' });
    await sim.runtime.updatePodSandbox('pod1', { cpu: { shares: { value: 512 } } });
    await sim.runtime.createContainer('pod1', { id: 'ctr2', name: 'app' });
    await sim.runtime.startContainer('ctr2');
    const methods = raw.calls.map((c) => c.event ?? c.method);
    expect(methods).toEqual([
      'Configure',
      'Synchronize',
      'RUN_POD_SANDBOX',
      'CreateContainer',
      'POST_CREATE_CONTAINER',
      'START_CONTAINER',
      'POST_START_CONTAINER',
    ]);
    // The pod update still happened to the simulated state.
    expect(sim.runtime.state.mustPod('pod1').linux?.resources?.cpu?.shares?.value).toBe(512);
  });

  it('ignores evictions and accepts any non-empty external name', async () => {
    sim = await perTest.start(ONE_POD, { nriVersion: version });
    const s = plugin('evict er', '10', { startContainer: () => undefined });
    await s.start();
    await waitForPlugin(sim, '10-evict er');
    const failed = await s.updateContainers([], [{ containerId: 'ctr0', reason: 'too hungry' }]);
    expect(failed).toEqual([]);
    const [evicted] = ofType(sim.events, 'evicted');
    expect(evicted).toMatchObject({ container: 'ctr0', applied: false, reason: 'too hungry' });
    expect(sim.runtime.state.mustContainer('ctr0').state).toBe(nri.ContainerState.CONTAINER_RUNNING);
  });
});

describe('as the newest NRI', () => {
  it('configures with timeouts and its NRI version, and splits Synchronize', async () => {
    sim = await perTest.start(ONE_POD, { syncChunkSize: 1, requestTimeoutMs: 1500 });
    let configure: nri.IConfigureRequest | undefined;
    const s = plugin('probe', '10', { configure: (req) => void (configure = req), startContainer: () => undefined });
    await s.start();
    await waitForPlugin(sim, '10-probe');
    expect(Number(configure?.requestTimeout)).toBe(1500);
    expect(Number(configure?.registrationTimeout)).toBe(5000);
    expect(configure?.NRIVersion).toBe('v0.12.0');
    expect(ofType(sim.events, 'synchronized')[0].messages).toBeGreaterThan(1);
  });

  it('refuses an external name outside [a-zA-Z0-9_.+-]', async () => {
    sim = await perTest.start(ONE_POD);
    const s = plugin('evict er', '10', { startContainer: () => undefined });
    await expect(s.start()).rejects.toThrow(/invalid plugin name/);
    expect(sim.runtime.plugins()).toEqual([]);
  });

  it('calls the per-event RPC first, and StateChange only after Unimplemented', async () => {
    sim = await perTest.start(ONE_POD);
    const raw = connectRawPlugin(sim.socketPath, { name: 'logger', index: '10', events: 0x7ff });
    perTest.onCleanup(() => raw.close());
    await waitForPlugin(sim, '10-logger');
    await sim.runtime.startContainer('ctr0');
    await sim.runtime.startContainer('ctr1');
    // The raw plugin serves the v0.6 set only: the first StartContainer is refused and
    // goes out again as StateChange; from then on StateChange directly.
    expect(raw.calls.slice(2).map((c) => c.event ?? `${c.method}${c.refused ? ' (refused)' : ''}`)).toEqual([
      'StartContainer (refused)',
      'START_CONTAINER',
      'POST_START_CONTAINER',
      'START_CONTAINER',
      'POST_START_CONTAINER',
    ]);
    expect(ofType(sim.events, 'invoke').every((e) => e.via === 'StateChange')).toBe(true);
  });

  it('relays pod sandbox updates', async () => {
    sim = await perTest.start(ONE_POD);
    const seen: string[] = [];
    const s = plugin('pods', '10', {
      updatePodSandbox: (pod) => void seen.push(`update ${pod.id}`),
      postUpdatePodSandbox: (pod) => void seen.push(`post-update ${pod.id}`),
    });
    await s.start();
    await waitForPlugin(sim, '10-pods');
    await sim.runtime.updatePodSandbox('pod0', { cpu: { shares: { value: 256 } } });
    expect(seen).toEqual(['update pod0', 'post-update pod0']);
  });

  // As the Go adaptation: plugin.go UpdateContainers passes only req.Update to the runtime.
  it('ignores an unsolicited eviction: the request succeeds and the container keeps running', async () => {
    sim = await perTest.start(ONE_POD);
    const s = plugin('evicter', '10', { startContainer: () => undefined });
    await s.start();
    await waitForPlugin(sim, '10-evicter');
    const failed = await s.updateContainers([], [{ containerId: 'ctr1', reason: 'noisy neighbour' }]);
    expect(failed).toEqual([]);
    expect(ofType(sim.events, 'evicted')).toEqual([
      expect.objectContaining({
        plugin: '10-evicter',
        container: 'ctr1',
        reason: 'noisy neighbour',
        via: 'UpdateContainers',
        applied: false,
      }),
    ]);
    expect(sim.runtime.state.mustContainer('ctr1').state).toBe(nri.ContainerState.CONTAINER_RUNNING);
    expect(ofType(sim.events, 'state-changed').filter((e) => e.container === 'ctr1')).toEqual([]);
  });

  // As the Go adaptation: result.go merges only Adjust and Update of the answers and builds
  // CreateContainerResponse / UpdateContainerResponse without Evict.
  it('drops an eviction returned in a CreateContainer answer as well', async () => {
    sim = await perTest.start(ONE_POD);
    const s = plugin('evicter', '10', {
      createContainer: () => ({ evict: [{ containerId: 'ctr0', reason: 'make room' }] }),
    });
    await s.start();
    await waitForPlugin(sim, '10-evicter');
    const r = await sim.runtime.createContainer('pod0', { id: 'ctr9', name: 'new' });
    expect(r.ok).toBe(true);
    expect(ofType(sim.events, 'evicted')).toEqual([
      expect.objectContaining({ container: 'ctr0', reason: 'make room', via: 'CreateContainer', applied: false }),
    ]);
    expect(sim.runtime.state.mustContainer('ctr0').state).toBe(nri.ContainerState.CONTAINER_RUNNING);
    expect(ofType(sim.events, 'state-changed').filter((e) => e.container === 'ctr0')).toEqual([]);
  });
});

describe('the v0.6.1 capture', () => {
  // The runtime-to-plugin methods of session-1 in order, StateChange shown by its event.
  function capturedSequence(): string[] {
    const text = readFileSync(nriV061('session-1.txt'), 'utf8').split('\n');
    const out: string[] = [];
    for (let i = 0; i < text.length; i++) {
      const m =
        /dir=rt2plugin conn=1\(PluginService\) .*type=REQUEST.* method=nri\.pkg\.api\.v1alpha1\.Plugin\/(\w+)/.exec(
          text[i],
        );
      if (!m) continue;
      if (m[1] === 'StateChange') {
        const payload = text
          .slice(i + 1, i + 4)
          .find((l) => l.includes('payload nri.pkg.api.v1alpha1.StateChangeEvent'));
        out.push(`StateChange ${/"event":"(\w+)"/.exec(payload ?? '')?.[1]}`);
      } else out.push(m[1]);
    }
    return out;
  }

  it('with --nri-version v0.6.1, a logger sees the same sequence of calls as the Go runtime made', async () => {
    const expected = capturedSequence();
    // Configure, Synchronize and the 11 lifecycle events of the capture.
    expect(expected.length).toBe(13);
    const scenario = await loadScenario(nriV061('scenario.json'));
    // The events the capture shows, on the pod and container it names.
    const steps = parseScenario(
      `
steps:
  - run-pod: {id: pod2, name: batch, uid: uid-pod2, namespace: jobs, labels: {app: batch}}
  - create: {id: ctr3, pod: pod2, name: worker, labels: {c: worker}, annotations: {a: b}, args: [/bin/worker], env: [A=1],
             resources: {memory_limit: 134217728, cpu_shares: 512, cpu_quota: 50000, cpu_period: 100000, cpus: "1", mems: "0"}}
  - start: ctr3
  - update: {id: ctr3, resources: {memory_limit: 268435456, cpu_shares: 768}}
  - stop: ctr3
  - remove: ctr3
  - stop-pod: pod2
  - remove-pod: pod2
`,
      'capture-steps.yaml',
    ).steps;
    sim = await perTest.start(scenario, { nriVersion: 'v0.6.1', runtimeName: 'refrt', runtimeVersion: '0.1.0' });
    const raw = connectRawPlugin(sim.socketPath, { name: 'logger', index: '10', events: 0x7ff });
    perTest.onCleanup(() => raw.close());
    await waitForPlugin(sim, '10-logger');
    expect(await runScript(sim.runtime, steps)).toEqual({ steps: 8, failed: 0 });
    const got = raw.calls.map((c) => (c.method === 'StateChange' ? `StateChange ${c.event}` : c.method));
    expect(got).toEqual(expected);
    // Configure carried what the Go v0.6.1 runtime sent, and nothing more.
    expect(raw.calls[0].request).toEqual({ runtimeName: 'refrt', runtimeVersion: '0.1.0' });
    expect(raw.calls[1].request.more).toBeUndefined();
    expect((raw.calls[1].request.containers as unknown[]).length).toBe(3);
  });
});
