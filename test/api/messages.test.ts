import { describe, expect, it } from 'vitest';
import protobuf from 'protobufjs/minimal.js';
import {
  METHODS,
  PLUGIN_SERVICE,
  RUNTIME_SERVICE,
  methodTypes,
  nri,
  optionalInt64,
  optionalString,
  optionalUInt64,
} from '../../src/api/index.js';

interface Codec<I, M> {
  encode(m: I): { finish(): Uint8Array };
  decode(b: Uint8Array): M;
}
const roundTrip = <I, M>(cls: Codec<I, M>, msg: I): M => cls.decode(cls.encode(msg).finish());

describe('generated NRI bindings', () => {
  it('round-trips a CreateContainerRequest with maps, repeated fields, wrappers and 64-bit numbers', () => {
    const req: nri.ICreateContainerRequest = {
      pod: {
        id: 'pod0',
        name: 'web',
        namespace: 'default',
        labels: { app: 'web', 'app.kubernetes.io/name': 'web' },
        annotations: { 'kubernetes.io/config.seen': '2024-01-01T00:00:00Z' },
        ips: ['10.0.0.7', 'fd00::7'],
        linux: { cgroupParent: '/kubepods/burstable/pod0' },
      },
      container: {
        id: 'ctr0',
        podSandboxId: 'pod0',
        name: 'nginx',
        state: nri.ContainerState.CONTAINER_CREATED,
        args: ['nginx', '-g', 'daemon off;'],
        env: ['PATH=/usr/bin'],
        mounts: [{ destination: '/data', source: '/var/lib/data', type: 'bind', options: ['rbind', 'ro'] }],
        createdAt: 1_700_000_000_123_456,
        CDIDevices: [{ name: 'vendor.com/gpu=0' }],
        user: { uid: 1000, gid: 1000, additionalGids: [4, 24, 27] },
        linux: {
          oomScoreAdj: { value: -998 },
          resources: {
            memory: { limit: optionalInt64(8 * 2 ** 30), swappiness: optionalUInt64(0) },
            cpu: { shares: optionalUInt64(1024), quota: optionalInt64(-1), cpus: '0-3' },
            rdtClass: optionalString('gold'),
            unified: { 'memory.high': '1G' },
          },
          scheduler: {
            policy: nri.LinuxSchedulerPolicy.SCHED_FIFO,
            priority: 10,
            flags: [nri.LinuxSchedulerFlag.SCHED_FLAG_RECLAIM, nri.LinuxSchedulerFlag.SCHED_FLAG_KEEP_POLICY],
          },
          netDevices: { eth1: { name: 'net1' } },
        },
      },
    };
    const back = roundTrip(nri.CreateContainerRequest, req);
    const c = back.container!;
    expect(back.pod!.labels).toEqual(req.pod!.labels);
    expect(back.pod!.ips).toEqual(['10.0.0.7', 'fd00::7']);
    expect(c.createdAt).toBe(1_700_000_000_123_456);
    expect(typeof c.createdAt).toBe('number');
    expect(c.linux!.resources!.memory!.limit!.value).toBe(8 * 2 ** 30);
    expect(c.linux!.resources!.cpu!.quota!.value).toBe(-1);
    // A present wrapper holding zero survives as present.
    expect(c.linux!.resources!.memory!.swappiness).toBeDefined();
    expect(c.linux!.resources!.memory!.swappiness!.value ?? 0).toBe(0);
    expect(c.linux!.resources!.memory!.reservation ?? undefined).toBeUndefined();
    expect(c.linux!.oomScoreAdj!.value).toBe(-998);
    expect(c.user!.additionalGids).toEqual([4, 24, 27]);
    expect(c.linux!.scheduler!.flags).toEqual([1, 3]);
    expect(c.linux!.netDevices!.eth1.name).toBe('net1');
    expect(c.mounts![0].options).toEqual(['rbind', 'ro']);
    expect(c.CDIDevices![0].name).toBe('vendor.com/gpu=0');
    expect(c.state).toBe(nri.ContainerState.CONTAINER_CREATED);
  });

  it('round-trips responses with adjustments, updates and evictions', () => {
    const rsp: nri.ICreateContainerResponse = {
      adjust: {
        annotations: { 'example.com/adjusted': 'true' },
        env: [
          { key: 'FOO', value: 'bar' },
          { key: '-REMOVED', value: '' },
        ],
        linux: {
          resources: { memory: { limit: optionalInt64(1 << 30) } },
          memoryPolicy: { mode: nri.MpolMode.MPOL_BIND, nodes: '0-1', flags: [nri.MpolFlag.MPOL_F_STATIC_NODES] },
        },
        args: ['sleep', 'infinity'],
      },
      update: [
        { containerId: 'ctr9', ignoreFailure: true, linux: { resources: { cpu: { shares: optionalUInt64(2) } } } },
      ],
      evict: [{ containerId: 'ctr8', reason: 'out of budget' }],
    };
    const back = roundTrip(nri.CreateContainerResponse, rsp);
    expect(back.adjust!.env!.map((e) => [e.key, e.value])).toEqual([
      ['FOO', 'bar'],
      ['-REMOVED', ''],
    ]);
    expect(back.adjust!.linux!.memoryPolicy!.nodes).toBe('0-1');
    expect(back.adjust!.linux!.memoryPolicy!.mode).toBe(nri.MpolMode.MPOL_BIND);
    expect(back.update[0].ignoreFailure).toBe(true);
    expect(back.update[0].linux!.resources!.cpu!.shares!.value).toBe(2);
    expect(back.evict[0]).toMatchObject({ containerId: 'ctr8', reason: 'out of budget' });
  });

  it('round-trips the ownership maps of ValidateContainerAdjustment (int32 keys)', () => {
    const req: nri.IValidateContainerAdjustmentRequest = {
      owners: {
        owners: {
          ctr0: {
            simple: { [nri.Field.MemLimit]: 'plugin-a' },
            compound: { [nri.Field.Annotations]: { owners: { 'a/b': 'plugin-b' } } },
          },
        },
      },
      plugins: [{ name: 'a', index: '10' }],
    };
    const back = roundTrip(nri.ValidateContainerAdjustmentRequest, req);
    expect(back.owners!.owners!.ctr0.simple![nri.Field.MemLimit]).toBe('plugin-a');
    expect(back.owners!.owners!.ctr0.compound![nri.Field.Annotations].owners!['a/b']).toBe('plugin-b');
  });

  it('encodes 64-bit values beyond 32 bits exactly as varints (what Go sends)', () => {
    const bytes = nri.OptionalInt64.encode({ value: 2 ** 40 + 5 }).finish();
    // field 1 varint: 0x08 then 2^40+5 little-endian base-128
    expect(Buffer.from(bytes).toString('hex')).toBe('08858080808020');
    expect(nri.OptionalInt64.decode(bytes).value).toBe(2 ** 40 + 5);
    const neg = nri.OptionalInt64.encode({ value: -1 }).finish();
    expect(neg.length).toBe(11); // negative int64 takes 10 varint bytes, as in Go
    expect(nri.OptionalInt64.decode(neg).value).toBe(-1);
  });

  it('decodes a payload carrying a field this schema does not know (forward compatibility)', () => {
    const w = protobuf.Writer.create();
    w.uint32((1 << 3) | 2).string('future-plugin'); // plugin_name
    w.uint32((2 << 3) | 2).string('42'); // plugin_idx
    w.uint32((99 << 3) | 2).string('from a newer NRI'); // unknown length-delimited field
    w.uint32((100 << 3) | 0).uint64(7); // unknown varint field
    w.uint32((101 << 3) | 5).fixed32(9); // unknown fixed32 field
    const bytes = w.finish();
    const msg = nri.RegisterPluginRequest.decode(bytes);
    expect(msg.pluginName).toBe('future-plugin');
    expect(msg.pluginIdx).toBe('42');
    // Relaying a message must not lose what a newer peer put in it.
    expect(Buffer.from(nri.RegisterPluginRequest.encode(msg).finish())).toEqual(Buffer.from(bytes));
  });

  it('decodes a v0.6.1-shaped ConfigureRequest (no timeouts, no NRI version) with defaults', () => {
    const w = protobuf.Writer.create();
    w.uint32((2 << 3) | 2).string('containerd');
    w.uint32((3 << 3) | 2).string('v1.7.20');
    const msg = nri.ConfigureRequest.decode(w.finish());
    expect(msg.runtimeName).toBe('containerd');
    expect(msg.runtimeVersion).toBe('v1.7.20');
    expect(msg.registrationTimeout).toBe(0);
    expect(msg.requestTimeout).toBe(0);
    expect(msg.NRIVersion).toBe('');
    expect(msg.config).toBe('');
  });

  it('keeps a zero-length message distinct from an absent one', () => {
    const withEmptyAdjust = nri.CreateContainerResponse.encode({ adjust: {} }).finish();
    expect(Buffer.from(withEmptyAdjust).toString('hex')).toBe('0a00');
    expect(nri.CreateContainerResponse.decode(withEmptyAdjust).adjust).toBeTruthy();
    expect(nri.CreateContainerResponse.decode(new Uint8Array()).adjust).toBeFalsy();
  });

  it('rejects truncated input with an error instead of returning garbage', () => {
    const bytes = nri.RegisterPluginRequest.encode({ pluginName: 'logger', pluginIdx: '10' }).finish();
    expect(() => nri.RegisterPluginRequest.decode(bytes.subarray(0, bytes.length - 3))).toThrow();
  });
});

