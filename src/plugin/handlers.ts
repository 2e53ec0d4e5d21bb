// What a plugin author supplies, and the event subscription those handlers imply.
import { Event, eventBit, nri } from '../api/index.js';

type Result<T> = Promise<T> | T;

export interface ConfigureResult {
  /** Narrow the subscription (0 or absent: keep it). Bits for events without a handler are dropped. */
  events?: number;
}

export interface CreateContainerResult {
  adjust?: nri.IContainerAdjustment | null;
  update?: nri.IContainerUpdate[];
  evict?: nri.IContainerEviction[];
}

export interface ValidationResult {
  reject?: boolean;
  reason?: string;
}

/**
 * Every handler is optional; the subscription is derived from which event handlers
 * exist. A handler that throws fails that request (ValidateContainerAdjustment: the
 * adjustment is rejected with the error's message).
 */
export interface PluginHandlers {
  configure?(req: nri.IConfigureRequest): Result<ConfigureResult | void>;
  /** Called once with the whole state, however many Synchronize messages carried it. */
  synchronize?(pods: nri.IPodSandbox[], containers: nri.IContainer[]): Result<nri.IContainerUpdate[] | void>;
  /**
   * Instead of synchronize: the encoded SynchronizeRequest messages as they arrived,
   * handed on only after the runtime has its answer (no updates). For a plugin that
   * must not keep the runtime waiting while it decodes a large node's state; see
   * synchronizeEntries in src/api to decode it piece by piece.
   */
  synchronizeRaw?(payloads: Buffer[]): void;

  runPodSandbox?(pod: nri.IPodSandbox): Result<void>;
  updatePodSandbox?(
    pod: nri.IPodSandbox,
    overhead: nri.ILinuxResources | null | undefined,
    resources: nri.ILinuxResources | null | undefined,
  ): Result<void>;
  postUpdatePodSandbox?(pod: nri.IPodSandbox): Result<void>;
  stopPodSandbox?(pod: nri.IPodSandbox): Result<void>;
  removePodSandbox?(pod: nri.IPodSandbox): Result<void>;

  createContainer?(pod: nri.IPodSandbox, ctr: nri.IContainer): Result<CreateContainerResult | void>;
  postCreateContainer?(pod: nri.IPodSandbox, ctr: nri.IContainer): Result<void>;
  startContainer?(pod: nri.IPodSandbox, ctr: nri.IContainer): Result<void>;
  postStartContainer?(pod: nri.IPodSandbox, ctr: nri.IContainer): Result<void>;
  updateContainer?(
    pod: nri.IPodSandbox,
    ctr: nri.IContainer,
    resources: nri.ILinuxResources | null | undefined,
  ): Result<nri.IContainerUpdate[] | void>;
  postUpdateContainer?(pod: nri.IPodSandbox, ctr: nri.IContainer): Result<void>;
  stopContainer?(pod: nri.IPodSandbox, ctr: nri.IContainer): Result<nri.IContainerUpdate[] | void>;
  removeContainer?(pod: nri.IPodSandbox, ctr: nri.IContainer): Result<void>;

  /** Throw (or return { reject: true, reason }) to make the runtime refuse the adjustment. */
  validateContainerAdjustment?(req: nri.IValidateContainerAdjustmentRequest): Result<ValidationResult | void>;

  shutdown?(): Result<void>;
  /** The connection is gone; err is set unless stop() closed it or the runtime shut us down first. */
  onClose?(err?: Error): void;
}

/** Which handler serves which event. */
export const EVENT_HANDLER_NAMES: ReadonlyArray<readonly [keyof PluginHandlers, Event]> = [
  ['runPodSandbox', Event.RUN_POD_SANDBOX],
  ['stopPodSandbox', Event.STOP_POD_SANDBOX],
  ['removePodSandbox', Event.REMOVE_POD_SANDBOX],
  ['createContainer', Event.CREATE_CONTAINER],
  ['postCreateContainer', Event.POST_CREATE_CONTAINER],
  ['startContainer', Event.START_CONTAINER],
  ['postStartContainer', Event.POST_START_CONTAINER],
  ['updateContainer', Event.UPDATE_CONTAINER],
  ['postUpdateContainer', Event.POST_UPDATE_CONTAINER],
  ['stopContainer', Event.STOP_CONTAINER],
  ['removeContainer', Event.REMOVE_CONTAINER],
  ['updatePodSandbox', Event.UPDATE_POD_SANDBOX],
  ['postUpdatePodSandbox', Event.POST_UPDATE_POD_SANDBOX],
  ['validateContainerAdjustment', Event.VALIDATE_CONTAINER_ADJUSTMENT],
];

/** The mask of the events the given handlers can serve. */
export function handledEventsMask(handlers: PluginHandlers): number {
  let mask = 0;
  for (const [name, event] of EVENT_HANDLER_NAMES) {
    if (typeof handlers[name] === 'function') mask |= eventBit(event);
  }
  return mask;
}

export interface SubscriptionInput {
  /** StubOptions.events, else the handled mask: what the plugin offers to take. */
  base: number;
  /** What the configure handler asked for; 0 or undefined keeps the base. */
  requested?: number | undefined;
  /** runtimeVintage(req).knownEventsMask: never subscribe beyond it. */
  knownEventsMask: number;
}

/**
 * The ConfigureResponse mask. The configure handler may only narrow the base, and
 * nothing leaves that the runtime cannot know (containerd 1.7 and iSulad drop a plugin
 * that asks for more than 0x7ff). 0 comes back when nothing is left: the caller must not
 * send that, since the runtime reads 0 as "every event".
 */
export function subscriptionMask({ base, requested, knownEventsMask }: SubscriptionInput): number {
  const wanted = requested ? requested & base : base;
  return (wanted & knownEventsMask) >>> 0;
}
