import { describe, expect, it } from 'vitest';
import { nri } from '../../src/api/index.js';
import { ConflictError, MergeError } from '../../src/runtime/adaptation/errors.js';
import { ResultCollector } from '../../src/runtime/adaptation/result.js';

const pod: nri.IPodSandbox = { id: 'pod0', name: 'web', namespace: 'default' };
function createReq(): nri.ICreateContainerRequest {
  return {
    pod,
    container: {
      id: 'ctr0',
      podSandboxId: 'pod0',
      name: 'app',
      annotations: { keep: 'k', old: 'o' },
      env: ['PATH=/bin', 'OLD=1'],
      mounts: [{ destination: '/data', source: '/srv/data', type: 'bind' }],
      args: ['app', '--serve'],
      linux: {
        resources: { cpu: { shares: { value: 1024 } } },
        namespaces: [{ type: 'network', path: '/proc/1/ns/net' }],
      },
    },
  };
}

type Adj = nri.IContainerAdjustment;
function collect(...answers: Array<[string, Adj | nri.ICreateContainerResponse]>): ResultCollector {
  const c = new ResultCollector({ create: createReq() });
  for (const [plugin, a] of answers)
    c.apply(plugin, 'adjust' in a || 'update' in a || 'evict' in a ? a : { adjust: a });
  return c;
}

function conflictOf(fn: () => unknown): ConflictError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ConflictError);
    return err as ConflictError;
  }
  throw new Error('expected a ConflictError');
}

const cpu = (shares: number): Adj => ({ linux: { resources: { cpu: { shares: { value: shares } } } } });

