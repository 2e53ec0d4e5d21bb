// The simulator's CRI face: each CRI call is the lifecycle step a scenario drives, so a
// real plugin (the SDK's Stub on the simulator's NRI socket) sees the events the call
// caused and its adjustments show in ContainerStatus; reads answer while a hook is held
// and do not show what is not made yet; presets keep their runtime's CRI behaviour.
import { afterEach, describe, expect, it } from 'vitest';
import { CriContainerState, CriPodState, type CriError } from '../../src/cri/index.js';
import { Stub, type PluginHandlers } from '../../src/plugin/index.js';
import { container, criSimPerTest, POD } from '../cri/helpers.js';
import { waitFor, waitForPlugin, type Sim } from './helpers.js';

const start = criSimPerTest();
const stubs: Stub[] = [];
afterEach(async () => {
  for (const s of stubs.splice(0)) await s.stop().catch(() => undefined);
});

async function plugin(sim: Sim, name: string, index: string, handlers: PluginHandlers): Promise<Stub> {
  const s = new Stub(handlers, { name, index, socketPath: sim.socketPath });
  stubs.push(s);
  await s.start();
  await waitForPlugin(sim, `${index}-${name}`);
  return s;
}

/** A hook that holds until released, and tells when it was reached. */
function gate() {
  let release!: () => void;
  let reached!: (id: string) => void;
  const held = new Promise<void>((r) => (release = r));
  const at = new Promise<string>((r) => (reached = r));
  return { release, at, hold: (id: string) => (reached(id), held) };
}

describe('a real plugin on the NRI socket sees what CRI calls do', () => {
  it('every event of a pod’s whole life, in order, and its adjustments in ContainerStatus', async () => {
    const { sim, client } = await start();
    const seen: string[] = [];
    const note = (what: string) => () => void seen.push(what);
    await plugin(sim, 'adjuster', '10', {
      runPodSandbox: (pod) => void seen.push(`RunPodSandbox ${pod.name}/${pod.namespace}/${pod.uid}`),
      createContainer: (_pod, ctr) => {
        seen.push(`CreateContainer ${ctr.name} ${ctr.args?.join(' ')}`);
        return {
          adjust: {
            env: [{ key: 'ADJUSTED', value: 'yes' }],
            annotations: { 'adjusted.example.com/by': 'adjuster' },
            mounts: [{ destination: '/data', source: '/srv/data', type: 'bind', options: ['rbind', 'ro'] }],
            linux: { resources: { cpu: { cpus: '0-1' }, memory: { limit: { value: 134217728 } } } },
          },
        };
      },
      postCreateContainer: note('PostCreateContainer'),
      startContainer: note('StartContainer'),
      postStartContainer: note('PostStartContainer'),
      updateContainer: (_pod, ctr, res) => {
        seen.push(`UpdateContainer shares=${res?.cpu?.shares?.value}`);
        // The plugin amends the update: its cpuset wins over the request's.
        return [{ containerId: ctr.id, linux: { resources: { cpu: { cpus: '2-3' } } } }];
      },
      postUpdateContainer: note('PostUpdateContainer'),
      stopContainer: note('StopContainer'),
      removeContainer: note('RemoveContainer'),
      stopPodSandbox: note('StopPodSandbox'),
      removePodSandbox: note('RemovePodSandbox'),
    });

    const { podSandboxId: pod } = await client.runPodSandbox(POD);
    const cfg = container('app', {
      envs: [{ key: 'GIVEN', value: Buffer.from('1') }],
      linux: { resources: { cpuShares: 512, memoryLimitInBytes: 268435456 } },
    });
    const { containerId: ctr } = await client.createContainer(pod, cfg, POD);
    await client.startContainer(ctr);

    const { status, info } = await client.containerStatus(ctr, true);
    expect(status?.resources?.linux).toMatchObject({
      cpusetCpus: '0-1',
      memoryLimitInBytes: 134217728,
      cpuShares: 512,
    });
    // As containerd reports them: annotations and mounts as CRI asked; the spec as adjusted.
    expect(status?.annotations).toEqual({});
    const spec = JSON.parse(info.info).runtimeSpec;
    expect(spec.process.env).toEqual(['GIVEN=1', 'ADJUSTED=yes']);
    expect(spec.annotations).toEqual({ 'adjusted.example.com/by': 'adjuster' });
    expect(spec.mounts).toContainEqual({
      destination: '/data',
      type: 'bind',
      source: '/srv/data',
      options: ['rbind', 'ro'],
    });
    expect(spec.linux.resources).toMatchObject({ cpu: { cpus: '0-1', shares: 512 }, memory: { limit: 134217728 } });

    await client.updateContainerResources(ctr, { cpuShares: 1024, cpusetCpus: '4-5' });
    expect((await client.containerStatus(ctr)).status?.resources?.linux).toMatchObject({
      cpuShares: 1024,
      cpusetCpus: '2-3',
    });
    await client.stopPodSandbox(pod); // stops the running container first, as containerd does
    await client.removePodSandbox(pod); // and removes it
    await waitFor('the last event', () => seen.includes('RemovePodSandbox'));
    expect(seen).toEqual([
      'RunPodSandbox web/shop/uid-web',
      'CreateContainer app sh -c top',
      'PostCreateContainer',
      'StartContainer',
      'PostStartContainer',
      'UpdateContainer shares=1024',
      'PostUpdateContainer',
      'StopContainer',
      'StopPodSandbox',
      'RemoveContainer',
      'RemovePodSandbox',
    ]);
  });

  it('a plugin’s error fails the CRI call; the pod it refused leaves nothing behind and can be retried', async () => {
    const { sim, client } = await start();
    let refuse = true;
    await plugin(sim, 'refuser', '10', {
      runPodSandbox: () => {
        if (refuse) throw new Error('no pods today');
      },
    });
    const err = (await client.runPodSandbox(POD).catch((e: unknown) => e)) as CriError;
    expect(err).toMatchObject({ code: 'refused', kind: 'refused' });
    expect(err.details.grpcMessage).toContain('NRI RunPodSandbox failed:');
    expect(err.details.grpcMessage).toContain('no pods today');
    expect((await client.listPodSandbox()).items).toEqual([]);
    refuse = false;
    const { podSandboxId } = await client.runPodSandbox(POD); // the same name: released
    expect((await client.podSandboxStatus(podSandboxId)).status?.state).toBe(CriPodState.READY);
  });
});

