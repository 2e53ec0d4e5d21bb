// What the plugins under test now do differently from what the node's plugins did
// (sim --replay --compare): each traced event of a trace recording is held to the same
// event traced again in the replay, by the same instrument (trace's probes around the
// plugins, src/trace), and per container each field that now ends differently is named
// with the plugin that set it then and the one that sets it now. The two sides are
// joined by event and container, in order: the same event for the same container happens
// one after the other on both sides, and neither side waits for the other.
import { traceLine, type TraceLine } from '../recording/index.js';
import type { TraceRecord } from '../trace/index.js';

/** How a field ended on one side: its value (none: not set, or removed) and who set it last. */
export interface FieldEnd {
  value?: string;
  by?: string;
}

export interface Difference {
  /** The event's number in the recording. */
  seq: number;
  event: string;
  /** env, annotations, mounts, devices, rlimits, hooks, resources; or `outcome` (complete / failed). */
  field: string;
  key: string;
  then: FieldEnd;
  now: FieldEnd;
}

export interface ContainerDifferences {
  id: string;
  name: string;
  /** namespace/name of its pod. */
  pod: string;
  differences: Difference[];
}

export interface CompareResult {
  file: string;
  /** Traced events compared. */
  compared: number;
  /** Traced events of one side with none on the other (not compared: said, never taken as equal). */
  uncompared: { then: number; now: number };
  /** Only containers with a difference. */
  containers: ContainerDifferences[];
  notes: string[];
}

interface Names {
  container: string;
  pod: string;
}

/** Bound on events remembered while their other side has not come (a side that never comes). */
const MAX_PENDING = 10_000;

export class Comparer {
  private readonly then = new Map<string, Array<{ line: TraceLine; names: Names }>>();
  private readonly now = new Map<string, Array<{ line: TraceLine; names: Names }>>();
  private readonly names = new Map<number, Names>();
  private readonly byContainer = new Map<string, ContainerDifferences>();
  private pending = 0;
  /** Creations the simulated runtime failed after every plugin answered (a refusal, a validator, a conflict). */
  private readonly refused = new Map<string, string>();
  /** Creations paired lately that ended complete on both sides: a refusal may still come for them. */
  private readonly recentCreates = new Map<string, { seq: number; then: FieldEnd; names: Names }>();
  private compared = 0;
  private readonly uncompared = { then: 0, now: 0 };

  constructor(
    private readonly file: string,
    /** The recording holds env names only: the replay's env values are hidden the same way. */
    private readonly envRedacted: boolean,
  ) {}

  /** A recorded event's names (read before its trace line). */
  event(seq: number, pod: { namespace?: string | null; name?: string | null }, container: string): void {
    this.names.set(seq, { pod: `${pod.namespace ?? ''}/${pod.name ?? ''}`, container });
    if (this.names.size > MAX_PENDING) this.names.delete(this.names.keys().next().value!);
  }

  /** What the recording says the plugins did. */
  recorded(line: TraceLine): void {
    const names = this.names.get(line.seq) ?? { container: '', pod: '' };
    this.names.delete(line.seq);
    if (line.end === 'stopped') {
      // The recording ended before every probe saw it: nothing to hold the replay to.
      this.uncompared.then++;
      return;
    }
    this.join(this.then, this.now, `${line.event}/${line.container}`, { line, names }, 'then');
  }

  /**
   * The simulated runtime failed the creation of `container` (its message): probes see
   * every plugin's answer, not what the runtime does with them after the last one.
   */
  runtimeFailed(container: string, message: string): void {
    const recent = this.recentCreates.get(container);
    if (!recent) {
      this.refused.set(container, message);
      if (this.refused.size > MAX_PENDING) this.refused.delete(this.refused.keys().next().value!);
      return;
    }
    this.recentCreates.delete(container);
    const now = { value: 'failed', by: message };
    this.add(container, recent.names, [
      { seq: recent.seq, event: 'CreateContainer', field: 'outcome', key: '', then: recent.then, now },
    ]);
  }

  /** What the replay's probes found. */
  replayed(r: TraceRecord): void {
    const line = traceLine(0, r, !this.envRedacted);
    const names = { container: r.container.name, pod: `${r.pod.namespace}/${r.pod.name}` };
    this.join(this.now, this.then, `${line.event}/${line.container}`, { line, names }, 'now');
  }

