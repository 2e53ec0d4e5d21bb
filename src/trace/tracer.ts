// Puts the probes' sightings of one event back together: the same event for the same
// container reaches the probes one after the other, in index order, because the runtime
// relays each event to its plugins in turn and under one lock (containerd/nri
// adaptation.go). Between two probes' sightings lie the plugins between them: their time
// (less one probe hop) and what they changed (the runtime applies each answer to the
// request before calling the next plugin, result.go `apply`).
//
// The probes' handlers only call observe(), which stores a reference and a timestamp;
// everything else runs later, off the runtime's reply path.
import { Event, eventName, type nri } from '../api/index.js';
import { ownerIndex, ownerOf } from './owners.js';
import { pluginLabel, segmentOf, type ProbePlan, type Segment } from './placement.js';
import { createView, diffViews, updateView, type Change, type ContainerView } from './view.js';

export interface Observation {
  /** Position of the probe in ProbePlan.probes. */
  probe: number;
  /** performance.now() when the probe's handler ran. */
  at: number;
  /** Date.now() at the same moment. */
  time: number;
  event: Event;
  pod: nri.IPodSandbox | null | undefined;
  ctr: nri.IContainer | null | undefined;
  resources?: nri.ILinuxResources | null | undefined;
  /** The event's number in a recording (trace --record), given by the first probe. */
  seq?: number | undefined;
}

export interface AttributedChange extends Change {
  /** The owner the runtime named in its validation request (NRI v0.10+, --validator). */
  owner?: string;
  /** Whether that owner sits between the two probes that saw the change. */
  ownerAgrees?: boolean;
}

export interface SegmentResult {
  label: string;
  plugins: string[];
  group: boolean;
  calibration: boolean;
  from: string;
  to: string;
  /** Time between the two probes less one probe hop (never below 0); undefined when the request never reached the later probe. */
  ms?: number;
  rawMs?: number;
  changes: AttributedChange[];
}

export type TraceEnd = 'complete' | 'failed' | 'stopped';

export interface TraceRecord {
  time: number;
  event: string;
  pod: { id: string; namespace: string; name: string; uid: string; cgroupParent: string };
  container: { id: string; name: string };
  /**
   * The container's resources as the last probe that saw the event saw them, after the
   * plugins before it: a create's container, an update's request. Absent for other events.
   */
  resources?: nri.ILinuxResources;
  segments: SegmentResult[];
  /** Sum of the plugin segments' times (probe hops taken out). */
  totalMs: number;
  /** The probe hop subtracted from each segment. */
  hopMs: number;
  /**
   * complete: every probe saw it. failed: the later probes never did (a plugin failed the
   * request, or a conflict ended it, in `stoppedIn`). stopped: trace ended meanwhile.
   */
  end: TraceEnd;
  stoppedIn?: string;
  attribution: 'probes' | 'probes+validator';
}

export interface TracerOptions {
  /** An event not seen by every probe after this long ended early. */
  staleMs: number;
  /** Open events kept at most; beyond that the oldest is closed as failed. */
  maxOpen?: number;
  /** CreateContainer records wait this long for the validation request (0: no validator probe). */
  validationGraceMs?: number;
  /** Cheap filter on the first sighting (namespace/pod/container). */
  accept?: (pod: nri.IPodSandbox | null | undefined, ctr: nri.IContainer | null | undefined) => boolean;
  /** `seq`: the event's number in a recording, when the first probe recorded it. */
  onRecord(r: TraceRecord, seq?: number): void;
  onFiltered?(): void;
}

interface Open {
  key: string;
  event: Event;
  obs: Array<Observation | undefined>;
  opened: number;
  waitingSince?: number;
}

const HOP_WINDOW = 101;
const DEFAULT_MAX_OPEN = 1000;

export class Tracer {
  private readonly open = new Map<string, Open>();
  private readonly inbox: Observation[] = [];
  private readonly validations = new Map<string, nri.IValidateContainerAdjustmentRequest>();
  private readonly hops = new Map<Event, number[]>();
  private readonly probeIndexes: Set<string>;
  private scheduled = false;
  private readonly sweeper: NodeJS.Timeout;
  private closed = false;

