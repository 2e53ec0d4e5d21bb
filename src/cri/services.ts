// The calls of the CRI subset: for each, its service, its gRPC path and the message
// classes of its request and answer. The client and the simulator's server both work
// from this one table, so a call's name, path and types cannot differ between them.
import { cri } from './schema.js';

export const RUNTIME_SERVICE = 'runtime.v1.RuntimeService';
const IMAGE_SERVICE = 'runtime.v1.ImageService';

/** What a generated message class offers (protobufjs static code, without conversions). */
export interface MessageClass<I, O> {
  encode(message: I): { finish(): Uint8Array };
  decode(bytes: Uint8Array): O;
}

/**
 * I: the request as a caller may give it; D: the request decoded; A: the answer as a
 * server may give it; O: the answer decoded.
 */
export interface CriCallSpec<I, D, A, O> {
  service: typeof RUNTIME_SERVICE | typeof IMAGE_SERVICE;
  name: string;
  /** The HTTP/2 path gRPC calls it by: /runtime.v1.RuntimeService/Version. */
  path: string;
  request: MessageClass<I, D>;
  response: MessageClass<A, O>;
}

function call<I, D, A, O>(
  service: CriCallSpec<I, D, A, O>['service'],
  name: string,
  request: MessageClass<I, D>,
  response: MessageClass<A, O>,
): CriCallSpec<I, D, A, O> {
  return { service, name, path: `/${service}/${name}`, request, response };
}

const R = RUNTIME_SERVICE;
const I = IMAGE_SERVICE;

export const CRI_CALLS = {
  Version: call(R, 'Version', cri.VersionRequest, cri.VersionResponse),
  RunPodSandbox: call(R, 'RunPodSandbox', cri.RunPodSandboxRequest, cri.RunPodSandboxResponse),
  StopPodSandbox: call(R, 'StopPodSandbox', cri.StopPodSandboxRequest, cri.StopPodSandboxResponse),
  RemovePodSandbox: call(R, 'RemovePodSandbox', cri.RemovePodSandboxRequest, cri.RemovePodSandboxResponse),
  PodSandboxStatus: call(R, 'PodSandboxStatus', cri.PodSandboxStatusRequest, cri.PodSandboxStatusResponse),
  ListPodSandbox: call(R, 'ListPodSandbox', cri.ListPodSandboxRequest, cri.ListPodSandboxResponse),
  CreateContainer: call(R, 'CreateContainer', cri.CreateContainerRequest, cri.CreateContainerResponse),
  StartContainer: call(R, 'StartContainer', cri.StartContainerRequest, cri.StartContainerResponse),
  StopContainer: call(R, 'StopContainer', cri.StopContainerRequest, cri.StopContainerResponse),
  RemoveContainer: call(R, 'RemoveContainer', cri.RemoveContainerRequest, cri.RemoveContainerResponse),
  ListContainers: call(R, 'ListContainers', cri.ListContainersRequest, cri.ListContainersResponse),
  ContainerStatus: call(R, 'ContainerStatus', cri.ContainerStatusRequest, cri.ContainerStatusResponse),
  UpdateContainerResources: call(
    R,
    'UpdateContainerResources',
    cri.UpdateContainerResourcesRequest,
    cri.UpdateContainerResourcesResponse,
  ),
  Status: call(R, 'Status', cri.StatusRequest, cri.StatusResponse),
  RuntimeConfig: call(R, 'RuntimeConfig', cri.RuntimeConfigRequest, cri.RuntimeConfigResponse),
  UpdatePodSandboxResources: call(
    R,
    'UpdatePodSandboxResources',
    cri.UpdatePodSandboxResourcesRequest,
    cri.UpdatePodSandboxResourcesResponse,
  ),
  ListImages: call(I, 'ListImages', cri.ListImagesRequest, cri.ListImagesResponse),
  ImageStatus: call(I, 'ImageStatus', cri.ImageStatusRequest, cri.ImageStatusResponse),
  PullImage: call(I, 'PullImage', cri.PullImageRequest, cri.PullImageResponse),
  ImageFsInfo: call(I, 'ImageFsInfo', cri.ImageFsInfoRequest, cri.ImageFsInfoResponse),
};

export type CriCallName = keyof typeof CRI_CALLS;
/** The request a call takes (plain objects of the message's interface are fine). */
export type CriRequest<N extends CriCallName> =
  (typeof CRI_CALLS)[N] extends CriCallSpec<infer I, unknown, unknown, unknown> ? I : never;
/** The request as a server receives it: decoded, defaults filled in. */
export type CriReceived<N extends CriCallName> =
  (typeof CRI_CALLS)[N] extends CriCallSpec<unknown, infer D, unknown, unknown> ? D : never;
/** The answer a server gives (plain objects of the message's interface). */
export type CriAnswer<N extends CriCallName> =
  (typeof CRI_CALLS)[N] extends CriCallSpec<unknown, unknown, infer A, unknown> ? A : never;
/** The answer a call gives: a decoded message, defaults filled in. */
export type CriResponse<N extends CriCallName> =
  (typeof CRI_CALLS)[N] extends CriCallSpec<unknown, unknown, unknown, infer O> ? O : never;