describe('reads do not wait for a held hook, and do not see what is not made yet', () => {
  it('RunPodSandbox held: the pod is not listed, has no status, takes no container; then it is ready', async () => {
    const { sim, client } = await start({ requestTimeoutMs: 5000 });
    const g = gate();
    await plugin(sim, 'hold', '10', { runPodSandbox: (pod) => g.hold(pod.id ?? '') });
    const run = client.runPodSandbox(POD);
    const id = await g.at;
    expect((await client.listPodSandbox()).items).toEqual([]);
    await expect(client.podSandboxStatus(id)).rejects.toMatchObject({ code: 'not-found' });
    await expect(client.createContainer(id, container('app'), POD)).rejects.toMatchObject({ code: 'not-found' });
    expect((await client.version()).runtimeApiVersion).toBe('v1');
    g.release();
    expect((await run).podSandboxId).toBe(id);
    expect((await client.podSandboxStatus(id)).status?.state).toBe(CriPodState.READY);
  });

  it('CreateContainer held: the container is not listed and has no status; then it is created', async () => {
    const { sim, client } = await start({ requestTimeoutMs: 5000 });
    const { podSandboxId: pod } = await client.runPodSandbox(POD);
    const g = gate();
    await plugin(sim, 'hold', '10', { createContainer: (_p, ctr) => g.hold(ctr.id ?? '').then(() => ({})) });
    const create = client.createContainer(pod, container('app'), POD);
    const id = await g.at;
    expect((await client.listContainers({ podSandboxId: pod })).containers).toEqual([]);
    await expect(client.containerStatus(id)).rejects.toMatchObject({ code: 'not-found' });
    g.release();
    expect((await create).containerId).toBe(id);
    expect((await client.containerStatus(id)).status?.state).toBe(CriContainerState.CREATED);
  });

  it('StopPodSandbox held: its containers are already exited and the pod still has a status', async () => {
    const { sim, client } = await start({ requestTimeoutMs: 5000 });
    const { podSandboxId: pod } = await client.runPodSandbox(POD);
    const { containerId } = await client.createContainer(pod, container('app'), POD);
    await client.startContainer(containerId);
    const g = gate();
    await plugin(sim, 'hold', '10', { stopPodSandbox: (p) => g.hold(p.id ?? '') });
    const stop = client.stopPodSandbox(pod);
    await g.at;
    const ctrs = (await client.listContainers({ podSandboxId: pod })).containers;
    expect(ctrs.map((c) => c.state)).toEqual([CriContainerState.EXITED]);
    expect((await client.podSandboxStatus(pod)).status?.id).toBe(pod);
    g.release();
    await stop;
    expect((await client.podSandboxStatus(pod)).status?.state).toBe(CriPodState.NOTREADY);
    // Stopping again tells the plugins nothing more; the stopped pod takes no new container.
    await client.stopPodSandbox(pod);
    await expect(client.createContainer(pod, container('late'), POD)).rejects.toMatchObject({
      code: 'refused',
      details: { grpcCode: 9 },
    });
  });
});

