import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { nri } from '../../src/api/index.js';
import { ScenarioError } from '../../src/runtime/sim/errors.js';
import { loadScenario, parseScenario } from '../../src/runtime/sim/scenario.js';
import { nriV061 } from '../fixtures/index.js';

const FIXTURE = nriV061('scenario.json');
const DEMO = path.join(import.meta.dirname, '../../examples/demo.yaml');

function errorOf(text: string): ScenarioError {
  try {
    parseScenario(text, 'bad.yaml');
  } catch (err) {
    expect(err).toBeInstanceOf(ScenarioError);
    return err as ScenarioError;
  }
  throw new Error('expected a ScenarioError');
}

describe('scenario files', () => {
  it('loads the v0.6.1 fixture and converts resources into Optional wrappers', async () => {
    const s = await loadScenario(FIXTURE);
    expect(s.pods.map((p) => p.id)).toEqual(['pod0', 'pod1']);
    expect(s.pods[1]).toMatchObject({ name: 'db', namespace: 'prod', labels: { app: 'db', tier: 'backend' } });
    const nginx = s.containers[0];
    expect(nginx).toMatchObject({
      id: 'ctr0',
      podSandboxId: 'pod0',
      name: 'nginx',
      state: nri.ContainerState.CONTAINER_RUNNING,
    });
    expect(nginx.args).toEqual(['nginx', '-g', 'daemon off;']);
    expect(nginx.linux?.resources).toEqual({
      cpu: { shares: { value: 1024 }, quota: { value: 100000 }, period: { value: 100000 }, cpus: '0-3', mems: '0' },
      memory: { limit: { value: 536870912 } },
    });
    expect(s.containers[2].state).toBe(nri.ContainerState.CONTAINER_CREATED);
    expect(s.containers[2].linux?.resources?.memory?.limit?.value).toBe(2147483648);
    expect(s.steps).toEqual([]);
  });

  it('loads examples/demo.yaml with its lifecycle script', async () => {
    const s = await loadScenario(DEMO);
    expect(s.pods).toHaveLength(3);
    expect(new Set(s.pods.map((p) => p.namespace))).toEqual(new Set(['shop', 'kube-system']));
    expect(s.containers.length).toBeGreaterThanOrEqual(5);
    const kinds = s.steps.map((x) => x.kind);
    for (const k of ['run-pod', 'create', 'start', 'update', 'stop', 'remove', 'stop-pod', 'remove-pod', 'sleep'])
      expect(kinds).toContain(k);
    const create = s.steps.find((x) => x.kind === 'create');
    expect(create?.kind === 'create' && create.container.state).toBe(nri.ContainerState.CONTAINER_CREATED);
    const update = s.steps.find((x) => x.kind === 'update');
    expect(update).toMatchObject({
      id: 'c5f6a7b8c9d0',
      resources: { cpu: { shares: { value: 512 } }, memory: { limit: { value: 536870912 } } },
    });
  });

  it('reads JSON and YAML alike and fills defaults', () => {
    const s = parseScenario('{"pods":[{"id":"p"}],"containers":[{"id":"c","pod":"p"}]}', 'x.json');
    expect(s.pods[0]).toMatchObject({ id: 'p', name: 'p', namespace: 'default' });
    expect(s.pods[0].uid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-8[0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(s.containers[0].state).toBe(nri.ContainerState.CONTAINER_RUNNING);
    expect(parseScenario('', 'empty.yaml')).toMatchObject({ pods: [], containers: [], steps: [] });
  });

  it("reads the node's images (for the CRI face), each a reference written once", () => {
    expect(parseScenario('images: [registry.k8s.io/pause:3.10, busybox]', 'i.yaml').images).toEqual([
      'registry.k8s.io/pause:3.10',
      'busybox',
    ]);
    expect(parseScenario('pods: []', 'i.yaml').images).toBeUndefined();
    expect(errorOf('images: busybox').message).toBe(
      'bad.yaml: images: expected a list, got string "busybox" (write images: followed by "- registry/name:tag" entries)',
    );
    expect(errorOf('images: [busybox, busybox]').message).toBe(
      'bad.yaml: images[1]: "busybox" is listed twice (list each image once)',
    );
    expect(errorOf('images: ["bad name"]').message).toContain('images[0]: "bad name" is not an image reference');
  });

  it('converts every resource key', () => {
    const s = parseScenario(
      `pods: [{id: p}]
containers:
  - id: c
    pod: p
    resources:
      cpu_realtime_runtime: 950000
      cpu_realtime_period: 1000000
      memory_swap: 1024
      memory_swappiness: 10
      memory_disable_oom_killer: true
      pids_limit: 100
      blockio_class: slow
      rdt_class: gold
      unified: {memory.high: "400M"}
      hugepage_limits: [{page_size: 2MB, limit: 4194304}]
`,
      'r.yaml',
    );
    expect(s.containers[0].linux?.resources).toEqual({
      cpu: { realtimeRuntime: { value: 950000 }, realtimePeriod: { value: 1000000 } },
      memory: { swap: { value: 1024 }, swappiness: { value: 10 }, disableOomKiller: { value: true } },
      pids: { limit: 100 },
      blockioClass: { value: 'slow' },
      rdtClass: { value: 'gold' },
      unified: { 'memory.high': '400M' },
      hugepageLimits: [{ pageSize: '2MB', limit: 4194304 }],
    });
  });

  const cases: Array<[string, string, string, RegExp]> = [
    [
      'wrong type in resources',
      'pods: [{id: p}]\ncontainers: [{id: a, pod: p}, {id: b, pod: p}, {id: c, pod: p, resources: {cpu_quota: "100k"}}]',
      'containers[2].resources.cpu_quota',
      /expected an integer.*100000/,
    ],
    [
      'typo in a resource key',
      'pods: [{id: p}]\ncontainers: [{id: c, pod: p, resources: {cpu_share: 2}}]',
      'containers[0].resources.cpu_share',
      /did you mean cpu_shares/,
    ],
    [
      'negative unsigned',
      'pods: [{id: p}]\ncontainers: [{id: c, pod: p, resources: {cpu_shares: -1}}]',
      'containers[0].resources.cpu_shares',
      /non-negative/,
    ],
    ['unknown pod', 'pods: [{id: p}]\ncontainers: [{id: c, pod: q}]', 'containers[0].pod', /no pod "q".*use one of.*p/],
    ['missing id', 'pods: [{name: x}]', 'pods[0].id', /missing/],
    ['duplicate pod', 'pods: [{id: p}, {id: p}]', 'pods[1].id', /duplicate pod id/],
    [
      'bad state',
      'pods: [{id: p}]\ncontainers: [{id: c, pod: p, state: running-ish}]',
      'containers[0].state',
      /RUNNING/,
    ],
    [
      'env without =',
      'pods: [{id: p}]\ncontainers: [{id: c, pod: p, env: [FOO]}]',
      'containers[0].env[0]',
      /NAME=value/,
    ],
    ['label value not a string', 'pods: [{id: p, labels: {a: [1]}}]', 'pods[0].labels.a', /expected a string/],
    ['unknown step', 'steps: [{strat: c}]', 'steps[0].strat', /did you mean start/],
    [
      'step on a container not created yet',
      'pods: [{id: p}]\nsteps: [{start: c}, {create: {id: c, pod: p}}]',
      'steps[0].start',
      /no container "c" at this step/,
    ],
    [
      'step after removal',
      'pods: [{id: p}]\ncontainers: [{id: c, pod: p}]\nsteps: [{remove: c}, {stop: c}]',
      'steps[1].stop',
      /no container "c"/,
    ],
    [
      'container in a removed pod',
      'pods: [{id: p}]\ncontainers: [{id: c, pod: p}]\nsteps: [{remove-pod: p}, {start: c}]',
      'steps[1].start',
      /no container "c"/,
    ],
    [
      'update without resources',
      'pods: [{id: p}]\ncontainers: [{id: c, pod: p}]\nsteps: [{update: {id: c}}]',
      'steps[0].update.resources',
      /missing/,
    ],
    ['sleep not a number', 'steps: [{sleep: soon}]', 'steps[0].sleep', /milliseconds/],
    ['unknown top-level key', 'pod: []', 'pod', /did you mean pods/],
    ['top level a list', '[1, 2]', '', /expected a map/],
  ];
  it.each(cases)('rejects %s with a one-line error naming file, path and fix', (_name, text, where, pattern) => {
    const err = errorOf(text);
    expect(err.file).toBe('bad.yaml');
    expect(err.path).toBe(where);
    expect(err.message.startsWith(`bad.yaml: ${where || '(top level)'}: `)).toBe(true);
    expect(err.message).toMatch(pattern);
    expect(err.message).toMatch(/\(.+\)$/); // ends with the fix
    expect(err.message).not.toContain('\n');
  });

  it('reports YAML syntax errors with line and column', () => {
    const err = errorOf('pods:\n  - {id: p\n');
    expect(err.message).toMatch(/^bad\.yaml: line \d+, column \d+: /);
    expect(err.message).not.toContain('\n');
  });

  it('names a missing file', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'nrisc-'));
    try {
      await expect(loadScenario(path.join(dir, 'nope.yaml'))).rejects.toThrow(/nope\.yaml: cannot read the scenario/);
      await writeFile(path.join(dir, 'ok.yaml'), 'pods: [{id: p}]');
      expect((await loadScenario(path.join(dir, 'ok.yaml'))).file).toBe(path.join(dir, 'ok.yaml'));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