describe('service table', () => {
  it('names both services and maps every method to its request and response classes', () => {
    expect(RUNTIME_SERVICE).toBe('nri.pkg.api.v1alpha1.Runtime');
    expect(PLUGIN_SERVICE).toBe('nri.pkg.api.v1alpha1.Plugin');
    expect(METHODS.size).toBe(20);
    expect(methodTypes(PLUGIN_SERVICE, 'Configure')).toMatchObject({
      request: nri.ConfigureRequest,
      response: nri.ConfigureResponse,
    });
    expect(methodTypes(PLUGIN_SERVICE, 'StateChange')).toMatchObject({
      request: nri.StateChangeEvent,
      response: nri.Empty,
    });
    expect(methodTypes(RUNTIME_SERVICE, 'RegisterPlugin')).toMatchObject({
      request: nri.RegisterPluginRequest,
      response: nri.Empty,
    });
    expect(methodTypes(RUNTIME_SERVICE, 'Configure')).toBeUndefined();
    for (const m of METHODS.values()) {
      expect(typeof m.request.decode).toBe('function');
      expect(typeof m.response.encode).toBe('function');
    }
  });
});

describe('synthetic node state (bench/synthetic-state.ts)', () => {
  it('is deterministic per seed and survives a SynchronizeRequest round trip', async () => {
    const { syntheticState } = await import('../../bench/synthetic-state.js');
    const a = syntheticState({ pods: 20, containersPerPod: 3, seed: 7 });
    const b = syntheticState({ pods: 20, containersPerPod: 3, seed: 7 });
    const c = syntheticState({ pods: 20, containersPerPod: 3, seed: 8 });
    expect(a).toEqual(b);
    expect(a.pods[0].id).not.toBe(c.pods[0].id);
    expect(a.pods).toHaveLength(20);
    expect(a.containers).toHaveLength(60);
    expect(Object.keys(a.containers[0].annotations!).length).toBeGreaterThanOrEqual(10);
    const bytes = nri.SynchronizeRequest.encode({ pods: a.pods, containers: a.containers }).finish();
    const back = nri.SynchronizeRequest.decode(bytes);
    const plain = { longs: String, enums: String };
    expect(nri.SynchronizeRequest.toObject(back, plain)).toEqual(
      nri.SynchronizeRequest.toObject(
        nri.SynchronizeRequest.fromObject({ pods: a.pods, containers: a.containers }),
        plain,
      ),
    );
    // Every container belongs to a pod of the state.
    const podIds = new Set(back.pods.map((p) => p.id));
    expect(back.containers.every((ctr) => podIds.has(ctr.podSandboxId))).toBe(true);
  });
});
