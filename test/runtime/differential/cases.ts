// The differential checks: NRI sample plugins (Go, from the nri-go-reference build) run
// under the Go adaptation (refrt) and under nrictl sim on the same pod and containers.
// bench/vs-go/differential/record.ts records each case under Go into a fixture in
// test/fixtures/go-reference/, which test/runtime/differential.test.ts replays against
// the simulator without Go; bench/vs-go/differential/compare.ts runs each case under
// nrictl sim with the Go plugins.
//
// Plugins are pre-started (NN-name in a plugin directory); a `config` goes to the
// drop-in directory as NN-name.conf. Containers are created one after the other.

import type { FixtureContainer as CaseContainer, FixturePlugin as CasePlugin } from './fixture.js';

/** The one pod of every case; the case's annotations are added to it. */
export const DIFF_POD = { id: 'pod0', name: 'web-0', uid: 'uid-web-0', namespace: 'diff' };

export interface DiffCase {
  name: string;
  about: string;
  plugins: CasePlugin[];
  podAnnotations: Record<string, string>;
  containers: CaseContainer[];
  /** Uses the hook-injector, which reads /etc/containers/oci/hooks.d (see the fixtures' hooks.d). */
  needsHooks?: boolean;
}

const json = (v: unknown): string => JSON.stringify(v);

/** The device-injector's annotations: per container (c0, c2) and for the whole pod. */
const DEVICE_ANNOTATIONS: Record<string, string> = {
  'devices.noderesource.dev/pod': json([{ path: '/dev/nri-pod', type: 'c', major: 1, minor: 5 }]),
  'mounts.noderesource.dev/pod': json([
    { source: '/srv/pod', destination: '/mnt/pod', type: 'bind', options: ['rbind', 'ro'] },
  ]),
  'devices.noderesource.dev/container.c0': json([
    { path: '/dev/nri-null', type: 'c', major: 1, minor: 3, file_mode: 0o666 },
    { path: '/dev/nri-zero', type: 'c', major: 1, minor: 5, file_mode: 0o640, uid: 1000, gid: 1000 },
  ]),
  'cdi-devices.noderesource.dev/container.c0': json(['vendor.com/gpu=0', 'vendor.com/gpu=1']),
  'io-priority.noderesource.dev/container.c0': json({ class: 'IOPRIO_CLASS_RT', priority: 3 }),
  'scheduling-policy.noderesource.dev/container.c0': json({
    policy: 'SCHED_FIFO',
    priority: 10,
    flags: ['SCHED_FLAG_RESET_ON_FORK'],
  }),
  'network-devices.noderesource.dev/container.c0': json([{ hostIf: 'dummy0', name: 'eth1' }]),
  'sysctl.noderesource.dev/container.c0': json({ 'net.core.somaxconn': '1024', 'net.ipv4.ip_forward': '1' }),
  'memory-policy.noderesource.dev/container.c0': json({
    mode: 'MPOL_BIND',
    nodes: '0',
    flags: ['MPOL_F_STATIC_NODES'],
  }),
  'memory-policy.noderesource.dev/container.c2': json({ mode: 'MPOL_NONSENSE', nodes: '0' }),
};

const ULIMIT_ANNOTATIONS: Record<string, string> = {
  'ulimits.noderesource.dev/container.c0': json([
    { type: 'nofile', hard: 1024, soft: 512 },
    { type: 'RLIMIT_NPROC', hard: 200, soft: 100 },
    { type: 'core', hard: 0, soft: 0 },
  ]),
  'ulimits.noderesource.dev/container.c1': json([{ type: 'nofile', hard: 10, soft: 512 }]),
  'ulimits.noderesource.dev/container.c2': json([{ type: 'nonsense', hard: 1, soft: 1 }]),
};

const RDT_ANNOTATIONS: Record<string, string> = {
  'closid.rdt.noderesource.dev/container.c0': 'gold',
  'schemata.rdt.noderesource.dev/container.c0': 'L3:0=ff,MB:0=50',
  'enablemonitoring.rdt.noderesource.dev/container.c0': 'true',
  'enablemonitoring.rdt.noderesource.dev/container.c1': 'maybe',
  'closid.rdt.noderesource.dev/container.c2': 'silver',
};

const loggerConfig = (o: Record<string, string | string[]>): string =>
  Object.entries(o)
    .map(([k, v]) => `${k}: ${json(v)}`)
    .join('\n') + '\n';

const three = (extra: Partial<CaseContainer>[] = []): CaseContainer[] =>
  ['c0', 'c1', 'c2'].map((id, i) => ({
    id,
    name: id,
    args: ['/bin/app', '--serve'],
    env: ['PATH=/usr/bin:/bin', 'MODE=prod'],
    ...extra[i],
  }));

