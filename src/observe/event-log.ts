// The handlers of `nrictl logs`: they run on the runtime's reply path, so each one only
// notes what arrived (a counter, a map entry, a filter test) and hands a record to the
// sink, which must not wait either (a BoundedOutputQueue). Rendering happens later.
import { Event, decodeSyncEntry, nri, overlayResources, synchronizeEntries } from '../api/index.js';
import { requestedResources } from '../output/index.js';
import type { PluginHandlers } from '../session/index.js';
import type { ObjectFilter } from './filters.js';

export interface LoggedEvent {
  /** ms since the epoch, when the request arrived. */
  time: number;
  event: Event;
  pod: nri.IPodSandbox;
  container?: nri.IContainer;
  /** The new resources of UpdateContainer / UpdatePodSandbox. */
  resources?: nri.ILinuxResources | null;
  /** UpdatePodSandbox's new overhead. */
  overhead?: nri.ILinuxResources | null;
  /**
   * What the container (or pod) had before this event, when that is known from
   * Synchronize or an earlier event: the "old" of old -> new.
   */
  previous?: nri.ILinuxResources | null;
  /** The whole ValidateContainerAdjustment request (adjustments and their owners). */
  validation?: nri.IValidateContainerAdjustmentRequest;
}

/** Containers of the Synchronize state decoded per turn of the event loop. */
const SYNC_BATCH = 500;

export interface EventLogCounts {
  /** Every event the runtime delivered. */
  seen: number;
  /** Events the filters left out. */
  filtered: number;
}

/**
 * Builds the plugin handlers for a logger. The previous resources of each live
 * container are kept (from Synchronize, create and update events) so an update can
 * be shown as old -> new; entries go when the container or its pod is removed, so
 * memory follows the node's size, not the number of events.
 */
export class EventLog {
  readonly counts: EventLogCounts = { seen: 0, filtered: 0 };
  /** Events the runtime delivered, by type: read when metrics are scraped, not pushed from here. */
  readonly seenByEvent = new Map<Event, number>();
  private readonly resources = new Map<string, nri.ILinuxResources | null | undefined>();
  private readonly podOf = new Map<string, string>();
  /** Synchronize's containers are still being decoded. */
  private syncPending = false;
  /** Containers removed while Synchronize's were decoded: not to be brought back. */
  private readonly goneDuringSync = new Set<string>();

  constructor(
    private readonly filter: ObjectFilter,
    private readonly sink: (e: LoggedEvent) => void,
  ) {}

  /** Containers whose resources are being tracked (for tests and memory checks). */
  get tracked(): number {
    return this.resources.size;
  }

  handlers(): PluginHandlers {
    return {
      // Answered unread: a node's state can be tens of MiB, and the runtime waits for
      // the answer within its request timeout. Decoded afterwards, a slice per turn.
      synchronizeRaw: (payloads) => this.learnState(payloads),
      runPodSandbox: (pod) => this.pod(Event.RUN_POD_SANDBOX, pod),
      updatePodSandbox: (pod, overhead, resources) =>
        this.pod(Event.UPDATE_POD_SANDBOX, pod, {
          resources,
          overhead,
          previous: asMessage(pod.linux?.resources ?? null),
        }),
      postUpdatePodSandbox: (pod) => this.pod(Event.POST_UPDATE_POD_SANDBOX, pod),
      stopPodSandbox: (pod) => this.pod(Event.STOP_POD_SANDBOX, pod),
      removePodSandbox: (pod) => {
        this.forgetPod(pod.id ?? '');
        this.pod(Event.REMOVE_POD_SANDBOX, pod);
      },
      createContainer: (pod, ctr) => {
        this.track(ctr);
        this.ctr(Event.CREATE_CONTAINER, pod, ctr);
      },
      postCreateContainer: (pod, ctr) =>
        this.ctr(Event.POST_CREATE_CONTAINER, pod, ctr, { previous: asMessage(this.track(ctr)) }),
      startContainer: (pod, ctr) => this.ctr(Event.START_CONTAINER, pod, ctr),
      postStartContainer: (pod, ctr) => this.ctr(Event.POST_START_CONTAINER, pod, ctr),
      updateContainer: (pod, ctr, resources) => {
        const id = ctr.id ?? '';
        // The request's container carries its current resources; prefer what we saw last.
        const previous = this.resources.has(id) ? this.resources.get(id) : (ctr.linux?.resources ?? null);
        this.ctr(Event.UPDATE_CONTAINER, pod, ctr, { resources, previous: asMessage(previous) });
        // What the container should have once the update is applied, so PostUpdate shows only later changes.
        this.resources.set(id, asMessage(overlayResources(previous, requestedResources(resources))));
        return [];
      },
      postUpdateContainer: (pod, ctr) =>
        this.ctr(Event.POST_UPDATE_CONTAINER, pod, ctr, { previous: asMessage(this.track(ctr)) }),
      stopContainer: (pod, ctr) => {
        this.ctr(Event.STOP_CONTAINER, pod, ctr);
        return [];
      },
      removeContainer: (pod, ctr) => {
        this.forget(ctr.id ?? '');
        this.ctr(Event.REMOVE_CONTAINER, pod, ctr);
      },
      validateContainerAdjustment: (req) => {
        this.ctr(Event.VALIDATE_CONTAINER_ADJUSTMENT, req.pod ?? {}, req.container ?? {}, { validation: req });
        // A logger never vetoes.
        return {};
      },
    };
  }

