// The Plugin service on a TtrpcServer: decode the request, run the handler, encode the
// answer. Every method the schema defines is served, so a runtime only ever gets
// Unimplemented for a method newer than this schema (it then falls back to StateChange).
import { EVENT_NAMES, Event, METHODS, PLUGIN_SERVICE, PluginMethod, nri } from '../api/index.js';
import { Code, TtrpcError, type Handler, type HandlerContext, type TtrpcServer } from '../ttrpc/index.js';
import type { HandlerClock } from './handler-clock.js';
import type { CreateContainerResult, PluginHandlers, ValidationResult } from './handlers.js';

type Answer = object | void | undefined;
/** One method's implementation, on the decoded request. */
export type MethodImpl = (req: never, ctx: HandlerContext) => Promise<Answer> | Answer;
export type PluginServiceImpl = { [M in PluginMethod]: MethodImpl };

/** The handler a method reaches, by the name the author gave it: CreateContainer, createContainer. */
const lowerFirst = (name: string): string => name.charAt(0).toLowerCase() + name.slice(1);
/** StateChange carries the events that need no answer: the handler is the event's. */
const STATE_CHANGE_HANDLERS = new Map(Object.entries(EVENT_NAMES).map(([e, name]) => [Number(e), lowerFirst(name)]));

/**
 * Registers every Plugin service method; `pluginName` ("10-logger") goes into error
 * messages. Methods in `raw` are served as given, on the undecoded payload. `clock`
 * times every handler the runtime waits for (see handler-clock.ts).
 */
export function registerPluginService(
  server: TtrpcServer,
  impl: PluginServiceImpl,
  pluginName: string,
  raw: Partial<Record<PluginMethod, Handler>> = {},
  clock?: HandlerClock,
): void {
  for (const method of Object.values(PluginMethod)) {
    const direct = raw[method];
    if (direct) {
      server.register(PLUGIN_SERVICE, method, direct);
      continue;
    }
    const types = METHODS.get(`${PLUGIN_SERVICE}/${method}`);
    if (!types) throw new Error(`schema has no ${PLUGIN_SERVICE}/${method}`);
    const run = impl[method] as (req: unknown, ctx: HandlerContext) => Promise<Answer> | Answer;
    const encode = (answer: Answer): Uint8Array => types.response.encode(answer ?? {}).finish();
    const handler = lowerFirst(method);
    const handlerOf =
      method === PluginMethod.StateChange
        ? (req: unknown): string => STATE_CHANGE_HANDLERS.get((req as nri.StateChangeEvent).event) ?? handler
        : (): string => handler;
    // A handler that answers at once is answered at once: no promise, no deadline race
    // (it cannot outlive a deadline it never waits through), no microtask round. Only an
    // answer still pending is raced against the caller's deadline.
    server.register(PLUGIN_SERVICE, method, (payload, ctx) => {
      let req: unknown;
      try {
        req = types.request.decode(payload);
      } catch (err) {
        throw new TtrpcError(
          Code.InvalidArgument,
          `plugin ${pluginName}: undecodable ${method} request: ${(err as Error).message}`,
          {
            service: PLUGIN_SERVICE,
            method,
            cause: err,
          },
        );
      }
      let answer: Promise<Answer> | Answer;
      const timed = clock?.begin(handlerOf(req));
      try {
        answer = run(req, ctx);
        if (!isPromise(answer)) {
          if (timed) clock!.end(timed);
          return encode(answer);
        }
      } catch (err) {
        if (timed) clock!.end(timed);
        throw asStatus(err, pluginName, method);
      }
      // The handler's own end, not the caller's: it runs on after a deadline or a close.
      if (timed) {
        const ended = (): void => clock!.end(timed);
        answer.then(ended, ended);
      }
      return untilAborted(answer, ctx).then(encode, (err: unknown) => {
        throw asStatus(err, pluginName, method);
      });
    });
  }
}

/**
 * The event methods, dispatched to the author's handlers; unhandled events get an empty
 * answer. A handler that returns at once is answered at once (see `then`).
 */
