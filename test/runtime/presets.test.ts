// Every runtime preset against what the runtime's sources say it does (the facts of
// issue 23, read at each release's tag): which subscriptions it refuses and with what
// words, which pod update events it sends, and the container name plugins see. The
// expected values are written out here by hand, not derived from the presets.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { nri } from '../../src/api/index.js';
import type { SimEvent } from '../../src/runtime/events.js';
import { planSimulation } from '../../src/runtime/sim/inputs.js';
import { RUNTIME_PRESETS } from '../../src/runtime/sim/presets.js';
import { runSimulation } from '../../src/runtime/sim/run.js';
import { RuntimeStartError } from '../../src/runtime/sim/start-failure.js';
import { builtBundle } from '../support/built.js';
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
  'containerd-2.2.0': 'refused', // CRI UpdatePodSandboxResources: "not implemented yet" (2.2.3 on: "not implemented")
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

/**
 * What a pre-started plugin that fails to start does to the runtime: NRI v0.3.0-v0.6.1
 * (the Go adaptation's startPlugins returns the error) makes containerd 1.7.0-1.7.25 exit;
 * from v0.7.0 the plugin is skipped with a warning. iSulad's own NRI skips it
 * (nri_adaption.cc:887-891 at v2.1.6) and logs in its own words.
 */
