// The simulator under --preset isulad-2.1.5 imitates what real iSulad (NRI served by the
// Rust libisula_nri) does where it departs from the Go adaptation, so that a plugin
// author finds these problems before a node does. Each rule against real plugins over a
// real socket: the SDK's Stub, or a hand-written peer for answers the SDK never sends.
import { afterEach, describe, expect, it } from 'vitest';
import { Event, eventBit, identifyRuntime, nri, RUNTIME_SERVICE } from '../../src/api/index.js';
import { RUNTIME_PRESETS } from '../../src/runtime/index.js';
import type { Stub } from '../../src/plugin/index.js';
import { Code, TtrpcError } from '../../src/ttrpc/index.js';
import { connectRawPlugin, ofType, simPerTest, waitFor, waitForPlugin, type RawPlugin, type Sim } from './helpers.js';

const t = simPerTest();
const raws: RawPlugin[] = [];
afterEach(() => {
  for (const r of raws.splice(0)) r.socket.destroy();
});

const ISULAD = RUNTIME_PRESETS['isulad-2.1.5'];
const isuladOptions = {
  runtimeName: ISULAD.runtimeName,
  runtimeVersion: ISULAD.runtimeVersion,
  nriVersion: ISULAD.nriVersion,
  quirks: ISULAD.quirks!,
};
const CREATE_ONLY = eventBit(Event.CREATE_CONTAINER);
const POD: nri.IPodSandbox = { id: 'pod1', name: 'web-0', namespace: 'shop', uid: 'u1' };
const CTR: nri.IContainer = {
  id: 'ctr1',
  name: 'web',
  args: ['/bin/web'],
  env: ['PATH=/bin', 'MODE=slow'],
  annotations: { a: 'b' },
  linux: { resources: { memory: { limit: { value: 256 * 2 ** 20 } } } },
};

/** 10-refuser: answers every CreateContainer with an error. */
function connectRefuser(socketPath: string): Promise<RawPlugin> {
  const refuse = (): never => {
    throw new TtrpcError(Code.Unknown, 'not today');
  };
  return connectRawPlugin(socketPath, 'refuser', '10', { CreateContainer: refuse }, CREATE_ONLY);
}

function isuladSim(): Promise<Sim> {
  return t.start({ pods: [POD], containers: [] }, isuladOptions);
}

async function live(sim: Sim, plugin: Stub): Promise<void> {
  await plugin.start();
  await waitForPlugin(sim, plugin.fullName);
}