export function eventMethods(h: PluginHandlers): Omit<PluginServiceImpl, 'Configure' | 'Synchronize' | 'Shutdown'> {
  return {
    RunPodSandbox: (r: nri.RunPodSandboxRequest) => then(h.runPodSandbox?.(pod(r.pod)), nothing),
    UpdatePodSandbox: (r: nri.UpdatePodSandboxRequest) =>
      then(h.updatePodSandbox?.(pod(r.pod), r.overheadLinuxResources, r.linuxResources), nothing),
    PostUpdatePodSandbox: (r: nri.PostUpdatePodSandboxRequest) => then(h.postUpdatePodSandbox?.(pod(r.pod)), nothing),
    StopPodSandbox: (r: nri.StopPodSandboxRequest) => then(h.stopPodSandbox?.(pod(r.pod)), nothing),
    RemovePodSandbox: (r: nri.RemovePodSandboxRequest) => then(h.removePodSandbox?.(pod(r.pod)), nothing),
    CreateContainer: (r: nri.CreateContainerRequest): Answer | Promise<nri.ICreateContainerResponse> =>
      then(h.createContainer?.(pod(r.pod), ctr(r.container)), createContainerAnswer),
    PostCreateContainer: (r: nri.PostCreateContainerRequest) =>
      then(h.postCreateContainer?.(pod(r.pod), ctr(r.container)), nothing),
    StartContainer: (r: nri.StartContainerRequest) => then(h.startContainer?.(pod(r.pod), ctr(r.container)), nothing),
    PostStartContainer: (r: nri.PostStartContainerRequest) =>
      then(h.postStartContainer?.(pod(r.pod), ctr(r.container)), nothing),
    UpdateContainer: (r: nri.UpdateContainerRequest) =>
      then(
        h.updateContainer?.(pod(r.pod), ctr(r.container), r.linuxResources),
        (update): nri.IUpdateContainerResponse => ({ update: update ?? [] }),
      ),
    PostUpdateContainer: (r: nri.PostUpdateContainerRequest) =>
      then(h.postUpdateContainer?.(pod(r.pod), ctr(r.container)), nothing),
    StopContainer: (r: nri.StopContainerRequest) =>
      then(h.stopContainer?.(pod(r.pod), ctr(r.container)), (update): nri.IStopContainerResponse => ({
        update: update ?? [],
      })),
    RemoveContainer: (r: nri.RemoveContainerRequest) =>
      then(h.removeContainer?.(pod(r.pod), ctr(r.container)), nothing),
    StateChange: (e: nri.StateChangeEvent) => then(stateChange(h, e), nothing),
    ValidateContainerAdjustment: (r: nri.ValidateContainerAdjustmentRequest): Answer | Promise<Answer> => {
      if (!h.validateContainerAdjustment) return {};
      const rejection = (err: unknown): nri.IValidateContainerAdjustmentResponse => ({
        reject: true,
        reason: err instanceof Error ? err.message : String(err),
      });
      let res;
      try {
        res = h.validateContainerAdjustment(r);
      } catch (err) {
        return rejection(err);
      }
      const verdict = (v: ValidationResult | void): nri.IValidateContainerAdjustmentResponse =>
        v?.reject ? { reject: true, reason: v.reason ?? '' } : {};
      return isPromise(res) ? res.then(verdict, rejection) : verdict(res);
    },
  };
}

/**
 * The event methods, each refused (Code.FailedPrecondition, nothing dispatched) while
 * `live()` is false. A runtime sends events only to plugins it has registered, configured
 * and synchronized; a peer that sends them earlier (one that never answered RegisterPlugin
 * and floods StateChange, say) must not reach the handlers, and through them the output.
 */
export function gatedEventMethods(
  methods: Omit<PluginServiceImpl, 'Configure' | 'Synchronize' | 'Shutdown'>,
  live: () => boolean,
  pluginName: string,
): Omit<PluginServiceImpl, 'Configure' | 'Synchronize' | 'Shutdown'> {
  const gated = {} as Record<string, MethodImpl>;
  for (const [method, impl] of Object.entries<MethodImpl>(methods)) {
    gated[method] = (req: never, ctx: HandlerContext) => {
      if (!live()) {
        throw new TtrpcError(
          Code.FailedPrecondition,
          `plugin ${pluginName} is not registered yet: events come after RegisterPlugin, Configure and Synchronize`,
          { service: PLUGIN_SERVICE, method },
        );
      }
      return impl(req, ctx);
    };
  }
  return gated as Omit<PluginServiceImpl, 'Configure' | 'Synchronize' | 'Shutdown'>;
}

/** f of a handler's result: at once for a plain value, after it settles for a promise. */
function then<T, U>(result: T | PromiseLike<T>, f: (value: T) => U): U | Promise<U> {
  return isPromise(result) ? Promise.resolve(result).then(f) : f(result);
}

function isPromise<T>(x: T | PromiseLike<T>): x is PromiseLike<T> {
  return typeof (x as { then?: unknown } | null | undefined)?.then === 'function';
}

const nothing = (): void => undefined;

/**
 * Always with an `adjust` message, empty when the handler changes nothing, as the Go stub
 * answers: iSulad's NRI library unwraps the field and aborts the whole daemon without it.
 */
function createContainerAnswer(res: CreateContainerResult | void): nri.ICreateContainerResponse {
  return { adjust: res?.adjust ?? {}, update: res?.update ?? [], evict: res?.evict ?? [] };
}

// Runtimes before v0.12 deliver the events that need no answer through StateChange;
// they reach the same handlers as the dedicated RPCs.
function stateChange(h: PluginHandlers, e: nri.StateChangeEvent): Promise<void> | void {
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
function untilAborted<T>(work: PromiseLike<T>, ctx: HandlerContext): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    // Once aborted nobody waits for the work; the handlers below keep its failure handled.
    const off = ctx.onAbort((reason) => reject(reason));
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
  return new TtrpcError(Code.Unknown, `plugin ${pluginName}: ${method} failed: ${msg}`, {
    service: PLUGIN_SERVICE,
    method,
    cause: err,
  });
}