const PRE_START_FAILURE: Record<string, 'fatal' | 'skipped'> = Object.fromEntries(
  Object.keys(KNOWN_MASK).map((p) => [
    p,
    ['containerd-1.7.0', 'containerd-1.7.13', 'containerd-1.7.25'].includes(p) ? 'fatal' : 'skipped',
  ]),
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
        expect(refusal.message).toBe(
          preset === 'isulad-2.1.5'
            ? // iSulad's own log lines (src/daemon/nri plugin.cc:241, :91, nri_adaption.cc:187 at v2.1.6).
              `Invalid plugin events: ${extra}; Failed to configure nri plugin <random external name>; Failed to start plugin ready for conn fd <fd>`
            : `failed to start external plugin: invalid plugin events: 0x${extra.toString(16)}`,
        );
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
    if (POD_UPDATE[preset] === 'refused')
      expect(refused?.message).toBe(preset === 'containerd-2.2.0' ? 'not implemented yet' : 'not implemented');
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

  it('a container that exits by itself: exited with its code, and still no StopContainer relayed', async () => {
    const { s, seen } = await dockerWith({ adjust: {} });
    const r = s.runtime;
    await r.createContainer('pod0', { id: 'c0', name: 'once', args: ['sh', '-c', 'exit 3'] });
    await r.startContainer('c0');
    const exited = await waitFor(
      'the container to exit',
      () => r.state.container('c0')?.state === nri.ContainerState.CONTAINER_STOPPED && r.state.container('c0'),
    );
    expect(exited.exitCode).toBe(3);
    expect(seen).toEqual(['CreateContainer', 'ValidateContainerAdjustment']);
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

// Real pre-started plugins from a plugin directory, through the real simulator (runSimulation):
// 10-m4008 subscribes to CreateContainer and event 15, which no NRI knows; 05-m8 and 20-m8
// to CreateContainer only. Raw, as a Go plugin built against a newer NRI: nothing narrows the mask.
// The plugins run on the build (test/support/built.ts): node alone, no compiler.
const rawPlugin = (bundle: string): string => `#!${process.execPath}
const net = require('node:net');
const { nri, PLUGIN_SERVICE, RUNTIME_SERVICE, Mux, PLUGIN_SERVICE_CONN, RUNTIME_SERVICE_CONN, TtrpcClient, TtrpcServer } = require(${JSON.stringify(bundle)});
const events = parseInt(process.env.NRI_PLUGIN_NAME.slice(1), 16);
const socket = new net.Socket({ fd: 3, readable: true, writable: true });
const mux = new Mux(socket);
const server = new TtrpcServer();
server.register(PLUGIN_SERVICE, 'Configure', () => nri.ConfigureResponse.encode({ events }).finish());
server.register(PLUGIN_SERVICE, 'Synchronize', (p) => nri.SynchronizeResponse.encode({ more: nri.SynchronizeRequest.decode(p).more }).finish());
server.register(PLUGIN_SERVICE, 'CreateContainer', () => nri.CreateContainerResponse.encode({ adjust: {} }).finish());
server.serve(mux.open(PLUGIN_SERVICE_CONN));
const client = new TtrpcClient(mux.open(RUNTIME_SERVICE_CONN));
// A refused registration ends the process with the error, as an unhandled rejection does.
void client.call(RUNTIME_SERVICE, 'RegisterPlugin', nri.RegisterPluginRequest.encode({ pluginName: process.env.NRI_PLUGIN_NAME, pluginIdx: process.env.NRI_PLUGIN_IDX }).finish(), { timeoutMs: 10000 });
socket.on('close', () => process.exit(0));
`;

describe('a pre-started plugin that fails to start', () => {
  let tmp: string;
  let pluginDir: string;
  let scenario: string;
  beforeAll(async () => {
    const bundle = await builtBundle();
    tmp = mkdtempSync(path.join(os.tmpdir(), 'prestart-'));
    pluginDir = path.join(tmp, 'plugins');
    mkdirSync(pluginDir);
    for (const name of ['05-m8', '10-m4008', '20-m8']) {
      writeFileSync(path.join(pluginDir, name), rawPlugin(bundle));
      chmodSync(path.join(pluginDir, name), 0o755);
    }
    scenario = path.join(tmp, 'scenario.yaml');
    writeFileSync(
      scenario,
      'pods:\n  - {id: pod0, name: web}\ncontainers: []\nsteps:\n  - create: {pod: pod0, id: c0, name: app}\n',
    );
  });
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it.each(Object.keys(PRE_START_FAILURE).filter((p) => p !== 'newest'))(
    'on %s: stops the runtime where its NRI makes it fatal, else is skipped',
    async (preset) => {
      const records: SimEvent[] = [];
      const run = runSimulation(
        {
          preset,
          pluginDir,
          scenario,
          registrationTimeoutMs: 20_000,
          onRecord: (r) => void (r.type !== 'script-done' && records.push(r)),
        },
        new AbortController().signal,
      );
      const launched = () => ofType(records, 'launched').map((e) => e.plugin);
      if (PRE_START_FAILURE[preset] === 'fatal') {
        const err: unknown = await run.catch((e: unknown) => e);
        expect(err).toBeInstanceOf(RuntimeStartError);
        const { runtimeVersion, nriVersion } = RUNTIME_PRESETS[preset];
        expect((err as RuntimeStartError).message).toBe(
          `containerd ${runtimeVersion} exits at start-up: pre-started plugin 10-m4008 failed to start, which NRI ${nriVersion} makes fatal (from v0.7.0 it is skipped): ` +
            'fix it or keep it out of the plugin directory; ' +
            'it logs level=fatal msg="Failed to run CRI service" error="failed to set up NRI for CRI service: failed to start NRI interface: invalid plugin events: 0x4000"',
        );
        // Go stops at the first failure: the next plugin is never launched, the one started
        // before is stopped, the socket is gone and nothing of the scenario runs.
        expect(launched()).toEqual(['05-m8', '10-m4008']);
        for (const { pid } of ofType(records, 'launched')) expect(() => process.kill(pid ?? 0, 0)).toThrow();
        expect(existsSync(ofType(records, 'listening')[0].socketPath)).toBe(false);
        expect(ofType(records, 'state-changed')).toEqual([]);
      } else {
        const result = await run;
        expect(result.script).toEqual({ steps: 1, failed: 0 });
        expect(launched()).toEqual(['05-m8', '10-m4008', '20-m8']);
        const refusal = ofType(records, 'error').find((e) => e.plugin === '10-m4008');
        expect(refusal?.message).toBe(
          preset === 'isulad-2.1.5'
            ? 'Invalid plugin events: 16384; Failed to configure nri plugin m4008; Failed to start plugin m4008 ready'
            : 'failed to start pre-installed plugin 10-m4008: invalid plugin events: 0x4000',
        );
        const created = ofType(records, 'invoke').filter((e) => e.event === 'CreateContainer');
        expect(created.map((e) => e.plugin)).toEqual(['05-m8', '20-m8']);
      }
    },
    60_000,
  );
});
