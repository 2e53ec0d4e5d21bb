// Every runtime preset against what the runtime's sources say it does (the facts of
// issue 23, read at each release's tag): which subscriptions it refuses and with what
// words, which pod update events it sends, and the container name plugins see. The
// expected values are written out here by hand, not derived from the presets.
import { afterEach, describe, expect, it } from 'vitest';
import { nri } from '../../src/api/index.js';
import { planSimulation } from '../../src/runtime/sim/inputs.js';
import { RUNTIME_PRESETS } from '../../src/runtime/sim/presets.js';
import { connectRawPlugin, ofType, startSim, waitFor, type Sim } from './helpers.js';

/** The valid event mask of each preset's NRI (pkg/api/event.go ValidEvents at the vendored version). */
const KNOWN_MASK: Record<string, number> = {
  'containerd-1.7.0': 0x7ff, // v0.3.0
  'containerd-1.7.13': 0x7ff, // v0.4.0
  'containerd-1.7.25': 0x7ff, // v0.6.1
  'containerd-1.7.34': 0x7ff, // v0.8.0
  'containerd-2.0': 0x7ff, // v0.8.0
  'containerd-2.1': 0x7ff, // v0.8.0
  'containerd-2.2.0': 0x3fff, // v0.10.0
  'containerd-2.2.1': 0x3fff, // v0.11.0
  'containerd-2.3': 0x3fff, // v0.12.0
  'crio-1.32': 0x7ff, // v0.9.0
  'crio-1.33': 0x1fff, // e597e78
  'crio-1.34': 0x3fff, // v0.10.0
  'crio-1.35': 0x3fff, // v0.11.0
  'crio-1.36': 0x3fff, // v0.11.0
  'isulad-2.1.5': 0x7ff, // v0.6.1
  'docker-29': 0x3fff, // v0.12.1
  newest: 0x3fff,
};

/** What a pod resource update sends to a plugin subscribed to both pod update events. */
const POD_UPDATE: Record<string, 'both' | 'update-only' | 'none' | 'refused'> = {
  'containerd-1.7.0': 'none',
  'containerd-1.7.13': 'none',
  'containerd-1.7.25': 'none',
  'containerd-1.7.34': 'none',
  'containerd-2.0': 'none',
  'containerd-2.1': 'none',
  'containerd-2.2.0': 'refused', // CRI UpdatePodSandboxResources: "not implemented yet"
  'containerd-2.2.1': 'refused',
  'containerd-2.3': 'both',
  'crio-1.32': 'none',
  'crio-1.33': 'update-only',
  'crio-1.34': 'update-only',
  'crio-1.35': 'update-only',
  'crio-1.36': 'update-only',
  'isulad-2.1.5': 'none',
  'docker-29': 'none',
  newest: 'both',
};

/** The name a plugin sees for a container created with metadata name "app" and no kubelet label. */
const UNLABELLED_NAME: Record<string, string> = Object.fromEntries(
  Object.keys(KNOWN_MASK).map((p) => [p, p.startsWith('crio-') ? '' : p === 'docker-29' ? '/app' : 'app']),
);

const EVENTS = Array.from({ length: 14 }, (_, i) => i + 1); // RUN_POD_SANDBOX .. VALIDATE_CONTAINER_ADJUSTMENT

let sim: Sim | undefined;
const sockets: Array<{ destroy(): void }> = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  await sim?.close();
  sim = undefined;
});

async function startPreset(preset: string, scenario?: Parameters<typeof startSim>[0]): Promise<Sim> {
  const plan = await planSimulation({ preset });
  sim = await startSim(scenario, plan.runtime);
  return sim;
}

it('covers every preset', () => {
  expect(Object.keys(RUNTIME_PRESETS).sort()).toEqual(Object.keys(KNOWN_MASK).sort());
});

