// ttrpc service and method names, and which NRI message travels each way.
import { nri } from './schema.js';

export const RUNTIME_SERVICE = 'nri.pkg.api.v1alpha1.Runtime';
export const PLUGIN_SERVICE = 'nri.pkg.api.v1alpha1.Plugin';

export const RuntimeMethod = {
  RegisterPlugin: 'RegisterPlugin',
  UpdateContainers: 'UpdateContainers',
} as const;
export type RuntimeMethod = (typeof RuntimeMethod)[keyof typeof RuntimeMethod];

export const PluginMethod = {
  Configure: 'Configure',
  Synchronize: 'Synchronize',
  Shutdown: 'Shutdown',
  RunPodSandbox: 'RunPodSandbox',
  UpdatePodSandbox: 'UpdatePodSandbox',
  PostUpdatePodSandbox: 'PostUpdatePodSandbox',
  StopPodSandbox: 'StopPodSandbox',
  RemovePodSandbox: 'RemovePodSandbox',
  CreateContainer: 'CreateContainer',
  PostCreateContainer: 'PostCreateContainer',
  StartContainer: 'StartContainer',
  PostStartContainer: 'PostStartContainer',
  UpdateContainer: 'UpdateContainer',
  PostUpdateContainer: 'PostUpdateContainer',
  StopContainer: 'StopContainer',
  RemoveContainer: 'RemoveContainer',
  StateChange: 'StateChange',
  ValidateContainerAdjustment: 'ValidateContainerAdjustment',
} as const;
export type PluginMethod = (typeof PluginMethod)[keyof typeof PluginMethod];

/** What every generated message class offers; enough to encode and decode generically. */
export interface MessageClass<T = unknown> {
  encode(message: T, writer?: unknown): { finish(): Uint8Array };
  decode(reader: Uint8Array): T;
  toObject(
    message: T,
    options?: {
      longs?: unknown;
      enums?: unknown;
      bytes?: unknown;
      defaults?: boolean;
      arrays?: boolean;
      objects?: boolean;
    },
  ): Record<string, unknown>;
  fromObject(object: Record<string, unknown>): T;
}

export interface MethodTypes {
  service: typeof RUNTIME_SERVICE | typeof PLUGIN_SERVICE;
  method: string;
  request: MessageClass;
  response: MessageClass;
}

const entry = (service: MethodTypes['service'], method: string, request: unknown, response: unknown): MethodTypes => ({
  service,
  method,
  request: request as MessageClass,
  response: response as MessageClass,
});

/** Keyed by "service/method" (the form ttrpc logs use), e.g. "nri.pkg.api.v1alpha1.Plugin/Configure". */
export const METHODS: ReadonlyMap<string, MethodTypes> = new Map(
  [
    entry(RUNTIME_SERVICE, 'RegisterPlugin', nri.RegisterPluginRequest, nri.Empty),
    entry(RUNTIME_SERVICE, 'UpdateContainers', nri.UpdateContainersRequest, nri.UpdateContainersResponse),
    entry(PLUGIN_SERVICE, 'Configure', nri.ConfigureRequest, nri.ConfigureResponse),
    entry(PLUGIN_SERVICE, 'Synchronize', nri.SynchronizeRequest, nri.SynchronizeResponse),
    entry(PLUGIN_SERVICE, 'Shutdown', nri.Empty, nri.Empty),
    entry(PLUGIN_SERVICE, 'RunPodSandbox', nri.RunPodSandboxRequest, nri.RunPodSandboxResponse),
    entry(PLUGIN_SERVICE, 'UpdatePodSandbox', nri.UpdatePodSandboxRequest, nri.UpdatePodSandboxResponse),
    entry(PLUGIN_SERVICE, 'PostUpdatePodSandbox', nri.PostUpdatePodSandboxRequest, nri.PostUpdatePodSandboxResponse),
    entry(PLUGIN_SERVICE, 'StopPodSandbox', nri.StopPodSandboxRequest, nri.StopPodSandboxResponse),
    entry(PLUGIN_SERVICE, 'RemovePodSandbox', nri.RemovePodSandboxRequest, nri.RemovePodSandboxResponse),
    entry(PLUGIN_SERVICE, 'CreateContainer', nri.CreateContainerRequest, nri.CreateContainerResponse),
    entry(PLUGIN_SERVICE, 'PostCreateContainer', nri.PostCreateContainerRequest, nri.PostCreateContainerResponse),
    entry(PLUGIN_SERVICE, 'StartContainer', nri.StartContainerRequest, nri.StartContainerResponse),
    entry(PLUGIN_SERVICE, 'PostStartContainer', nri.PostStartContainerRequest, nri.PostStartContainerResponse),
    entry(PLUGIN_SERVICE, 'UpdateContainer', nri.UpdateContainerRequest, nri.UpdateContainerResponse),
    entry(PLUGIN_SERVICE, 'PostUpdateContainer', nri.PostUpdateContainerRequest, nri.PostUpdateContainerResponse),
    entry(PLUGIN_SERVICE, 'StopContainer', nri.StopContainerRequest, nri.StopContainerResponse),
    entry(PLUGIN_SERVICE, 'RemoveContainer', nri.RemoveContainerRequest, nri.RemoveContainerResponse),
    entry(PLUGIN_SERVICE, 'StateChange', nri.StateChangeEvent, nri.Empty),
    entry(
      PLUGIN_SERVICE,
      'ValidateContainerAdjustment',
      nri.ValidateContainerAdjustmentRequest,
      nri.ValidateContainerAdjustmentResponse,
    ),
  ].map((m) => [`${m.service}/${m.method}`, m] as const),
);

export function methodTypes(service: string, method: string): MethodTypes | undefined {
  return METHODS.get(`${service}/${method}`);
}
