// A recording's events as the simulator's script steps, so that a replay goes through the
// same lifecycle calls as a scenario's script (src/runtime/sim/script.ts), not a second
// implementation of them. The simulator sends a post-event itself after each step, as a
// runtime does, so recorded post-events are not steps of their own; nor is validation,
// which the runtime asks of validators itself. What a recording lacks (the pod of a
// container whose RunPodSandbox was not recorded: trace records no pod events before
// --record, logs --events may leave them out) is made up from the request that names it:
// a step the recording implies, counted as made up.
import { Event, type nri } from '../api/index.js';
import type { RecordingEntry } from '../recording/index.js';
import { sleep, type Step } from '../runtime/index.js';

type EventEntry = RecordingEntry & { kind: 'event' };

export interface StepCounts {
  /** Events replayed: every step made of them was sent (or they are no step). */
  events: number;
  /** Steps made of them and sent. */
  steps: number;
  /** Steps sent that the recording implies but does not hold (a pod or container it names but never created). */
  madeUp: number;
  /** Events that are no step: post-events (the simulator sends them after their step), validation, one naming nothing to act on. */
  notSteps: number;
}

/** One recorded event as the script's steps, in the order they run. */
export interface EventSteps {
  /** What the event names but the recording never created (its pod, its container), made up first. */
  madeUp: Step[];
  /** The event's own step; none when it is no step. */
  own: Step | undefined;
}

/** Every step of an event, in the order they run. */
export function stepsOf(e: EventSteps): Step[] {
  return e.own ? [...e.madeUp, e.own] : e.madeUp;
}

/** Turns recorded events into steps, knowing which pods and containers exist at each point. */
export class StepMapper {
  private readonly pods = new Set<string>();
  /** Container id -> its pod's id. */
  private readonly containers = new Map<string, string>();

  /** A pod or container of the Synchronize state. */
  knowPod(id: string): void {
    this.pods.add(id);
  }

  knowContainer(id: string, podId: string): void {
    this.containers.set(id, podId);
  }

  map(e: EventEntry): EventSteps {
    const madeUp: Step[] = [];
    const req = e.request;
    const pod = req.pod ?? {};
    const podId = pod.id ?? '';
    const ctr = req.container ?? undefined;
    const ctrId = ctr?.id ?? '';
    const ensurePod = (): void => {
      if (this.pods.has(podId)) return;
      this.pods.add(podId);
      madeUp.push({ kind: 'run-pod', pod });
    };
    const ensureContainer = (): boolean => {
      if (!ctr || ctrId === '') return false;
      ensurePod();
      if (this.containers.has(ctrId)) return true;
      this.containers.set(ctrId, podId);
      madeUp.push({ kind: 'create', container: { ...ctr, podSandboxId: podId } });
      return true;
    };
    const own = (s: Step | undefined): EventSteps => ({ madeUp, own: s });
    switch (e.event) {
      case Event.RUN_POD_SANDBOX:
        if (this.pods.has(podId)) return own(undefined);
        this.pods.add(podId);
        return own({ kind: 'run-pod', pod });
      case Event.UPDATE_POD_SANDBOX: {
        ensurePod();
        const r = req as nri.IUpdatePodSandboxRequest;
        return own({
          kind: 'update-pod',
          id: podId,
          resources: r.linuxResources ?? {},
          ...(r.overheadLinuxResources ? { overhead: r.overheadLinuxResources } : {}),
        });
      }
      case Event.STOP_POD_SANDBOX:
        ensurePod();
        return own({ kind: 'stop-pod', id: podId });
      case Event.REMOVE_POD_SANDBOX:
        ensurePod();
        this.pods.delete(podId);
        // The simulator removes the pod's containers with it, as a runtime does.
        for (const [id, p] of this.containers) if (p === podId) this.containers.delete(id);
        return own({ kind: 'remove-pod', id: podId });
      case Event.CREATE_CONTAINER:
        if (!ctr || ctrId === '' || this.containers.has(ctrId)) return own(undefined);
        ensurePod();
        this.containers.set(ctrId, podId);
        return own({ kind: 'create', container: { ...ctr, podSandboxId: podId } });
      case Event.START_CONTAINER:
        return own(ensureContainer() ? { kind: 'start', id: ctrId } : undefined);
      case Event.UPDATE_CONTAINER:
        return own(
          ensureContainer()
            ? { kind: 'update', id: ctrId, resources: (req as nri.IUpdateContainerRequest).linuxResources ?? {} }
            : undefined,
        );
      case Event.STOP_CONTAINER:
        return own(ensureContainer() ? { kind: 'stop', id: ctrId } : undefined);
      case Event.REMOVE_CONTAINER:
        if (!ensureContainer()) return own(undefined);
        this.containers.delete(ctrId);
        return own({ kind: 'remove', id: ctrId });
      default:
        // Post-events follow their step by themselves; they only bring in what they name.
        if (e.event !== Event.VALIDATE_CONTAINER_ADJUSTMENT) {
          if (ctr) ensureContainer();
          else ensurePod();
        }
        return own(undefined);
    }
  }
}

export interface ReplayPace {
  /** Times faster than recorded (1: the recorded pace); undefined: as fast as the plugins answer. */
  speed?: number | undefined;
  signal?: AbortSignal | undefined;
}

/**
 * The steps of a recording's events, read as the script asks for them (one line at a
 * time), each at its recorded time divided by `speed` when a speed is given. Every
 * entry goes to `onEntry` as it is read (events, trace results, gaps, the trailer).
 * `replayed` counts what was sent: a step when the script comes back for the next one
 * (it has run it), an event when all its steps have. A stop during the pace's wait, or
 * before the script ran the step it was handed, leaves that step and its event uncounted.
 */
export async function* recordedSteps(
  entries: AsyncIterable<RecordingEntry>,
  mapper: StepMapper,
  pace: ReplayPace,
  replayed: StepCounts,
  onEntry?: (e: RecordingEntry) => void,
): AsyncGenerator<Step> {
  let start: { wall: number; t: number } | undefined;
  for await (const e of entries) {
    onEntry?.(e);
    if (e.kind !== 'event') continue;
    const { madeUp, own } = mapper.map(e);
    if (madeUp.length > 0 || own) {
      if (pace.speed !== undefined && e.t !== undefined) {
        start ??= { wall: performance.now(), t: e.t };
        const due = start.wall + (e.t - start.t) / pace.speed - performance.now();
        if (due > 0) await sleep(due, pace.signal);
      }
      if (pace.signal?.aborted) return;
    }
    for (const s of madeUp) {
      yield s;
      replayed.madeUp++;
    }
    if (own) {
      yield own;
      replayed.steps++;
    } else replayed.notSteps++;
    replayed.events++;
  }
}
