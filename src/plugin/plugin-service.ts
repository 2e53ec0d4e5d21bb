// The Plugin service on a TtrpcServer: decode the request, run the handler, encode the
// answer. Every method the schema defines is served, so a runtime only ever gets
// Unimplemented for a method newer than this schema (it then falls back to StateChange).
import { Event, METHODS, PLUGIN_SERVICE, PluginMethod, nri } from '../api/index.js';
import { Code, TtrpcError, type Handler, type HandlerContext, type TtrpcServer } from '../ttrpc/index.js';
import type { PluginHandlers } from './handlers.js';

type Answer = object | void | undefined;
/** One method's implementation, on the decoded request. */
export type MethodImpl = (req: never, ctx: HandlerContext) => Promise<Answer> | Answer;
export type PluginServiceImpl = { [M in PluginMethod]: MethodImpl };

/**
 * Registers every Plugin service method; `pluginName` ("10-logger") goes into error
 * messages. Methods in `raw` are served as given, on the undecoded payload.
 */
export function registerPluginService(server: TtrpcServer, impl: PluginServiceImpl, pluginName: string, raw: Partial<Record<PluginMethod, Handler>> = {}): void {
  for (const method of Object.values(PluginMethod)) {
    const direct = raw[method];
    if (direct) {
      server.register(PLUGIN_SERVICE, method, direct);
      continue;
    }
    const types = METHODS.get(`${PLUGIN_SERVICE}/${method}`);
    if (!types) throw new Error(`schema has no ${PLUGIN_SERVICE}/${method}`);
    const run = impl[method] as (req: unknown, ctx: HandlerContext) => Promise<Answer> | Answer;
    server.register(PLUGIN_SERVICE, method, async (payload, ctx) => {
      let req: unknown;
      try {
        req = types.request.decode(payload);
      } catch (err) {
        throw new TtrpcError(Code.InvalidArgument, `plugin ${pluginName}: undecodable ${method} request: ${(err as Error).message}`, {
          service: PLUGIN_SERVICE,
          method,
          cause: err,
        });
      }
      try {
        const answer = await untilAborted(Promise.resolve(run(req, ctx)), ctx);
        return types.response.encode(answer ?? {}).finish();
      } catch (err) {
        throw asStatus(err, pluginName, method);
      }
    });
  }
}

/** The event methods, dispatched to the author's handlers; unhandled events get an empty answer. */
export function eventMethods(h: PluginHandlers): Omit<PluginServiceImpl, 'Configure' | 'Synchronize' | 'Shutdown'> {
  return {
    RunPodSandbox: async (r: nri.RunPodSandboxRequest) => void (await h.runPodSandbox?.(pod(r.pod))),
    UpdatePodSandbox: async (r: nri.UpdatePodSandboxRequest) =>
      void (await h.updatePodSandbox?.(pod(r.pod), r.overheadLinuxResources, r.linuxResources)),
    PostUpdatePodSandbox: async (r: nri.PostUpdatePodSandboxRequest) => void (await h.postUpdatePodSandbox?.(pod(r.pod))),
    StopPodSandbox: async (r: nri.StopPodSandboxRequest) => void (await h.stopPodSandbox?.(pod(r.pod))),
    RemovePodSandbox: async (r: nri.RemovePodSandboxRequest) => void (await h.removePodSandbox?.(pod(r.pod))),
    CreateContainer: async (r: nri.CreateContainerRequest): Promise<nri.ICreateContainerResponse> => {
      const res = await h.createContainer?.(pod(r.pod), ctr(r.container));
      if (!res) return {};
      return { adjust: res.adjust ?? null, update: res.update ?? [], evict: res.evict ?? [] };
    },
    PostCreateContainer: async (r: nri.PostCreateContainerRequest) => void (await h.postCreateContainer?.(pod(r.pod), ctr(r.container))),
    StartContainer: async (r: nri.StartContainerRequest) => void (await h.startContainer?.(pod(r.pod), ctr(r.container))),
    PostStartContainer: async (r: nri.PostStartContainerRequest) => void (await h.postStartContainer?.(pod(r.pod), ctr(r.container))),
    UpdateContainer: async (r: nri.UpdateContainerRequest): Promise<nri.IUpdateContainerResponse> => ({
      update: (await h.updateContainer?.(pod(r.pod), ctr(r.container), r.linuxResources)) ?? [],
    }),
    PostUpdateContainer: async (r: nri.PostUpdateContainerRequest) => void (await h.postUpdateContainer?.(pod(r.pod), ctr(r.container))),
    StopContainer: async (r: nri.StopContainerRequest): Promise<nri.IStopContainerResponse> => ({
      update: (await h.stopContainer?.(pod(r.pod), ctr(r.container))) ?? [],
    }),
    RemoveContainer: async (r: nri.RemoveContainerRequest) => void (await h.removeContainer?.(pod(r.pod), ctr(r.container))),
    StateChange: (e: nri.StateChangeEvent) => stateChange(h, e),
    ValidateContainerAdjustment: async (r: nri.ValidateContainerAdjustmentRequest): Promise<nri.IValidateContainerAdjustmentResponse> => {
      if (!h.validateContainerAdjustment) return {};
      try {
        const res = await h.validateContainerAdjustment(r);
        return res?.reject ? { reject: true, reason: res.reason ?? '' } : {};
      } catch (err) {
        return { reject: true, reason: err instanceof Error ? err.message : String(err) };
      }
    },
  };
}