describe.each(Object.keys(KNOWN_MASK))('preset %s', (preset) => {
  it('refuses exactly the subscriptions its NRI does not know, in the runtime’s words', async () => {
    const s = await startPreset(preset);
    const masks = [...EVENTS.map((e) => 1 << (e - 1)), 0x3fff];
    for (const [i, mask] of masks.entries()) {
      const index = String(i + 10);
      const p = await connectRawPlugin(s.socketPath, `m${mask.toString(16)}`, index, {}, mask);
      sockets.push(p.socket);
    }
    for (const [i, mask] of masks.entries()) {
      const name = `${i + 10}-m${mask.toString(16)}`;
      const extra = mask & ~KNOWN_MASK[preset];
      if (extra === 0) {
        await waitFor(`${name} to be live`, () => s.runtime.plugins().find((p) => p.name === name));
      } else {
        const refusal = await waitFor(`${name} to be refused`, () =>
          ofType(s.events, 'error').find((e) => e.plugin === name),
        );
        expect(refusal.message).toBe(`failed to start external plugin: invalid plugin events: 0x${extra.toString(16)}`);
      }
    }
    expect(s.runtime.plugins()).toHaveLength(masks.filter((m) => (m & ~KNOWN_MASK[preset]) === 0).length);
  });

  it('sends the pod update events that runtime sends, and names unlabelled containers as it does', async () => {
    const s = await startPreset(preset, {
      pods: [{ id: 'pod0', name: 'web', namespace: 'shop' }],
      containers: [],
    });
    const seen: string[] = [];
    const names: string[] = [];
    const mark = (what: string) => () => (seen.push(what), nri.Empty.encode({}).finish());
    const podUpdates = 0x1800 & KNOWN_MASK[preset];
    const p = await connectRawPlugin(
      s.socketPath,
      'watch',
      '10',
      {
        UpdatePodSandbox: mark('UpdatePodSandbox'),
        PostUpdatePodSandbox: mark('PostUpdatePodSandbox'),
        StateChange: (payload) => {
          seen.push(nri.Event[nri.StateChangeEvent.decode(payload).event]);
          return nri.Empty.encode({}).finish();
        },
        CreateContainer: (payload) => {
          names.push(nri.CreateContainerRequest.decode(payload).container?.name ?? '');
          return nri.CreateContainerResponse.encode({ adjust: {} }).finish();
        },
      },
      0x8 | podUpdates, // CREATE_CONTAINER and the pod update events it knows
    );
    sockets.push(p.socket);
    await waitFor('the watcher to be live', () => s.runtime.plugins().length === 1);
    await s.runtime.updatePodSandbox('pod0', { cpu: { shares: { value: 512 } } });
    const created = await s.runtime.createContainer('pod0', { id: 'c0', name: 'app', labels: {} });
    expect(created.ok).toBe(true);

    const refused = ofType(s.events, 'error').find((e) => e.event === 'UpdatePodSandbox');
    const expected = {
      both: ['UpdatePodSandbox', 'POST_UPDATE_POD_SANDBOX'],
      'update-only': ['UpdatePodSandbox'],
      none: [],
      refused: [],
    }[POD_UPDATE[preset]];
    // Runtimes before v0.12 send PostUpdatePodSandbox as StateChange; v0.12 on its own RPC.
    expect(seen.map((e) => (e === 'PostUpdatePodSandbox' ? 'POST_UPDATE_POD_SANDBOX' : e))).toEqual(expected);
    if (POD_UPDATE[preset] === 'refused') expect(refused?.message).toBe('not implemented yet');
    else expect(refused).toBeUndefined();
    expect(names).toEqual([UNLABELLED_NAME[preset]]);
  });
});

describe('CRI-O container names', () => {
  it('come from the kubelet label, else the annotation of that name', async () => {
    const s = await startPreset('crio-1.36', { pods: [{ id: 'pod0', name: 'web' }], containers: [] });
    const names: string[] = [];
    const p = await connectRawPlugin(
      s.socketPath,
      'watch',
      '10',
      {
        CreateContainer: (payload) => {
          names.push(nri.CreateContainerRequest.decode(payload).container?.name ?? '');
          return nri.CreateContainerResponse.encode({ adjust: {} }).finish();
        },
      },
      0x8,
    );
    sockets.push(p.socket);
    await waitFor('the watcher to be live', () => s.runtime.plugins().length === 1);
    const key = 'io.kubernetes.container.name';
    await s.runtime.createContainer('pod0', { id: 'c1', name: 'meta', labels: { [key]: 'from-label' } });
    await s.runtime.createContainer('pod0', { id: 'c2', name: 'meta', annotations: { [key]: 'from-annotation' } });
    await s.runtime.createContainer('pod0', {
      id: 'c3',
      name: 'meta',
      labels: { [key]: 'label-wins' },
      annotations: { [key]: 'annotation' },
    });
    expect(names).toEqual(['from-label', 'from-annotation', 'label-wins']);
  });
});