// [name, first plugin's adjustment, second plugin's adjustment, expected conflict (field, key) or null]
const table: Array<[string, Adj, Adj, [string, string | undefined] | null]> = [
  ['same annotation', { annotations: { a: '1' } }, { annotations: { a: '2' } }, ['Annotations', 'a']],
  ['different annotations', { annotations: { a: '1' } }, { annotations: { b: '2' } }, null],
  ['same env var', { env: [{ key: 'X', value: '1' }] }, { env: [{ key: 'X', value: '2' }] }, ['Env', 'X']],
  ['same mount', { mounts: [{ destination: '/m' }] }, { mounts: [{ destination: '/m' }] }, ['Mounts', '/m']],
  [
    'same device',
    { linux: { devices: [{ path: '/dev/x' }] } },
    { linux: { devices: [{ path: '/dev/x' }] } },
    ['Devices', '/dev/x'],
  ],
  [
    'same CDI device',
    { CDIDevices: [{ name: 'vendor.com/gpu=0' }] },
    { CDIDevices: [{ name: 'vendor.com/gpu=0' }] },
    ['CdiDevices', 'vendor.com/gpu=0'],
  ],
  [
    'same rlimit',
    { rlimits: [{ type: 'RLIMIT_NOFILE', hard: 10, soft: 10 }] },
    { rlimits: [{ type: 'RLIMIT_NOFILE', hard: 9, soft: 9 }] },
    ['Rlimits', 'RLIMIT_NOFILE'],
  ],
  ['different rlimits', { rlimits: [{ type: 'RLIMIT_NOFILE' }] }, { rlimits: [{ type: 'RLIMIT_NPROC' }] }, null],
  ['args twice', { args: ['a'] }, { args: ['b'] }, ['Args', undefined]],
  ['args replaced with a leading ""', { args: ['a'] }, { args: ['', 'b'] }, null],
  ['CPU shares twice', cpu(1), cpu(2), ['CPUShares', undefined]],
  ['CPU shares vs quota', cpu(1), { linux: { resources: { cpu: { quota: { value: 5 } } } } }, null],
  [
    'cpuset twice',
    { linux: { resources: { cpu: { cpus: '0' } } } },
    { linux: { resources: { cpu: { cpus: '1' } } } },
    ['CPUSetCPUs', undefined],
  ],
  [
    'memory limit twice',
    { linux: { resources: { memory: { limit: { value: 1 } } } } },
    { linux: { resources: { memory: { limit: { value: 2 } } } } },
    ['MemLimit', undefined],
  ],
  [
    'memory limit vs swap',
    { linux: { resources: { memory: { limit: { value: 1 } } } } },
    { linux: { resources: { memory: { swap: { value: 2 } } } } },
    null,
  ],
  [
    'hugepage same size',
    { linux: { resources: { hugepageLimits: [{ pageSize: '2MB', limit: 1 }] } } },
    { linux: { resources: { hugepageLimits: [{ pageSize: '2MB', limit: 2 }] } } },
    ['HugepageLimits', '2MB'],
  ],
  [
    'hugepage other size',
    { linux: { resources: { hugepageLimits: [{ pageSize: '2MB', limit: 1 }] } } },
    { linux: { resources: { hugepageLimits: [{ pageSize: '1GB', limit: 2 }] } } },
    null,
  ],
  [
    'unified same key',
    { linux: { resources: { unified: { 'memory.high': '1' } } } },
    { linux: { resources: { unified: { 'memory.high': '2' } } } },
    ['CgroupsUnified', 'memory.high'],
  ],
  [
    'pids twice',
    { linux: { resources: { pids: { limit: 1 } } } },
    { linux: { resources: { pids: { limit: 2 } } } },
    ['PidsLimit', undefined],
  ],
  [
    'blockio class twice',
    { linux: { resources: { blockioClass: { value: 'a' } } } },
    { linux: { resources: { blockioClass: { value: 'b' } } } },
    ['BlockioClass', undefined],
  ],
  [
    'RDT class twice',
    { linux: { resources: { rdtClass: { value: 'a' } } } },
    { linux: { resources: { rdtClass: { value: 'b' } } } },
    ['RdtClass', undefined],
  ],
  [
    'cgroups path twice',
    { linux: { cgroupsPath: '/a' } },
    { linux: { cgroupsPath: '/b' } },
    ['CgroupsPath', undefined],
  ],
  [
    'OOM score adj twice',
    { linux: { oomScoreAdj: { value: 1 } } },
    { linux: { oomScoreAdj: { value: 0 } } },
    ['OomScoreAdj', undefined],
  ],
  [
    'I/O priority twice',
    { linux: { ioPriority: { class: 2, priority: 4 } } },
    { linux: { ioPriority: { class: 3 } } },
    ['IoPriority', undefined],
  ],
  [
    'seccomp policy twice',
    { linux: { seccompPolicy: { defaultAction: 'SCMP_ACT_ALLOW' } } },
    { linux: { seccompPolicy: { defaultAction: 'SCMP_ACT_ERRNO' } } },
    ['SeccompPolicy', undefined],
  ],
  [
    'scheduler twice',
    { linux: { scheduler: { policy: 1 } } },
    { linux: { scheduler: { policy: 2 } } },
    ['LinuxSched', undefined],
  ],
  [
    'memory policy twice',
    { linux: { memoryPolicy: { mode: 2, nodes: '0' } } },
    { linux: { memoryPolicy: { mode: 2, nodes: '1' } } },
    ['MemoryPolicy', undefined],
  ],
  [
    'sysctl same key',
    { linux: { sysctl: { 'net.core.somaxconn': '1' } } },
    { linux: { sysctl: { 'net.core.somaxconn': '2' } } },
    ['Sysctl', 'net.core.somaxconn'],
  ],
  [
    'net device same host name',
    { linux: { netDevices: { eth1: { name: 'a' } } } },
    { linux: { netDevices: { eth1: { name: 'b' } } } },
    ['LinuxNetDevices', 'eth1'],
  ],
  [
    'namespace same type',
    { linux: { namespaces: [{ type: 'ipc', path: '/a' }] } },
    { linux: { namespaces: [{ type: 'ipc', path: '/b' }] } },
    ['Namespace', 'ipc'],
  ],
  [
    'namespace removed, then set by another',
    { linux: { namespaces: [{ type: '-network' }] } },
    { linux: { namespaces: [{ type: 'network', path: '/x' }] } },
    ['Namespace', 'network'],
  ],
  [
    'RDT CLOS id twice',
    { linux: { rdt: { closId: { value: 'a' } } } },
    { linux: { rdt: { closId: { value: 'b' } } } },
    ['RdtClosID', undefined],
  ],
  [
    'RDT removed, then CLOS set by another',
    { linux: { rdt: { remove: true } } },
    { linux: { rdt: { closId: { value: 'b' } } } },
    ['RdtClosID', undefined],
  ],
  ['hooks from both', { hooks: { prestart: [{ path: '/a' }] } }, { hooks: { prestart: [{ path: '/b' }] } }, null],
  [
    'mount removed by one, set by another',
    { mounts: [{ destination: '/m' }] },
    { mounts: [{ destination: '-/m' }] },
    null,
  ],
  [
    'annotation set, then removed and re-set by another',
    { annotations: { a: '1' } },
    { annotations: { '-a': '', a: '2' } },
    null,
  ],
];

