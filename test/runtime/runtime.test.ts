import { describe, expect, it } from 'vitest';
import { nri } from '../../src/api/index.js';
import { Stub } from '../../src/plugin/index.js';
import { parseScenario } from '../../src/runtime/sim/scenario.js';
import { runScript } from '../../src/runtime/sim/script.js';
import { ofType, simPerTest, waitFor, waitForPlugin, type Sim } from './helpers.js';

const SCENARIO = parseScenario(
  `
pods:
  - {id: pod0, name: web, namespace: shop}
containers:
  - {id: ctr0, pod: pod0, name: nginx}
steps:
  - run-pod: {id: pod1, name: api, namespace: shop}
  - create: {id: ctr1, pod: pod1, name: app}
  - start: ctr1
  - update: {id: ctr1, resources: {cpu_shares: 512}}
  - stop: ctr1
  - remove: ctr1
  - stop-pod: pod1
  - remove-pod: pod1
`,
  'inline.yaml',
);

const perTest = simPerTest();
let sim: Sim | undefined;
const plugin = (name: string, index: string, handlers: ConstructorParameters<typeof Stub>[0], events?: number): Stub =>
  perTest.plugin(name, index, handlers, events !== undefined ? { events } : {});

describe('Runtime with SDK plugins over a real socket', () => {
  it('synchronizes the scenario, then relays the scripted events in order', async () => {
    sim = await perTest.start(SCENARIO);
    const seen: string[] = [];
    let synced: { pods: string[]; containers: string[] } | undefined;
    const s = plugin('recorder', '10', {
      synchronize: (pods, containers) => {
        synced = { pods: pods.map((p) => p.id!), containers: containers.map((c) => c.id!) };
      },
      runPodSandbox: (pod) => void seen.push(`RunPodSandbox ${pod.id}`),
      createContainer: (_pod, ctr) => void seen.push(`CreateContainer ${ctr.id}`),
      postCreateContainer: (_pod, ctr) => void seen.push(`PostCreateContainer ${ctr.id}`),
      startContainer: (_pod, ctr) => void seen.push(`StartContainer ${ctr.id}`),
      postStartContainer: (_pod, ctr) => void seen.push(`PostStartContainer ${ctr.id}`),
      updateContainer: (_pod, ctr, res) => void seen.push(`UpdateContainer ${ctr.id} ${res?.cpu?.shares?.value}`),
      postUpdateContainer: (_pod, ctr) => void seen.push(`PostUpdateContainer ${ctr.id}`),
      stopContainer: (_pod, ctr) => void seen.push(`StopContainer ${ctr.id}`),
      removeContainer: (_pod, ctr) => void seen.push(`RemoveContainer ${ctr.id}`),
      stopPodSandbox: (pod) => void seen.push(`StopPodSandbox ${pod.id}`),
      removePodSandbox: (pod) => void seen.push(`RemovePodSandbox ${pod.id}`),
    });
    await s.start();
    await waitForPlugin(sim, '10-recorder');
    expect(synced).toEqual({ pods: ['pod0'], containers: ['ctr0'] });
    expect(s.runtime?.name).toBe('nrictl-sim');

    const result = await runScript(sim.runtime, SCENARIO.steps);
    expect(result).toEqual({ steps: 8, failed: 0 });
    expect(seen).toEqual([
      'RunPodSandbox pod1',
      'CreateContainer ctr1',
      'PostCreateContainer ctr1',
      'StartContainer ctr1',
      'PostStartContainer ctr1',
      'UpdateContainer ctr1 512',
      'PostUpdateContainer ctr1',
      'StopContainer ctr1',
      'RemoveContainer ctr1',
      'StopPodSandbox pod1',
      'RemovePodSandbox pod1',
    ]);
    const invokes = ofType(sim.events, 'invoke');
    expect(invokes.map((e) => e.event)).toEqual(seen.map((l) => l.split(' ')[0]));
    expect(invokes.every((e) => e.plugin === '10-recorder' && e.rttMs >= 0)).toBe(true);
    // Field for field and in order, as every other event is stamped (-o json prints them so).
    const create = invokes.find((e) => e.event === 'CreateContainer')!;
    expect(Object.keys(create)).toEqual(['time', 'type', 'event', 'plugin', 'rttMs', 'pod', 'container']);
    expect(create).toMatchObject({ type: 'invoke', plugin: '10-recorder', pod: 'pod1', container: 'ctr1' });
    expect(Object.keys(invokes.find((e) => e.event === 'RunPodSandbox')!)).toEqual([
      'time',
      'type',
      'event',
      'plugin',
      'rttMs',
      'pod',
    ]);
    const changes = ofType(sim.events, 'state-changed');
    expect(Object.keys(changes.find((e) => e.event === 'CreateContainer')!)).toEqual([
      'time',
      'type',
      'event',
      'pod',
      'container',
      'state',
    ]);
    expect(Object.keys(changes.find((e) => e.event === 'UpdateContainer')!)).toEqual([
      'time',
      'type',
      'event',
      'pod',
      'container',
    ]);
    expect(sim.runtime.state.container('ctr1')).toBeUndefined();
  });

  it('reports an external plugin that leaves between requests as stopped, not dropped', async () => {
    sim = await perTest.start(SCENARIO);
    const s = plugin('one-shot', '30', { createContainer: () => undefined });
    await s.start();
    await waitForPlugin(sim, '30-one-shot');
    await s.stop();
    await waitFor('the stop report', () => ofType(sim!.events, 'stopped').length > 0);
    expect(ofType(sim.events, 'stopped')).toMatchObject([
      { plugin: '30-one-shot', reason: 'the plugin closed its connection' },
    ]);
    expect(ofType(sim.events, 'dropped')).toEqual([]);
    expect(sim.runtime.plugins()).toEqual([]);
  });

  it('invokes only subscribed plugins, in index order', async () => {
    sim = await perTest.start({ pods: [{ id: 'p', name: 'p', namespace: 'n' }], containers: [] });
    const order: string[] = [];
    const a = plugin('late', '90', { createContainer: () => void order.push('90-late') });
    const b = plugin('early', '05', { createContainer: () => void order.push('05-early') });
    const c = plugin('bystander', '50', { startContainer: () => void order.push('50-bystander') });
    await Promise.all([a.start(), b.start(), c.start()]);
    await Promise.all(['90-late', '05-early', '50-bystander'].map((n) => waitForPlugin(sim!, n)));
    expect(sim.runtime.plugins().map((p) => p.name)).toEqual(['05-early', '50-bystander', '90-late']);
    const r = await sim.runtime.createContainer('p', { id: 'c', name: 'c' });
    expect(r.ok).toBe(true);
    expect(order).toEqual(['05-early', '90-late']);
  });

  it('applies merged adjustments to the created container', async () => {
    sim = await perTest.start({ pods: [{ id: 'p', name: 'p', namespace: 'n' }], containers: [] });
    const s = plugin('adjuster', '10', {
      createContainer: () => ({
        adjust: { annotations: { 'example.com/owner': 'adjuster' }, env: [{ key: 'MODE', value: 'fast' }] },
      }),
    });
    await s.start();
    await waitForPlugin(sim, '10-adjuster');
    const r = await sim.runtime.createContainer('p', { id: 'c', name: 'c' });
    expect(r.ok).toBe(true);
    const ctr = sim.runtime.state.mustContainer('c');
    expect(ctr.annotations).toMatchObject({ 'example.com/owner': 'adjuster' });
    expect(ctr.env).toContain('MODE=fast');
    expect(ctr.state).toBe(nri.ContainerState.CONTAINER_CREATED);
    expect(ofType(sim.events, 'adjusted')).toMatchObject([{ plugin: '10-adjuster', container: 'c' }]);
  });

  it('fails the creation on conflicting adjustments and names both plugins', async () => {
    sim = await perTest.start({ pods: [{ id: 'p', name: 'p', namespace: 'n' }], containers: [] });
    const first = plugin('first', '10', {
      createContainer: () => ({ adjust: { linux: { resources: { cpu: { shares: { value: 100 } } } } } }),
    });
    const second = plugin('second', '20', {
      createContainer: () => ({ adjust: { linux: { resources: { cpu: { shares: { value: 200 } } } } } }),
    });
    await Promise.all([first.start(), second.start()]);
    await waitForPlugin(sim, '10-first');
    await waitForPlugin(sim, '20-second');
    const r = await sim.runtime.createContainer('p', { id: 'c', name: 'c' });
    expect(r.ok).toBe(false);
    expect(sim.runtime.state.container('c')).toBeUndefined();
    const [conflict] = ofType(sim.events, 'conflict');
    expect(conflict).toMatchObject({ container: 'c', plugins: ['10-first', '20-second'] });
    expect(conflict.message).toContain('10-first');
    expect(conflict.message).toContain('20-second');
  });

  it('applies UpdateContainers from a plugin and answers with the failed ones', async () => {
    sim = await perTest.start({
      pods: [{ id: 'p', name: 'p', namespace: 'n' }],
      containers: [{ id: 'c', podSandboxId: 'p', name: 'c' }],
    });
    const s = plugin('updater', '10', { runPodSandbox: () => undefined });
    await s.start();
    await waitForPlugin(sim, '10-updater');
    const failed = await s.updateContainers([
      { containerId: 'c', linux: { resources: { memory: { limit: { value: 1 << 30 } } } } },
      { containerId: 'ghost', linux: { resources: { cpu: { shares: { value: 2 } } } } },
      { containerId: 'ghost2', ignoreFailure: true, linux: { resources: { cpu: { shares: { value: 2 } } } } },
    ]);
    expect(failed.map((u) => u.containerId)).toEqual(['ghost']);
    expect(sim.runtime.state.mustContainer('c').linux?.resources?.memory?.limit?.value).toBe(1 << 30);
    expect(ofType(sim.events, 'updated').map((e) => [e.container, e.source, e.failed])).toEqual([
      ['c', 'unsolicited', false],
      ['ghost', 'unsolicited', true],
      ['ghost2', 'unsolicited', false],
    ]);
  });
});