describe('each preset keeps its runtime’s CRI behaviour', () => {
  const podUpdate = { resources: { cpuShares: 256 } };

  it.each([
    ['containerd-2.1', 'unimplemented', 12, /unknown method|does not implement/],
    ['containerd-2.2.0', 'refused', 2, /not implemented yet/],
    ['containerd-2.2.1', 'unimplemented', 12, /: not implemented\)$/],
    ['crio-1.32', 'unimplemented', 12, /does not implement/],
  ])('%s: UpdatePodSandboxResources is %s', async (preset, code, grpcCode, text) => {
    const { client } = await start({ preset });
    const { podSandboxId } = await client.runPodSandbox(POD);
    const err = (await client.updatePodSandboxResources(podSandboxId, podUpdate).catch((e: unknown) => e)) as CriError;
    expect(err).toMatchObject({ code, details: { grpcCode } });
    expect(err.message).toMatch(text);
  });

  it('containerd-2.3 relays a pod update to the plugins, then PostUpdatePodSandbox', async () => {
    const { sim, client } = await start({ preset: 'containerd-2.3' });
    const seen: string[] = [];
    await plugin(sim, 'watch', '10', {
      updatePodSandbox: (_pod, _overhead, res) => void seen.push(`UpdatePodSandbox ${res?.cpu?.shares?.value}`),
      postUpdatePodSandbox: () => void seen.push('PostUpdatePodSandbox'),
    });
    const { podSandboxId } = await client.runPodSandbox(POD);
    await client.updatePodSandboxResources(podSandboxId, podUpdate);
    await waitFor('the post event', () => seen.length === 2);
    expect(seen).toEqual(['UpdatePodSandbox 256', 'PostUpdatePodSandbox']);
  });

  it('CRI-O: plugins see no container name without the kubelet label; CRI still shows it; a repeated pod is the same pod', async () => {
    const { sim, client } = await start({ preset: 'crio-1.36' });
    const names: string[] = [];
    await plugin(sim, 'watch', '10', { createContainer: (_p, ctr) => void names.push(ctr.name ?? '') });
    const { podSandboxId: pod } = await client.runPodSandbox(POD);
    expect((await client.runPodSandbox(POD)).podSandboxId).toBe(pod);
    const { containerId } = await client.createContainer(pod, container('app', { labels: {} }), POD);
    await client.createContainer(pod, container('side'), POD);
    expect(names).toEqual(['', 'side']);
    expect((await client.containerStatus(containerId)).status?.metadata?.name).toBe('app');
  });

  it('containerd: a repeated pod is refused, its name reserved', async () => {
    const { client } = await start({ preset: 'containerd-2.3' });
    const { podSandboxId } = await client.runPodSandbox(POD);
    const err = (await client.runPodSandbox(POD).catch((e: unknown) => e)) as CriError;
    expect(err.details.grpcMessage).toBe(
      `failed to reserve sandbox name "web_shop_uid-web_1": name "web_shop_uid-web_1" is reserved for "${podSandboxId}"`,
    );
  });
});