describe('ResultCollector: the container it merges into', () => {
  it("shares the caller's container while no answer adjusts it, and adjusts a copy of its own, leaving the caller's as it was", () => {
    const req = createReq();
    const before = structuredClone(req.container);
    const c = new ResultCollector({ create: req });
    c.apply('quiet', { update: [], evict: [] });
    c.apply('nothing', {});
    // No answer changed it: the request next plugins are sent is the caller's container itself.
    expect(c.request.container).toBe(req.container);
    c.apply('adjuster', { adjust: { annotations: { added: 'yes' }, env: [{ key: 'NEW', value: '1' }] } });
    const merged = c.request.container!;
    expect(merged).not.toBe(req.container);
    expect(merged.annotations).toEqual({ keep: 'k', old: 'o', added: 'yes' });
    expect(merged.env).toEqual(['PATH=/bin', 'OLD=1', 'NEW=1']);
    expect(req.container).toEqual(before);
    // A second adjustment merges into the same copy.
    c.apply('second', { adjust: { annotations: { more: 'too' } } });
    expect(c.request.container).toBe(merged);
    expect(merged.annotations).toEqual({ keep: 'k', old: 'o', added: 'yes', more: 'too' });
    expect(req.container).toEqual(before);
  });
});

describe('ResultCollector: conflicts between two plugins', () => {
  it.each(table)('%s', (_name, first, second, expected) => {
    const c = new ResultCollector({ create: createReq() });
    c.apply('10-first', { adjust: first });
    if (expected === null) {
      c.apply('20-second', { adjust: second });
      expect(() => c.result()).not.toThrow();
      return;
    }
    const err = conflictOf(() => c.apply('20-second', { adjust: second }));
    expect(err.field).toBe(expected[0]);
    expect(err.key).toBe(expected[1]);
    expect(err.plugins).toEqual(['10-first', '20-second']);
    expect(err.containerId).toBe('ctr0');
    // Go's words (pkg/api owners.go): newcomer first, a field without key ends in a space.
    expect(err.message).toBe(
      `plugins "20-second" and "10-first" both tried to set ${expected[0]} ${expected[1] ?? ''}`,
    );
    // The request has failed: result() and later plugins see the same error.
    expect(() => c.result()).toThrow(err);
    expect(() => c.apply('30-third', {})).toThrow(err);
  });
});

describe('ResultCollector: removal markers', () => {
  it('a removal then a set of the same mount by another plugin is a conflict naming the remover', () => {
    const c = collect(
      ['10-a', { mounts: [{ destination: '/m', source: '/1' }] }],
      ['20-b', { mounts: [{ destination: '-/m' }] }],
    );
    const err = conflictOf(() => c.apply('30-c', { adjust: { mounts: [{ destination: '/m', source: '/3' }] } }));
    expect(err.plugins).toEqual(['20-b', '30-c']);
  });

  it('the remover itself may set the entry again later', () => {
    const c = collect(
      ['10-a', { mounts: [{ destination: '/m', source: '/1' }] }],
      ['20-b', { mounts: [{ destination: '-/m' }] }],
    );
    expect(() => c.apply('20-b', { adjust: { mounts: [{ destination: '/m', source: '/2' }] } })).not.toThrow();
  });

  it('a removed mount leaves the merged adjustment and the request seen by later plugins', () => {
    const c = collect(
      ['10-a', { mounts: [{ destination: '/m', source: '/1' }] }],
      ['20-b', { mounts: [{ destination: '-/m' }, { destination: '-/data' }] }],
    );
    const { adjust } = c.result();
    expect(adjust!.mounts!.map((m) => m.destination)).toEqual(['-/m', '-/data']);
    const seen = c.request.container!.mounts!;
    expect(seen.map((m) => m.destination)).toEqual([]);
  });

  it('annotations: removal only gives a "-key" marker; remove-and-set takes the key over', () => {
    const c = collect(
      ['10-a', { annotations: { '-old': '' } }],
      ['20-b', { annotations: { '-keep': '', keep: 'new' } }],
    );
    const { adjust } = c.result();
    expect(adjust!.annotations).toEqual({ '-old': '', '-keep': '', keep: 'new' });
    expect(c.request.container!.annotations).toMatchObject({ keep: 'new' });
    expect(c.owners.owner('ctr0', nri.Field.Annotations, 'keep')).toBe('20-b');
  });

  it('env: later plugins see the changed environment; removals of unset vars are not carried (as in Go)', () => {
    const c = collect([
      '10-a',
      { env: [{ key: 'NEW', value: 'x' }, { key: '-OLD' }, { key: 'PATH', value: '/usr/bin' }] },
    ]);
    expect(c.request.container!.env).toEqual(['NEW=x', 'PATH=/usr/bin']);
    expect(c.result().adjust!.env).toEqual([
      { key: 'NEW', value: 'x' },
      { key: 'PATH', value: '/usr/bin' },
    ]);
    // Removing a variable another plugin set clears it out of the merged adjustment.
    c.apply('20-b', { adjust: { env: [{ key: '-NEW' }] } });
    expect(c.result().adjust!.env).toEqual([{ key: 'PATH', value: '/usr/bin' }]);
    expect(c.owners.owner('ctr0', nri.Field.Env, 'NEW')).toBe('-20-b');
  });

  it('namespaces: removal drops it from the request, and the marker is in the adjustment', () => {
    const c = collect(['10-a', { linux: { namespaces: [{ type: '-network' }, { type: 'ipc', path: '/p' }] } }]);
    expect(c.request.container!.linux!.namespaces).toEqual([{ type: 'ipc', path: '/p' }]);
    expect(c.result().adjust!.linux!.namespaces!.map((n) => n.type)).toEqual(['-network', 'ipc']);
  });
});