// Runtimes before v0.12 deliver the events that need no answer through StateChange;
// they reach the same handlers as the dedicated RPCs.
async function stateChange(h: PluginHandlers, e: nri.StateChangeEvent): Promise<void> {
  const p = pod(e.pod);
  const c = ctr(e.container);
  switch (e.event) {
    case Event.RUN_POD_SANDBOX:
      return h.runPodSandbox?.(p);
    case Event.POST_UPDATE_POD_SANDBOX:
      return h.postUpdatePodSandbox?.(p);
    case Event.STOP_POD_SANDBOX:
      return h.stopPodSandbox?.(p);
    case Event.REMOVE_POD_SANDBOX:
      return h.removePodSandbox?.(p);
    case Event.POST_CREATE_CONTAINER:
      return h.postCreateContainer?.(p, c);
    case Event.START_CONTAINER:
      return h.startContainer?.(p, c);
    case Event.POST_START_CONTAINER:
      return h.postStartContainer?.(p, c);
    case Event.POST_UPDATE_CONTAINER:
      return h.postUpdateContainer?.(p, c);
    case Event.REMOVE_CONTAINER:
      return h.removeContainer?.(p, c);
    default:
      // Events that need an answer never come this way; unknown ones are ignored as in Go.
      return;
  }
}

// Handlers get an object even when the runtime left the field out (older runtimes do for some events).
const pod = (p: nri.IPodSandbox | null | undefined): nri.IPodSandbox => p ?? new nri.PodSandbox();
const ctr = (c: nri.IContainer | null | undefined): nri.IContainer => c ?? new nri.Container();

/**
 * Stops waiting for a handler once the caller's deadline passed or the connection closed.
 * Through ctx.onAbort, not ctx.signal: every call has a deadline, and an AbortController
 * per call was the largest single cost of a plugin's dispatch.
 */
function untilAborted<T>(work: Promise<T>, ctx: HandlerContext): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    // Once aborted nobody waits for the work; the handlers below keep its failure handled.
    const off = ctx.onAbort((reason) => reject(reason as Error));
    work.then(
      (v) => {
        off();
        resolve(v);
      },
      (err: unknown) => {
        off();
        reject(err);
      },
    );
  });
}

function asStatus(err: unknown, pluginName: string, method: string): TtrpcError {
  if (err instanceof TtrpcError) return err;
  const msg = err instanceof Error ? err.message : String(err);
  return new TtrpcError(Code.Unknown, `plugin ${pluginName}: ${method} failed: ${msg}`, { service: PLUGIN_SERVICE, method, cause: err });
}
