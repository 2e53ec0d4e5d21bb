// The simulator's CRI answers pass what the kubelet's own CRI client checks in them
// (kubelet-client-checks.ts restates each check and names its source). critest uses that
// client: an answer it refuses fails a spec that a real runtime passes. Each check is
// held on an object the simulator made through CRI and on one a scenario brought.
import { describe, expect, it } from 'vitest';
import { nri } from '../../src/api/index.js';
import { container, criSimPerTest, POD } from './helpers.js';
import {
  checkContainerStatus,
  checkCreateContainer,
  checkImageStatus,
  checkPodSandboxStatus,
  checkPullImage,
  checkRunPodSandbox,
  checkStatus,
  checkVersion,
} from './kubelet-client-checks.js';

const start = criSimPerTest();

/** A pod and a running container the scenario brought (not made through CRI; no image named). */
const SCENARIO = {
  pods: [{ id: 'pod0', name: 'pod0', namespace: 'default', uid: 'uid-pod0' }],
  containers: [{ id: 'ctr0', podSandboxId: 'pod0', name: 'ctr0', state: nri.ContainerState.CONTAINER_RUNNING }],
};

describe('the simulator answers what the kubelet’s CRI client accepts', () => {
  it('Version and Status, for every preset with a CRI', async () => {
    for (const preset of ['containerd-2.3', 'crio-1.32', 'isulad-2.1.5']) {
      const { client } = await start({ preset });
      expect(checkVersion(await client.version())).toBeUndefined();
      expect(checkStatus(await client.status())).toBeUndefined();
    }
  });

  // The old face answered size 0: critest's "failed to get image status: Id or size of image ... is not set".
  it('ImageStatus: an id and a size, the same size each time, by name or by id', async () => {
    const { client } = await start({ images: ['localhost:5000/busybox:latest', 'registry.k8s.io/pause:3.10'] });
    const byName = await client.imageStatus('localhost:5000/busybox:latest');
    expect(checkImageStatus(byName, 'localhost:5000/busybox:latest')).toBeUndefined();
    expect(byName.image?.size).toBeGreaterThan(0);
    const byId = await client.imageStatus(byName.image!.id!);
    expect(byId.image).toMatchObject({ id: byName.image!.id, size: byName.image!.size });
    expect((await client.imageStatus('registry.k8s.io/pause:3.10')).image?.size).not.toBe(byName.image?.size);
    // An image the node lacks: no image at all, which the client takes.
    expect((await client.imageStatus('busybox')).image).toBeNull();
    const any = await start();
    const pulled = await any.client.imageStatus('localhost:5000/busybox:latest');
    expect(checkImageStatus(pulled, 'localhost:5000/busybox:latest')).toBeUndefined();
    expect(pulled.image?.size).toBe(byName.image?.size);
  });

  it('PullImage: an image ref', async () => {
    const { client } = await start();
    expect(checkPullImage(await client.pullImage('localhost:5000/busybox:latest'), 'busybox')).toBeUndefined();
  });

  it('RunPodSandbox and PodSandboxStatus, of a pod made through CRI and of the scenario’s', async () => {
    const { client } = await start({ scenario: SCENARIO });
    const run = await client.runPodSandbox(POD);
    expect(checkRunPodSandbox(run)).toBeUndefined();
    expect(checkPodSandboxStatus(await client.podSandboxStatus(run.podSandboxId))).toBeUndefined();
    expect(checkPodSandboxStatus(await client.podSandboxStatus('pod0'))).toBeUndefined();
  });

  // The old face answered a scenario's container with no image and no image ref.
  it('CreateContainer and ContainerStatus, of a container made through CRI and of the scenario’s', async () => {
    const { client } = await start({ scenario: SCENARIO });
    const { podSandboxId: pod } = await client.runPodSandbox(POD);
    const made = await client.createContainer(pod, container('app'), POD);
    expect(checkCreateContainer(made)).toBeUndefined();
    expect(checkContainerStatus(await client.containerStatus(made.containerId))).toBeUndefined();
    const brought = await client.containerStatus('ctr0');
    expect(checkContainerStatus(brought)).toBeUndefined();
    expect(brought.status?.image?.image).toBe('registry.k8s.io/pause:3.10');
    expect(brought.status?.imageRef).toMatch(/^sha256:[0-9a-f]{64}$/);
    const listed = (await client.listContainers({ id: 'ctr0' })).containers[0];
    expect([listed?.image?.image, listed?.imageRef]).toEqual([brought.status?.image?.image, brought.status?.imageRef]);
  });

  // The kubelet creates a container from the id ImageStatus gave it (kuberuntime_container.go
  // generateContainerConfig: ImageSpec{Image: imageRef, UserSpecifiedImage: container.Image});
  // the old face looked the id up as a name and answered NotFound.
  it('a container made from the image’s id, as the kubelet makes it, shows the image’s name and id', async () => {
    const { client } = await start({ images: ['localhost:5000/busybox:latest'] });
    const id = (await client.imageStatus('localhost:5000/busybox:latest')).image!.id!;
    const { podSandboxId: pod } = await client.runPodSandbox(POD);
    const { containerId } = await client.createContainer(
      pod,
      container('app', { image: { image: id, userSpecifiedImage: 'localhost:5000/busybox:latest' } }),
      POD,
    );
    const s = (await client.containerStatus(containerId)).status;
    expect([s?.image?.image, s?.imageRef]).toEqual(['localhost:5000/busybox:latest', id]);
    // An id of no image the node has is not found.
    await expect(
      client.createContainer(pod, container('other', { image: { image: `sha256:${'0'.repeat(64)}` } }), POD),
    ).rejects.toMatchObject({ code: 'not-found' });
  });
});
