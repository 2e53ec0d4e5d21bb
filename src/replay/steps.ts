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
  /** Events read from the recording. */
  events: number;
  /** Steps made of them. */
  steps: number;
  /** Steps the recording implies but does not hold (a pod or container it names but never created). */
  madeUp: number;
  /** Events that are no step: post-events (the simulator sends them after their step), validation. */
  notSteps: number;
}

/** Turns recorded events into steps, knowing which pods and containers exist at each point. */
export class StepMapper {
  private readonly pods = new Set<string>();
  /** Container id -> its pod's id. */
  private readonly containers = new Map<string, string>();
  readonly counts: StepCounts = { events: 0, steps: 0, madeUp: 0, notSteps: 0 };

  /** A pod or container of the Synchronize state. */
  knowPod(id: string): void {
    this.pods.add(id);
  }

  knowContainer(id: string, podId: string): void {
    this.containers.set(id, podId);
  }

  map(e: EventEntry): Step[] {
    this.counts.events++;
    const steps: Step[] = [];
    const req = e.request;
    const pod = req.pod ?? {};
    const podId = pod.id ?? '';
    const ctr = req.container ?? undefined;
    const ctrId = ctr?.id ?? '';
    const ensurePod = (): void => {
      if (this.pods.has(podId)) return;
      this.pods.add(podId);
      this.madeUp(steps, { kind: 'run-pod', pod });
    };
    const ensureContainer = (): boolean => {
      if (!ctr || ctrId === '') return false;
      ensurePod();
      if (this.containers.has(ctrId)) return true;
      this.containers.set(ctrId, podId);
      this.madeUp(steps, { kind: 'create', container: { ...ctr, podSandboxId: podId } });
      return true;
    };
    const step = (s: Step): void => {
      steps.push(s);
      this.counts.steps++;
    };
    switch (e.event) {
      case Event.RUN_POD_SANDBOX:
        if (this.pods.has(podId)) this.counts.notSteps++;
        else {
          this.pods.add(podId);
          step({ kind: 'run-pod', pod });
        }
        break;
      case Event.UPDATE_POD_SANDBOX: {
        ensurePod();
        const r = req as nri.IUpdatePodSandboxRequest;
        step({
          kind: 'update-pod',
          id: podId,
          resources: r.linuxResources ?? {},
          ...(r.overheadLinuxResources ? { overhead: r.overheadLinuxResources } : {}),
        });
        break;
      }
      case Event.STOP_POD_SANDBOX:
        ensurePod();
        step({ kind: 'stop-pod', id: podId });
        break;
      case Event.REMOVE_POD_SANDBOX:
        ensurePod();
        step({ kind: 'remove-pod', id: podId });
        this.pods.delete(podId);
        // The simulator removes the pod's containers with it, as a runtime does.
        for (const [id, p] of this.containers) if (p === podId) this.containers.delete(id);
        break;
      case Event.CREATE_CONTAINER:
        if (!ctr || ctrId === '' || this.containers.has(ctrId)) {
          this.counts.notSteps++;
          break;
        }
        ensurePod();
        this.containers.set(ctrId, podId);
        step({ kind: 'create', container: { ...ctr, podSandboxId: podId } });
        break;
      case Event.START_CONTAINER:
        if (ensureContainer()) step({ kind: 'start', id: ctrId });
        break;
      case Event.UPDATE_CONTAINER:
        if (ensureContainer())
          step({ kind: 'update', id: ctrId, resources: (req as nri.IUpdateContainerRequest).linuxResources ?? {} });
        break;
      case Event.STOP_CONTAINER:
        if (ensureContainer()) step({ kind: 'stop', id: ctrId });
        break;
      case Event.REMOVE_CONTAINER:
        if (ensureContainer()) {
          step({ kind: 'remove', id: ctrId });
          this.containers.delete(ctrId);
        }
        break;
      default:
        // Post-events follow their step by themselves; they only bring in what they name.
        if (e.event !== Event.VALIDATE_CONTAINER_ADJUSTMENT) {
          if (ctr) ensureContainer();
          else ensurePod();
        }
        this.counts.notSteps++;
    }
    return steps;
  }

  private madeUp(steps: Step[], s: Step): void {
    steps.push(s);
    this.counts.madeUp++;
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
 */
export async function* recordedSteps(
  entries: AsyncIterable<RecordingEntry>,
  mapper: StepMapper,
  pace: ReplayPace,
  onEntry?: (e: RecordingEntry) => void,
): AsyncGenerator<Step> {
  let start: { wall: number; t: number } | undefined;
  for await (const e of entries) {
    onEntry?.(e);
    if (e.kind !== 'event') continue;
    const steps = mapper.map(e);
    if (steps.length === 0) continue;
    if (pace.speed !== undefined && e.t !== undefined) {
      start ??= { wall: performance.now(), t: e.t };
      const due = start.wall + (e.t - start.t) / pace.speed - performance.now();
      if (due > 0) await sleep(due, pace.signal);
    }
    if (pace.signal?.aborted) return;
    yield* steps;
  }
}