  result(): CompareResult {
    for (const q of this.then.values()) this.uncompared.then += q.length;
    for (const q of this.now.values()) this.uncompared.now += q.length;
    this.then.clear();
    this.now.clear();
    const notes: string[] = [];
    if (this.envRedacted)
      notes.push(
        'environment values are not compared, only which variables are set: the recording holds names only (made without --record-env)',
      );
    if (this.uncompared.then > 0)
      notes.push(
        `${this.uncompared.then} traced event(s) of the recording were not traced in the replay: not compared`,
      );
    if (this.uncompared.now > 0)
      notes.push(`${this.uncompared.now} event(s) traced in the replay have no trace in the recording: not compared`);
    return {
      file: this.file,
      compared: this.compared,
      uncompared: { ...this.uncompared },
      containers: [...this.byContainer.values()],
      notes,
    };
  }

  private join(
    mine: Map<string, Array<{ line: TraceLine; names: Names }>>,
    theirs: Map<string, Array<{ line: TraceLine; names: Names }>>,
    key: string,
    item: { line: TraceLine; names: Names },
    side: 'then' | 'now',
  ): void {
    const other = theirs.get(key);
    if (other && other.length > 0) {
      const match = other.shift()!;
      if (other.length === 0) theirs.delete(key);
      this.pending--;
      if (side === 'then') this.pair(item, match);
      else this.pair(match, item);
      return;
    }
    const q = mine.get(key) ?? [];
    q.push(item);
    mine.set(key, q);
    if (++this.pending > MAX_PENDING) this.forgetOldest(mine, side);
  }

  private forgetOldest(mine: Map<string, Array<unknown>>, side: 'then' | 'now'): void {
    const [key, q] = mine.entries().next().value!;
    q.shift();
    if (q.length === 0) mine.delete(key);
    this.pending--;
    this.uncompared[side]++;
  }

  private pair(then: { line: TraceLine; names: Names }, now: { line: TraceLine; names: Names }): void {
    this.compared++;
    const diffs: Difference[] = [];
    const base = { seq: then.line.seq, event: then.line.event };
    const outcome = (l: TraceLine): FieldEnd =>
      l.end === 'complete' ? { value: 'complete' } : { value: 'failed', ...(l.stoppedIn ? { by: l.stoppedIn } : {}) };
    const a = outcome(then.line);
    let b = outcome(now.line);
    const id = then.line.container;
    if (then.line.event === 'CreateContainer') {
      const refusal = this.refused.get(id);
      this.refused.delete(id);
      if (refusal !== undefined) b = { value: 'failed', by: refusal };
      else if (a.value === 'complete' && b.value === 'complete') {
        this.recentCreates.set(id, { seq: then.line.seq, then: a, names: then.names });
        if (this.recentCreates.size > 1000) this.recentCreates.delete(this.recentCreates.keys().next().value!);
      }
    }
    if (a.value !== b.value) diffs.push({ ...base, field: 'outcome', key: '', then: a, now: b });
    const ends = (l: TraceLine): Map<string, FieldEnd & { field: string; key: string }> =>
      new Map(
        l.final.map((f) => [
          `${f.field}/${f.key}`,
          { field: f.field, key: f.key, ...(f.value !== undefined ? { value: f.value } : {}), by: f.by },
        ]),
      );
    const before = ends(then.line);
    const after = ends(now.line);
    for (const k of [...new Set([...before.keys(), ...after.keys()])].sort()) {
      const x = before.get(k);
      const y = after.get(k);
      // Both sides end on the same value. Set by a plugin on one side only, the other side
      // kept what the request had (the same request): a difference, unless no plugin set it at all.
      if (x && y && x.value === y.value) continue;
      const { field, key } = (x ?? y)!;
      diffs.push({ ...base, field, key, then: side(x), now: side(y) });
    }
    this.add(
      id,
      {
        container: then.names.container || now.names.container,
        pod: then.names.pod !== '/' ? then.names.pod : now.names.pod,
      },
      diffs,
    );
  }

  private add(id: string, names: Names, diffs: Difference[]): void {
    if (diffs.length === 0) return;
    const entry = this.byContainer.get(id) ?? { id, name: names.container, pod: names.pod, differences: [] };
    entry.differences.push(...diffs);
    this.byContainer.set(id, entry);
  }
}

/** One side of a field for the report: its end, or that no plugin set it (the request's value stands). */
function side(f: (FieldEnd & { field: string; key: string }) | undefined): FieldEnd {
  if (!f) return {};
  return { ...(f.value !== undefined ? { value: f.value } : {}), ...(f.by !== undefined ? { by: f.by } : {}) };
}