  /**
   * Takes the containers' resources from the Synchronize payloads, SYNC_BATCH at a time
   * with the event loop free in between, so events keep being answered meanwhile. What an
   * event said in the meantime is newer and wins.
   */
  learnState(payloads: Buffer[]): void {
    const work = payloads.flatMap((payload) =>
      synchronizeEntries(payload)
        .filter((e) => e.kind === 'container')
        .map((e) => ({ payload, e })),
    );
    this.syncPending = work.length > 0;
    let next = 0;
    const step = (): void => {
      const end = Math.min(next + SYNC_BATCH, work.length);
      for (; next < end; next++) {
        const { payload, e } = work[next];
        const ctr = decodeSyncEntry(payload, e) as nri.IContainer;
        const id = ctr.id ?? '';
        if (!this.resources.has(id) && !this.goneDuringSync.has(id)) this.track(ctr);
      }
      if (next < work.length) setImmediate(step);
      else {
        this.syncPending = false;
        this.goneDuringSync.clear();
      }
    };
    if (work.length > 0) setImmediate(step);
  }

  /**
   * Records the container's resources; returns what was recorded before. A container
   * without an id (iSulad's CreateContainer names only the container and its pod) is
   * not tracked: there is nothing to find it by later.
   */
  private track(ctr: nri.IContainer): nri.ILinuxResources | null | undefined {
    const id = ctr.id ?? '';
    if (id === '') return undefined;
    const before = this.resources.get(id);
    this.resources.set(id, ctr.linux?.resources ?? null);
    if (ctr.podSandboxId) this.podOf.set(id, ctr.podSandboxId);
    return before;
  }

  private forget(id: string): void {
    if (this.syncPending) this.goneDuringSync.add(id);
    this.resources.delete(id);
    this.podOf.delete(id);
  }

  private forgetPod(podId: string): void {
    // Runtimes remove containers before their pod; this only catches those they did not report.
    for (const [id, p] of this.podOf) if (p === podId) this.forget(id);
  }

  private noteSeen(event: Event): void {
    this.counts.seen++;
    this.seenByEvent.set(event, (this.seenByEvent.get(event) ?? 0) + 1);
  }

  private pod(event: Event, pod: nri.IPodSandbox, extra: Partial<LoggedEvent> = {}): void {
    this.noteSeen(event);
    if (!this.filter.matchesPodEvent(pod)) {
      this.counts.filtered++;
      return;
    }
    this.sink({ time: Date.now(), event, pod, ...extra });
  }

  private ctr(event: Event, pod: nri.IPodSandbox, container: nri.IContainer, extra: Partial<LoggedEvent> = {}): void {
    this.noteSeen(event);
    if (!this.filter.matchesContainer(pod, container)) {
      this.counts.filtered++;
      return;
    }
    this.sink({ time: Date.now(), event, pod, container, ...extra });
  }
}

/**
 * Resources as a LinuxResources message, so that the data form writes them in the
 * protobuf JSON mapping (64-bit integers as decimal strings, empty fields left out) as it
 * writes the request's: what nrictl works out itself (an update overlaid on the old
 * resources) is a plain object, which JSON would write as it stands.
 */
function asMessage(r: nri.ILinuxResources | null | undefined): nri.ILinuxResources | null | undefined {
  return r && !(r instanceof nri.LinuxResources) ? nri.LinuxResources.fromObject(r) : r;
}
