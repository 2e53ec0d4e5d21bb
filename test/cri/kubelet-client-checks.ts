// What the kubelet's own CRI client (k8s.io/cri-client, which critest uses) refuses in a
// runtime's answers, restated so that tests can hold the simulator's CRI face to it. Each
// check names where it comes from: cri-client as vendored by cri-tools (HEAD ba03eabc,
// vendor/k8s.io/cri-client/pkg/). A check returns the client's words, or undefined when the
// answer passes. ListImages, ListContainers and ListPodSandbox answers are not checked by it.
import type { cri } from '../../src/cri/index.js';

const num = (v: number | { toNumber(): number } | null | undefined): number =>
  typeof v === 'number' ? v : (v?.toNumber() ?? 0);

/** remote_runtime.go versionV1: every one of the four fields set. */
export function checkVersion(r: cri.IVersionResponse): string | undefined {
  const missing = (
    [
      ['Version', r.version],
      ['RuntimeName', r.runtimeName],
      ['RuntimeApiVersion', r.runtimeApiVersion],
      ['RuntimeVersion', r.runtimeVersion],
    ] as const
  )
    .filter(([, v]) => !v)
    .map(([k]) => k);
  return missing.length ? `not all fields are set in VersionResponse (missing ${missing.join(', ')})` : undefined;
}

/** remote_runtime.go statusV1: a status with at least two conditions. */
export function checkStatus(r: cri.IStatusResponse): string | undefined {
  return !r.status || (r.status.conditions?.length ?? 0) < 2
    ? 'RuntimeReady or NetworkReady condition are not set'
    : undefined;
}

/** remote_runtime.go RunPodSandbox: an id. */
export function checkRunPodSandbox(r: cri.IRunPodSandboxResponse): string | undefined {
  return r.podSandboxId ? undefined : 'PodSandboxId is not set for sandbox';
}

/** remote_runtime.go createContainerV1: an id. */
export function checkCreateContainer(r: cri.ICreateContainerResponse): string | undefined {
  return r.containerId ? undefined : 'ContainerId is not set for container';
}

/** utils.go verifySandboxStatus (podSandboxStatusV1, when a status is there). */
export function checkPodSandboxStatus(r: cri.IPodSandboxStatusResponse): string | undefined {
  const s = r.status;
  if (!s) return undefined;
  if (!s.id) return 'status.Id is not set';
  if (!s.metadata) return 'status.Metadata is not set';
  if (!s.metadata.name || !s.metadata.namespace || !s.metadata.uid)
    return 'metadata.Name, metadata.Namespace or metadata.Uid is not in metadata';
  if (!num(s.createdAt)) return 'status.CreatedAt is not set';
  return undefined;
}

/** utils.go verifyContainerStatus (containerStatusV1, when a status is there). */
export function checkContainerStatus(r: cri.IContainerStatusResponse): string | undefined {
  const s = r.status;
  if (!s) return undefined;
  if (!s.id) return 'status.Id is not set';
  if (!s.metadata) return 'status.Metadata is not set';
  if (!s.metadata.name) return 'metadata.Name is not in metadata';
  if (!num(s.createdAt)) return 'status.CreatedAt is not set';
  if (!s.image?.image) return 'status.Image is not set';
  if (!s.imageRef) return 'status.ImageRef is not set';
  return undefined;
}

/** remote_image.go imageStatusV1: an image, when there is one, has an id and a size. */
export function checkImageStatus(r: cri.IImageStatusResponse, asked: string): string | undefined {
  const i = r.image;
  return i && (!i.id || !num(i.size)) ? `Id or size of image "${asked}" is not set` : undefined;
}

/** remote_image.go pullImageV1: an image ref. */
export function checkPullImage(r: cri.IPullImageResponse, asked: string): string | undefined {
  return r.imageRef ? undefined : `imageRef of image "${asked}" is not set`;
}