describe('ResultCollector: merging', () => {
  it('merges different fields of several plugins into one adjustment and updates the request', () => {
    const c = collect(
      [
        '10-cpu',
        {
          linux: { resources: { cpu: { cpus: '2-3', shares: { value: 0 } } } },
          annotations: { 'cpu.example.com/pinned': 'true' },
        },
      ],
      ['20-mem', { linux: { resources: { memory: { limit: { value: 1 << 30 } } }, oomScoreAdj: { value: -500 } } }],
      [
        '30-dev',
        {
          linux: { devices: [{ path: '/dev/fuse', type: 'c', major: 10, minor: 229 }] },
          hooks: { poststop: [{ path: '/bin/cleanup' }] },
        },
      ],
      [
        '40-hook',
        {
          hooks: { poststop: [{ path: '/bin/audit' }] },
          CDIDevices: [{ name: 'nvidia.com/gpu=0' }],
          rlimits: [{ type: 'RLIMIT_NOFILE', hard: 4096, soft: 1024 }],
        },
      ],
    );
    const { adjust, updates, evictions } = c.result();
    expect(adjust!.linux!.resources!.cpu).toEqual({ cpus: '2-3', shares: { value: 0 } });
    expect(adjust!.linux!.resources!.memory).toEqual({ limit: { value: 1 << 30 } });
    expect(adjust!.linux!.oomScoreAdj).toEqual({ value: -500 });
    expect(adjust!.linux!.devices!.map((d) => d.path)).toEqual(['/dev/fuse']);
    expect(adjust!.hooks!.poststop!.map((h) => h.path)).toEqual(['/bin/cleanup', '/bin/audit']);
    expect(adjust!.CDIDevices).toEqual([{ name: 'nvidia.com/gpu=0' }]);
    expect(adjust!.annotations).toEqual({ 'cpu.example.com/pinned': 'true' });
    expect(updates).toEqual([]);
    expect(evictions).toEqual([]);
    expect(c.owners.owner('ctr0', nri.Field.OciHooks)).toBe('30-dev,40-hook');
    const seen = c.request.container!;
    expect(seen.linux!.resources!.cpu).toMatchObject({ shares: { value: 0 }, cpus: '2-3' });
    expect(seen.linux!.resources!.memory!.limit).toEqual({ value: 1 << 30 });
    // the original request object is never touched
    expect(createReq().container!.linux!.resources!.cpu!.cpus).toBeUndefined();
  });

  it('the owners go to validators in their wire form', () => {
    const c = collect(['10-a', cpu(5)], ['20-b', { annotations: { x: 'y' } }]);
    const proto = c.owners.toProto();
    expect(proto.owners!.ctr0.simple![nri.Field.CPUShares]).toBe('10-a');
    expect(proto.owners!.ctr0.compound![nri.Field.Annotations].owners).toEqual({ x: '20-b' });
  });

  it('refuses an update of the container being created', () => {
    const c = new ResultCollector({ create: createReq() });
    expect(() =>
      c.apply('10-a', { update: [{ containerId: 'ctr0', linux: { resources: cpu(1).linux!.resources! } }] }),
    ).toThrow(MergeError);
    expect(() => c.result()).toThrow(/plugin "10-a" asked to update container "ctr0" while it is being created/);
  });

  it('collects updates of other containers per container, and evictions with the plugin', () => {
    const c = new ResultCollector({ create: createReq() });
    c.apply('10-a', {
      update: [{ containerId: 'other', linux: { resources: { cpu: { shares: { value: 2 } } } } }],
      evict: [{ containerId: 'victim', reason: 'needs room' }],
    });
    c.apply('20-b', { update: [{ containerId: 'other', linux: { resources: { memory: { limit: { value: 9 } } } } }] });
    const { updates, evictions } = c.result();
    expect(updates).toHaveLength(1);
    expect(updates[0]).toMatchObject({
      containerId: 'other',
      linux: { resources: { cpu: { shares: { value: 2 } }, memory: { limit: { value: 9 } } } },
    });
    expect(evictions).toEqual([{ containerId: 'victim', reason: 'needs room', plugin: '10-a' }]);
  });
});