describe('docker-29', () => {
  async function dockerWith(answer: nri.ICreateContainerResponse): Promise<{
    s: Sim;
    seen: string[];
    requests: nri.CreateContainerRequest[];
    client: Awaited<ReturnType<typeof connectRawPlugin>>['client'];
  }> {
    const s = await startPreset('docker-29', { pods: [{ id: 'pod0', name: 'web' }], containers: [] });
    const seen: string[] = [];
    const requests: nri.CreateContainerRequest[] = [];
    const served = (method: string) => () => (seen.push(method), nri.Empty.encode({}).finish());
    const p = await connectRawPlugin(
      s.socketPath,
      'all',
      '10',
      {
        CreateContainer: (payload) => {
          seen.push('CreateContainer');
          requests.push(nri.CreateContainerRequest.decode(payload));
          return nri.CreateContainerResponse.encode(answer).finish();
        },
        ...Object.fromEntries(
          [
            'RunPodSandbox',
            'StopPodSandbox',
            'RemovePodSandbox',
            'PostCreateContainer',
            'StartContainer',
            'PostStartContainer',
            'PostUpdateContainer',
            'RemoveContainer',
            'UpdatePodSandbox',
            'PostUpdatePodSandbox',
            'StateChange',
          ].map((m) => [m, served(m)]),
        ),
        UpdateContainer: () => (seen.push('UpdateContainer'), nri.UpdateContainerResponse.encode({}).finish()),
        StopContainer: () => (seen.push('StopContainer'), nri.StopContainerResponse.encode({}).finish()),
        ValidateContainerAdjustment: () => (
          seen.push('ValidateContainerAdjustment'),
          nri.ValidateContainerAdjustmentResponse.encode({}).finish()
        ),
      },
      0x3fff,
    );
    sockets.push(p.socket);
    await waitFor('the plugin to be live', () => s.runtime.plugins().length === 1);
    return { s, seen, requests, client: p.client };
  }

  it('relays CreateContainer alone, with a pod of the container’s id and /name', async () => {
    const { s, seen, requests } = await dockerWith({ adjust: { env: [{ key: 'A', value: '1' }] } });
    const r = s.runtime;
    await r.createContainer('pod0', { id: 'c0', name: 'keep', args: ['sleep', '1'], env: ['B=2'] });
    await r.startContainer('c0');
    await r.updateContainer('c0', { cpu: { shares: { value: 100 } } });
    await r.stopContainer('c0');
    await r.removeContainer('c0');
    await r.updatePodSandbox('pod0', { cpu: { shares: { value: 100 } } });
    await r.stopPodSandbox('pod0');
    // A validator (subscribed to all) is still consulted inside CreateContainer.
    expect(seen).toEqual(['CreateContainer', 'ValidateContainerAdjustment']);
    const req = nri.CreateContainerRequest.toObject(requests[0], { defaults: false });
    expect(req.pod).toEqual({ id: 'c0', name: '/keep' });
    expect(req.container).toMatchObject({ id: 'c0', podSandboxId: 'c0', name: '/keep', args: ['sleep', '1'] });
  });

  it.each([
    [{ annotations: { a: 'b' } }, 'unsupported container adjustments: annotations'],
    [
      { annotations: { a: 'b' }, linux: { resources: { cpu: { shares: { value: 2 } } } }, args: ['x'] },
      'unsupported container adjustments: annotations,linux.resources.cpu,args',
    ],
    [
      { mounts: [{ destination: '/d', source: '/s', type: 'bind', options: ['rbind'] }] },
      'applying mount adjustments: mount option "rbind" is not supported',
    ],
  ] as Array<[nri.IContainerAdjustment, string]>)('fails the create for %j: %s', async (adjust, message) => {
    const { s } = await dockerWith({ adjust });
    const r = await s.runtime.createContainer('pod0', { id: 'c0', name: 'keep' });
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error.message).toBe(message);
  });

  it('takes env and read-only mounts', async () => {
    const { s } = await dockerWith({
      adjust: {
        env: [{ key: 'A', value: '1' }],
        mounts: [{ destination: '/d', source: '/s', type: 'bind', options: ['ro'] }],
      },
    });
    const r = await s.runtime.createContainer('pod0', { id: 'c0', name: 'keep' });
    expect(r.ok).toBe(true);
    expect(s.runtime.state.container('c0')?.env).toContain('A=1');
  });

  it('answers a plugin’s UpdateContainers with "not implemented" and keeps the plugin', async () => {
    const { s, client } = await dockerWith({ adjust: {} });
    await s.runtime.createContainer('pod0', { id: 'c0', name: 'keep' });
    const call = client.call(
      'nri.pkg.api.v1alpha1.Runtime',
      'UpdateContainers',
      nri.UpdateContainersRequest.encode({
        update: [{ containerId: 'c0', linux: { resources: { cpu: { shares: { value: 5 } } } } }],
      }).finish(),
      { timeoutMs: 2000 },
    );
    await expect(call).rejects.toThrow(/not implemented/);
    expect(s.runtime.plugins()).toHaveLength(1);
  });
});