  constructor(
    readonly plan: ProbePlan,
    private readonly opts: TracerOptions,
  ) {
    this.probeIndexes = new Set(plan.probes);
    this.sweeper = setInterval(() => this.sweep(), Math.max(50, Math.floor(opts.staleMs / 2)));
    this.sweeper.unref();
  }

  /** Called from a probe's handler: store and return. */
  observe(o: Observation): void {
    if (this.closed) return;
    this.inbox.push(o);
    this.schedule();
  }

  /** Called from the validator probe's handler. */
  validation(req: nri.IValidateContainerAdjustmentRequest): void {
    if (this.closed) return;
    const id = req.container?.id ?? '';
    this.validations.set(id, req);
    if (this.validations.size > (this.opts.maxOpen ?? DEFAULT_MAX_OPEN))
      this.validations.delete(this.validations.keys().next().value!);
    this.schedule();
  }

  /** Median probe hop for this event so far (0 without a calibration pair). */
  hopMs(event: Event): number {
    const xs = this.hops.get(event);
    if (!xs || xs.length === 0) return 0;
    const s = [...xs].sort((a, b) => a - b);
    return s[Math.floor(s.length / 2)];
  }

  /** Processes what is pending and closes every open event as stopped. */
  stop(): void {
    if (this.closed) return;
    this.process();
    this.closed = true;
    clearInterval(this.sweeper);
    // Seen by every probe and only waiting for a validation that did not come: complete.
    for (const o of [...this.open.values()]) this.finish(o, o.waitingSince !== undefined ? 'complete' : 'stopped');
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.process();
    });
  }

  private process(): void {
    for (const o of this.inbox.splice(0)) this.take(o);
    for (const o of [...this.open.values()]) {
      if (o.waitingSince !== undefined && this.validations.has(o.obs.find((x) => x !== undefined)?.ctr?.id ?? ''))
        this.finish(o, 'complete');
    }
  }

  private take(o: Observation): void {
    const key = `${o.event}/${o.ctr?.id ?? ''}`;
    let open = this.open.get(key);
    if (open && (open.obs[o.probe] !== undefined || open.waitingSince !== undefined)) {
      // The same event for the same container again: the earlier one went no further.
      this.finish(open, open.waitingSince !== undefined ? 'complete' : 'failed');
      open = undefined;
    }
    if (!open) {
      open = {
        key,
        event: o.event,
        obs: new Array<Observation | undefined>(this.plan.probes.length).fill(undefined),
        opened: o.at,
      };
      this.open.set(key, open);
      const max = this.opts.maxOpen ?? DEFAULT_MAX_OPEN;
      if (this.open.size > max) this.finish(this.open.values().next().value!, 'failed');
    }
    open.obs[o.probe] = o;
    if (open.obs.every((x) => x !== undefined)) {
      if (
        o.event === Event.CREATE_CONTAINER &&
        (this.opts.validationGraceMs ?? 0) > 0 &&
        !this.validations.has(o.ctr?.id ?? '')
      ) {
        open.waitingSince = o.at;
      } else {
        this.finish(open, 'complete');
      }
    }
  }

  private sweep(): void {
    const now = performance.now();
    for (const o of [...this.open.values()]) {
      if (o.waitingSince !== undefined) {
        if (now - o.waitingSince > (this.opts.validationGraceMs ?? 0)) this.finish(o, 'complete');
      } else if (now - o.opened > this.opts.staleMs) {
        this.finish(o, 'failed');
      }
    }
  }

  private finish(open: Open, end: TraceEnd): void {
    this.open.delete(open.key);
    const first = open.obs.find((x): x is Observation => x !== undefined);
    if (!first) return;
    if (this.opts.accept && !this.opts.accept(first.pod, first.ctr)) {
      this.opts.onFiltered?.();
      return;
    }
    const id = first.ctr?.id ?? '';
    const validation = open.event === Event.CREATE_CONTAINER ? this.validations.get(id) : undefined;
    if (validation) this.validations.delete(id);
    const calibration = this.plan.calibration;
    if (calibration && end === 'complete') {
      const a = open.obs[this.plan.probes.indexOf(calibration.from)];
      const b = open.obs[this.plan.probes.indexOf(calibration.to)];
      if (a && b) {
        const xs = this.hops.get(open.event) ?? [];
        xs.push(b.at - a.at);
        if (xs.length > HOP_WINDOW) xs.shift();
        this.hops.set(open.event, xs);
      }
    }
    const hop = this.hopMs(open.event);
    const owners = validation?.owners?.owners?.[id];
    const views: Array<ContainerView | undefined> = open.obs.map((o) =>
      o === undefined ? undefined : o.event === Event.UPDATE_CONTAINER ? updateView(o.resources) : createView(o.ctr),
    );
    const segments: SegmentResult[] = [];
    let stoppedIn: string | undefined;
    let total = 0;
    this.plan.segments.forEach((planned, k) => {
      const seg = validation ? this.withValidatorPlugins(planned, validation) : planned;
      const a = open.obs[k];
      const b = open.obs[k + 1];
      const result: SegmentResult = {
        label: seg.label,
        plugins: seg.plugins.map(pluginLabel),
        group: seg.group,
        calibration: seg.calibration,
        from: seg.from,
        to: seg.to,
        changes: [],
      };
      if (a && b) {
        const raw = b.at - a.at;
        result.rawMs = raw;
        result.ms = seg.calibration ? raw : Math.max(0, raw - hop);
        if (!seg.calibration) total += result.ms;
        const va = views[k];
        const vb = views[k + 1];
        if (va && vb && open.event !== Event.STOP_CONTAINER) {
          result.changes = diffViews(va, vb).map((c) => {
            const owner = ownerOf(owners, c);
            if (owner === undefined) return c;
            const idx = ownerIndex(owner);
            return { ...c, owner, ownerAgrees: idx !== undefined && idx > seg.from && idx < seg.to };
          });
        }
      } else if (a && !b && stoppedIn === undefined && end === 'failed') {
        stoppedIn = seg.label;
      }
      segments.push(result);
    });
    const last = open.obs.findLast((x): x is Observation => x !== undefined) ?? first;
    const resources =
      open.event === Event.UPDATE_CONTAINER
        ? last.resources
        : open.event === Event.CREATE_CONTAINER
          ? last.ctr?.linux?.resources
          : undefined;
    const pod = first.pod;
    this.opts.onRecord(
      {
        time: first.time,
        event: eventName(open.event),
        pod: {
          id: pod?.id ?? '',
          namespace: pod?.namespace ?? '',
          name: pod?.name ?? '',
          uid: pod?.uid ?? '',
          cgroupParent: pod?.linux?.cgroupParent ?? '',
        },
        container: { id, name: first.ctr?.name ?? '' },
        ...(resources ? { resources } : {}),
        segments,
        totalMs: total,
        hopMs: hop,
        end,
        ...(stoppedIn !== undefined ? { stoppedIn } : {}),
        attribution: validation ? 'probes+validator' : 'probes',
      },
      open.obs[0]?.seq,
    );
  }

  /** The validation request lists every plugin consulted: name the members of each segment exactly. */
  private withValidatorPlugins(seg: Segment, v: nri.IValidateContainerAdjustmentRequest): Segment {
    const members = (v.plugins ?? [])
      .filter((p) => (p.index ?? '') > seg.from && (p.index ?? '') < seg.to && !this.probeIndexes.has(p.index ?? ''))
      .map((p) => ({ index: p.index ?? '', name: p.name ?? '', source: 'validator' as const }));
    if (members.length === 0) return seg;
    return segmentOf(seg.from, seg.to, members, seg.calibration);
  }
}