describe('nrictl sim --preset isulad-2.1.5', () => {
  it('says what iSulad says in Configure, which nrictl knows as iSulad', async () => {
    await isuladSim();
    let configure: nri.IConfigureRequest | undefined;
    const plugin = t.plugin('looker', '10', {
      configure: (req) => void (configure = req),
      createContainer: () => undefined,
    });
    await plugin.start();
    expect({ name: configure?.runtimeName, version: configure?.runtimeVersion }).toEqual({
      name: 'v2',
      version: '2.0.0-beta.2+unknown',
    });
    expect(identifyRuntime(configure!.runtimeName!, configure!.runtimeVersion!).label).toBe(
      'iSulad (reports v2 2.0.0-beta.2+unknown)',
    );
  });

  it('drops a plugin that answers CreateContainer without adjust, as "this would abort iSulad", and fails the creation', async () => {
    const sim = await isuladSim();
    raws.push(
      await connectRawPlugin(sim.socketPath, 'careless', '10', {
        CreateContainer: () => nri.CreateContainerResponse.encode({}).finish(),
      }),
    );
    await waitForPlugin(sim, '10-careless');
    const created = await sim.runtime.createContainer('pod1', CTR);
    expect(created.ok).toBe(false);
    const error = ofType(sim.events, 'error').find((e) => e.event === 'CreateContainer');
    expect(error).toMatchObject({ plugin: '10-careless' });
    expect(error?.message).toMatch(
      /this would abort iSulad: plugin 10-careless answered CreateContainer without an adjust message/,
    );
    await waitFor('the drop', () => ofType(sim.events, 'dropped').find((e) => e.plugin === '10-careless'));
    expect(sim.runtime.plugins()).toEqual([]);
  });

  it('shuts down a plugin that answers CreateContainer with an error and creates the container without it', async () => {
    const sim = await isuladSim();
    raws.push(
      await connectRefuser(sim.socketPath),
      await connectRawPlugin(
        sim.socketPath,
        'fine',
        '20',
        {
          CreateContainer: () =>
            nri.CreateContainerResponse.encode({ adjust: { annotations: { by: 'fine' } } }).finish(),
        },
        CREATE_ONLY,
      ),
    );
    await waitForPlugin(sim, '20-fine');
    const created = await sim.runtime.createContainer('pod1', CTR);
    expect(created.ok).toBe(true);
    expect(sim.runtime.state.mustContainer('ctr1').annotations).toMatchObject({ by: 'fine' });
    const dropped = await waitFor('the drop', () =>
      ofType(sim.events, 'dropped').find((e) => e.plugin === '10-refuser'),
    );
    // iSulad's own log line (nri_adaption.cc:376 at d2434895), its spelling included; it
    // names an external plugin at random, and its CreateContainer request carries no id.
    expect(dropped.reason).toMatch(
      /^Failed to call create container: <container id> to pliugin: <random external name> \(iSulad shuts down/,
    );
    expect(sim.runtime.plugins().map((p) => p.name)).toEqual(['20-fine']);
  });

  it('shuts down a plugin that answers a pod event with an error, and the pod runs', async () => {
    const sim = await isuladSim();
    raws.push(
      await connectRawPlugin(
        sim.socketPath,
        'grumpy',
        '10',
        {
          StateChange: () => {
            throw new TtrpcError(Code.Unknown, 'no pods today');
          },
        },
        eventBit(Event.RUN_POD_SANDBOX),
      ),
    );
    await waitForPlugin(sim, '10-grumpy');
    await sim.runtime.runPodSandbox({ id: 'pod2', name: 'api', namespace: 'shop' });
    expect(sim.runtime.state.pod('pod2')).toBeDefined();
    expect(ofType(sim.events, 'error')).toEqual([]);
    const dropped = await waitFor('the drop', () =>
      ofType(sim.events, 'dropped').find((e) => e.plugin === '10-grumpy'),
    );
    // nri_adaption.cc:812 at d2434895.
    expect(dropped.reason).toMatch(/^invalid \(unset\) event in state change notification: <random external name> /);
  });

  it('keeps a plugin that answers with an empty adjust message (what nrictl SDK plugins send)', async () => {
    const sim = await isuladSim();
    const quiet = t.plugin('quiet', '10', { createContainer: () => undefined });
    await live(sim, quiet);
    const created = await sim.runtime.createContainer('pod1', CTR);
    expect(created.ok).toBe(true);
    expect(ofType(sim.events, 'dropped')).toEqual([]);
  });

  it('hands CreateContainer only the container name, the pod id and an empty linux; the rest comes later', async () => {
    const sim = await isuladSim();
    const seen: Record<string, nri.IContainer> = {};
    const watcher = t.plugin('watcher', '10', {
      createContainer: (_pod, ctr) => void (seen.create = ctr),
      startContainer: (_pod, ctr) => void (seen.start = ctr),
    });
    await live(sim, watcher);
    await sim.runtime.createContainer('pod1', CTR);
    await sim.runtime.startContainer('ctr1');
    expect(nri.Container.toObject(nri.Container.fromObject(seen.create))).toEqual({
      name: 'web',
      podSandboxId: 'pod1',
      linux: {},
    });
    expect(seen.start).toMatchObject({ id: 'ctr1', args: ['/bin/web'], annotations: { a: 'b' } });
  });

  it('ignores new environment variables from a plugin, says so, and applies a change to an existing one', async () => {
    const sim = await isuladSim();
    const env = t.plugin('env', '10', {
      createContainer: () => ({
        adjust: {
          env: [
            { key: 'MODE', value: 'fast' },
            { key: 'NEW', value: '1' },
          ],
          annotations: { added: 'yes' },
        },
      }),
    });
    await live(sim, env);
    const created = await sim.runtime.createContainer('pod1', CTR);
    expect(created.ok).toBe(true);
    const ctr = sim.runtime.state.mustContainer('ctr1');
    expect(ctr.env).toEqual(['PATH=/bin', 'MODE=fast']);
    expect(ctr.annotations).toMatchObject({ added: 'yes' });
    expect(ofType(sim.events, 'ignored')).toEqual([
      expect.objectContaining({
        container: 'ctr1',
        plugin: '10-env',
        message: 'iSulad ignores the new environment variable NEW: it only changes variables the container already has',
      }),
    ]);
  });

  it('reports a plugin\'s UpdateContainers as "this would crash iSulad", applies nothing and drops the plugin', async () => {
    const sim = await t.start(
      { pods: [POD], containers: [{ ...CTR, podSandboxId: 'pod1', state: nri.ContainerState.CONTAINER_RUNNING }] },
      isuladOptions,
    );
    const raw = await connectRawPlugin(sim.socketPath, 'updater', '10', {});
    raws.push(raw);
    await waitForPlugin(sim, '10-updater');
    const before = sim.runtime.state.mustContainer('ctr1').linux?.resources?.memory?.limit?.value;
    const req = nri.UpdateContainersRequest.encode({
      update: [{ containerId: 'ctr1', linux: { resources: { memory: { limit: { value: 2 ** 30 } } } } }],
    }).finish();
    await expect(raw.client.call(RUNTIME_SERVICE, 'UpdateContainers', req, { timeoutMs: 2000 })).rejects.toThrow();
    const error = ofType(sim.events, 'error').find((e) => e.event === 'UpdateContainers');
    expect(error?.message).toMatch(/^this would crash iSulad: plugin 10-updater sent UpdateContainers \(1 update\)/);
    expect(sim.runtime.state.mustContainer('ctr1').linux?.resources?.memory?.limit?.value).toBe(before);
    await waitFor('the drop', () => ofType(sim.events, 'dropped').find((e) => e.plugin === '10-updater'));
  });
});

describe('a Go runtime of the same vintage, for contrast', () => {
  it('fails the creation when a plugin answers CreateContainer with an error, and keeps the plugin', async () => {
    const go = RUNTIME_PRESETS['containerd-1.7.25'];
    const sim = await t.start({ pods: [POD], containers: [] }, { nriVersion: go.nriVersion });
    raws.push(await connectRefuser(sim.socketPath));
    await waitForPlugin(sim, '10-refuser');
    const created = await sim.runtime.createContainer('pod1', CTR);
    expect(!created.ok && created.error.message).toBe('rpc error: code = Unknown desc = not today');
    expect(sim.runtime.plugins().map((p) => p.name)).toEqual(['10-refuser']);
  });
});

describe('the newest preset, for contrast', () => {
  it('accepts a CreateContainer answer without adjust, as the Go adaptation does', async () => {
    const sim = await t.start({ pods: [POD], containers: [] });
    raws.push(
      await connectRawPlugin(
        sim.socketPath,
        'careless',
        '10',
        { CreateContainer: () => nri.CreateContainerResponse.encode({}).finish() },
        eventBit(Event.CREATE_CONTAINER),
      ),
    );
    await waitForPlugin(sim, '10-careless');
    expect((await sim.runtime.createContainer('pod1', CTR)).ok).toBe(true);
    expect(ofType(sim.events, 'dropped')).toEqual([]);
  });
});