export const CASES: DiffCase[] = [
  {
    name: 'device-injector',
    about:
      'every adjustment the device-injector makes (devices, mounts, CDI devices, I/O priority, scheduler, net devices, sysctl, memory policy), per container and per pod; an invalid memory policy fails the creation',
    plugins: [{ index: '10', name: 'device-injector', sample: 'device-injector' }],
    podAnnotations: DEVICE_ANNOTATIONS,
    containers: three(),
  },
  {
    name: 'ulimit-adjuster',
    about: "rlimits by container annotation; hard < soft and an unknown type fail the creation with the plugin's error",
    plugins: [{ index: '10', name: 'ulimit-adjuster', sample: 'ulimit-adjuster' }],
    podAnnotations: ULIMIT_ANNOTATIONS,
    containers: three(),
  },
  {
    name: 'hook-injector',
    about: 'OCI hooks from hooks.d: always, by command (busybox) and by annotation',
    plugins: [{ index: '10', name: 'hook-injector', sample: 'hook-injector' }],
    podAnnotations: {},
    containers: three([{ args: ['busybox', 'sh'] }, {}, { annotations: { 'com.example.hook': 'yes' } }]),
    needsHooks: true,
  },
  {
    name: 'logger-conf-d',
    about:
      'the logger configured by conf.d (NN-name.conf): adds and sets an annotation and an env variable the container already has, subscribes to some events only',
    plugins: [
      {
        index: '10',
        name: 'logger',
        sample: 'logger',
        config: loggerConfig({
          events: ['CreateContainer', 'RemoveContainer'],
          addAnnotation: 'logger.example.com/added',
          setAnnotation: 'team',
          addEnv: 'LOGGER_ADDED',
          setEnv: 'MODE',
        }),
      },
    ],
    podAnnotations: {},
    containers: three([{ annotations: { team: 'blue' } }, {}, {}]),
  },
  {
    name: 'rdt',
    about: 'RDT class, schemata and monitoring by annotation; a bad boolean fails the creation',
    plugins: [{ index: '10', name: 'rdt', sample: 'rdt' }],
    podAnnotations: RDT_ANNOTATIONS,
    containers: three(),
  },
  {
    name: 'all-together',
    about:
      'device-injector, ulimit-adjuster, rdt, hook-injector and a logger at the end, on one container each: merged without conflict, and the logger sees what the plugins before it changed',
    plugins: [
      { index: '10', name: 'device-injector', sample: 'device-injector' },
      { index: '20', name: 'ulimit-adjuster', sample: 'ulimit-adjuster' },
      { index: '30', name: 'rdt', sample: 'rdt' },
      { index: '40', name: 'hook-injector', sample: 'hook-injector' },
      {
        index: '90',
        name: 'logger',
        sample: 'logger',
        config: loggerConfig({ events: ['CreateContainer'], addEnv: 'LOGGER_ADDED' }),
      },
    ],
    podAnnotations: { ...DEVICE_ANNOTATIONS, ...ULIMIT_ANNOTATIONS, ...RDT_ANNOTATIONS },
    containers: three([{ args: ['busybox', 'sh'] }]).slice(0, 1),
    needsHooks: true,
  },
  {
    name: 'conflict-ulimit-pair',
    about: 'two ulimit-adjusters set the same rlimit: the creation fails naming both',
    plugins: [
      { index: '10', name: 'ulimit-a', sample: 'ulimit-adjuster' },
      { index: '20', name: 'ulimit-b', sample: 'ulimit-adjuster' },
    ],
    podAnnotations: ULIMIT_ANNOTATIONS,
    containers: three().slice(0, 1),
  },
  {
    name: 'conflict-device-injector-pair',
    about:
      'two device-injectors: which field the conflict names shows the order in which fields are merged (c0: all fields; c1: pod devices and mounts)',
    plugins: [
      { index: '10', name: 'injector-a', sample: 'device-injector' },
      { index: '20', name: 'injector-b', sample: 'device-injector' },
    ],
    podAnnotations: DEVICE_ANNOTATIONS,
    containers: three().slice(0, 2),
  },
  {
    name: 'conflict-device-injector-pair-devices-only',
    about: 'two device-injectors adding the same device and nothing else',
    plugins: [
      { index: '10', name: 'injector-a', sample: 'device-injector' },
      { index: '20', name: 'injector-b', sample: 'device-injector' },
    ],
    podAnnotations: { 'devices.noderesource.dev/pod': DEVICE_ANNOTATIONS['devices.noderesource.dev/pod'] },
    containers: three().slice(0, 1),
  },
  {
    name: 'conflict-rdt-pair',
    about: 'two rdt plugins set the same RDT fields',
    plugins: [
      { index: '10', name: 'rdt-a', sample: 'rdt' },
      { index: '20', name: 'rdt-b', sample: 'rdt' },
    ],
    podAnnotations: RDT_ANNOTATIONS,
    containers: three().filter((c) => c.id !== 'c1'),
  },
  {
    name: 'logger-pair-add',
    about: 'two loggers add the same annotation and env variable (a conflict), and on c1 only the same env variable',
    plugins: [
      {
        index: '10',
        name: 'logger-a',
        sample: 'logger',
        config: loggerConfig({ events: ['CreateContainer'], addAnnotation: 'shared.example.com/by', addEnv: 'SHARED' }),
      },
      {
        index: '20',
        name: 'logger-b',
        sample: 'logger',
        config: loggerConfig({ events: ['CreateContainer'], addAnnotation: 'shared.example.com/by', addEnv: 'SHARED' }),
      },
    ],
    podAnnotations: {},
    containers: three().slice(0, 1),
  },
  {
    name: 'logger-pair-set',
    about:
      'two loggers set (remove, then add) the same annotation and env variable: what a removal by the second plugin of what the first set does',
    plugins: [
      {
        index: '10',
        name: 'logger-a',
        sample: 'logger',
        config: loggerConfig({ events: ['CreateContainer'], setAnnotation: 'team', setEnv: 'MODE' }),
      },
      {
        index: '20',
        name: 'logger-b',
        sample: 'logger',
        config: loggerConfig({ events: ['CreateContainer'], setAnnotation: 'team', setEnv: 'MODE' }),
      },
    ],
    podAnnotations: {},
    containers: three([{ annotations: { team: 'blue' } }]).slice(0, 1),
  },
  {
    name: 'logger-pair-add-then-set',
    about: 'a logger adds an annotation and env variable, a second one sets (removes and adds) them',
    plugins: [
      {
        index: '10',
        name: 'logger-a',
        sample: 'logger',
        config: loggerConfig({ events: ['CreateContainer'], addAnnotation: 'team', addEnv: 'MODE' }),
      },
      {
        index: '20',
        name: 'logger-b',
        sample: 'logger',
        config: loggerConfig({ events: ['CreateContainer'], setAnnotation: 'team', setEnv: 'MODE' }),
      },
    ],
    podAnnotations: {},
    containers: three().slice(0, 1),
  },
  {
    name: 'conflict-logger-pair-env',
    about: 'two loggers add the same env variable, nothing else: a conflict on a keyed field (Env SHARED)',
    plugins: [
      {
        index: '10',
        name: 'logger-a',
        sample: 'logger',
        config: loggerConfig({ events: ['CreateContainer'], addEnv: 'SHARED' }),
      },
      {
        index: '20',
        name: 'logger-b',
        sample: 'logger',
        config: loggerConfig({ events: ['CreateContainer'], addEnv: 'SHARED' }),
      },
    ],
    podAnnotations: {},
    containers: three().slice(0, 2),
  },
  {
    name: 'conflict-setter-pair-memory',
    about:
      'two setters (bench/vs-go/differential/setter, not an NRI sample) set the memory limit: a conflict on an unkeyed field (MemLimit)',
    plugins: [
      { index: '10', name: 'setter-a', sample: 'setter', config: 'memoryLimit: 268435456\n' },
      { index: '20', name: 'setter-b', sample: 'setter', config: 'memoryLimit: 536870912\n' },
    ],
    podAnnotations: {},
    containers: three().slice(0, 1),
  },
  {
    name: 'setter-pair-disjoint',
    about: 'two setters set different fields (memory limit; CPU shares and an env variable): merged, no conflict',
    plugins: [
      { index: '10', name: 'setter-a', sample: 'setter', config: 'memoryLimit: 268435456\n' },
      { index: '20', name: 'setter-b', sample: 'setter', config: 'cpuShares: 512\nenv: {TIER: gold}\n' },
    ],
    podAnnotations: {},
    containers: three().slice(0, 1),
  },
  {
    name: 'setter-then-logger-set-env',
    about:
      'a setter sets MODE, which the container already has, then a logger sets (removes and adds) it: no conflict, the value of the logger wins',
    plugins: [
      { index: '10', name: 'setter', sample: 'setter', config: 'env: {MODE: dev}\n' },
      {
        index: '20',
        name: 'logger',
        sample: 'logger',
        config: loggerConfig({ events: ['CreateContainer'], setEnv: 'MODE' }),
      },
    ],
    podAnnotations: {},
    containers: three().slice(0, 1),
  },
  {
    name: 'hook-injector-pair',
    about: 'two hook-injectors: hooks accumulate, no conflict',
    plugins: [
      { index: '10', name: 'hooks-a', sample: 'hook-injector' },
      { index: '20', name: 'hooks-b', sample: 'hook-injector' },
    ],
    podAnnotations: {},
    containers: three([{ args: ['busybox', 'sh'] }]).slice(0, 1),
    needsHooks: true,
  },
];