describe('ResultCollector: UpdateContainer and StopContainer', () => {
  const updateReq = (): nri.IUpdateContainerRequest => ({
    pod,
    container: { id: 'ctr0', podSandboxId: 'pod0' },
    linuxResources: { cpu: { shares: { value: 100 } }, pids: { limit: 64 } },
  });

  it('plugins modify the requested resources, which come last in the answer', () => {
    const c = new ResultCollector({ update: updateReq() });
    c.apply('10-a', {
      update: [
        { containerId: 'ctr0', linux: { resources: { cpu: { cpus: '1' } } } },
        { containerId: 'ctr9', linux: { resources: { cpu: { cpus: '2' } } } },
      ],
    });
    expect((c.request as nri.IUpdateContainerRequest).linuxResources!.cpu).toMatchObject({
      shares: { value: 100 },
      cpus: '1',
    });
    c.apply('20-b', { update: [{ containerId: 'ctr0', linux: { resources: { pids: { limit: 128 } } } }] });
    const { updates } = c.result();
    expect(updates.map((u) => u.containerId)).toEqual(['ctr9', 'ctr0']);
    expect(updates[1].linux!.resources).toMatchObject({
      cpu: { shares: { value: 100 }, cpus: '1' },
      pids: { limit: 128 },
    });
  });

  it('two plugins updating the same field of a container conflict', () => {
    const c = new ResultCollector({ update: updateReq() });
    c.apply('10-a', { update: [{ containerId: 'ctr0', linux: { resources: { pids: { limit: 32 } } } }] });
    const err = conflictOf(() =>
      c.apply('20-b', { update: [{ containerId: 'ctr0', linux: { resources: { pids: { limit: 128 } } } }] }),
    );
    expect(err.field).toBe('PidsLimit');
    expect(err.plugins).toEqual(['10-a', '20-b']);
  });

  it('an ignore_failure update that conflicts is dropped as a whole, and the request goes on', () => {
    const c = new ResultCollector({ update: updateReq() });
    c.apply('10-a', { update: [{ containerId: 'ctr0', linux: { resources: { pids: { limit: 32 } } } }] });
    c.apply('20-b', {
      update: [
        {
          containerId: 'ctr0',
          ignoreFailure: true,
          linux: { resources: { cpu: { shares: { value: 256 } }, pids: { limit: 128 } } },
        },
      ],
    });
    const u = c.result().updates.at(-1)!;
    expect(u.linux!.resources!.pids).toEqual({ limit: 32 });
    expect(u.linux!.resources!.cpu!.shares).toEqual({ value: 100 });
  });

  it('StopContainer answers are merged with the same ownership rules', () => {
    const c = new ResultCollector({ stop: { pod, container: { id: 'ctr0' } } });
    c.apply('10-a', { update: [{ containerId: 'ctr1', linux: { resources: { cpu: { cpus: '0-7' } } } }] });
    const err = conflictOf(() =>
      c.apply('20-b', { update: [{ containerId: 'ctr1', linux: { resources: { cpu: { cpus: '0-3' } } } }] }),
    );
    expect(err).toMatchObject({ field: 'CPUSetCPUs', containerId: 'ctr1', plugins: ['10-a', '20-b'] });
  });

  it('ignore_failure of a merged update is kept only if every plugin asked for it', () => {
    const c = new ResultCollector({ stop: { pod, container: { id: 'ctr0' } } });
    c.apply('10-a', {
      update: [{ containerId: 'ctr1', ignoreFailure: true, linux: { resources: { cpu: { cpus: '1' } } } }],
    });
    c.apply('20-b', { update: [{ containerId: 'ctr1', linux: { resources: { memory: { limit: { value: 5 } } } } }] });
    expect(c.result().updates[0].ignoreFailure).toBe(false);
  });
});
