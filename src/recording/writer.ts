// Writes a recording while logs or trace runs, without ever making the runtime wait: the
// handlers that answer the runtime only hand over references (event(), trace(), sync()),
// and the lines are made and written later, a batch per turn of the event loop, through
// a bounded queue. What does not fit is dropped and counted; what comes after --record-max
// is not written and counted; both counts end up in the trailer and the summary.
import type { Writable } from 'node:stream';
import { Event, eventName, eventsOfMask, syncBriefs, type ContainerBrief, type PodBrief } from '../api/index.js';
import { RecordingFile } from './file-out.js';
import {
  RECORDING_FORMAT,
  RECORDING_VERSION,
  type EndLine,
  type HeaderLine,
  type RecordingSource,
  type SegmentLine,
  type TraceLine,
} from './format.js';
import { containerJson, podJson, requestJson } from './messages.js';
import { redactFieldValue } from './redact.js';

/** Records held while the file is behind (--buffer); beyond that they are dropped and counted. */
const DEFAULT_RECORDING_QUEUE_CAPACITY = 1000;
/** Lines written per turn of the event loop: a request arriving meanwhile waits for at most one batch. */
const BATCH = 64;
/** Room kept for the trailer below --record-max. */
const TRAILER_ROOM = 1024;
/** How long after the first queued record the writer starts on them. */
const WRITE_DELAY_MS = 5;
/** How long the end waits for a file that does not take what is queued. */
const END_FLUSH_MS = 10_000;

export interface RecordingOptions {
  /** --record FILE (.gz: gzip-compressed). */
  file: string;
  /** Replace an existing file (--force). */
  force?: boolean | undefined;
  /** --record-max: bytes of lines at most (before compression); then the recording ends, not the command. */
  maxBytes?: number | undefined;
  /** --record-env: keep environment values (default: names only). */
  keepEnv?: boolean | undefined;
  /** Records held while the file is behind. */
  capacity?: number | undefined;
}

/** What a recording's header says besides what the writer knows itself. */
export interface RecordingStart {
  nrictlVersion: string;
  source: RecordingSource;
  runtime: { name: string; version: string; nriVersion?: string | undefined } | undefined;
  plugin: string;
  /** The subscription mask: the events recorded. */
  events: number;
  traced?: number;
  segments?: SegmentLine[];
  filter?: HeaderLine['filter'];
}

/** Trace's result for one event, as trace makes it (src/trace TraceRecord has this shape). */
export interface TracedEvent {
  event: string;
  container: { id: string };
  end: 'complete' | 'failed' | 'stopped';
  stoppedIn?: string;
  segments: Array<{
    label: string;
    plugins: string[];
    calibration: boolean;
    ms?: number;
    changes: Array<{ field: string; key: string; old?: string; new?: string }>;
  }>;
}

/** Which pods and containers of the Synchronize state to keep (the filters). */
export type StateSelection = (
  pods: readonly PodBrief[],
  containers: readonly ContainerBrief[],
) => { pods: PodBrief[]; containers: ContainerBrief[] };

/** How a recording ended, for the summary. */
export interface RecordingSummary {
  file: string;
  written: number;
  dropped: number;
  truncated: number;
  /** The file is in place, whole, with its trailer. */
  complete: boolean;
  /** Why it is not (a write error); nothing was left at `file`. */
  error?: string;
  /** --record-max stopped it. */
  full?: { maxBytes: number };
}

/** What the writer says while it runs (for people, on stderr). */
export type RecordingNote = { kind: 'recording-full'; file: string; maxBytes: number };

type Item =
  | { kind: 'event'; seq: number; t: number; event: Event; request: object }
  | { kind: 'trace'; seq: number; traced: TracedEvent }
  | { kind: 'gap'; t: number; ms: number };

export class RecordingWriter {
  private readonly startedAt = Date.now();
  private readonly capacity: number;
  private readonly queue: Item[] = [];
  private head = 0;
  private seq = 0;
  private header: string | undefined;
  private state: Iterator<string> | undefined;
  private statePayloads: { payloads: readonly Uint8Array[]; select?: StateSelection | undefined } | undefined;
  private begun = false;
  private ended = false;
  private pumping = false;
  private full = false;
  private bytes = 0;
  private readonly counts = { written: 0, dropped: 0, truncated: 0 };
  private idle: Array<() => void> = [];

  private constructor(
    private readonly file: RecordingFile,
    private readonly opts: RecordingOptions,
    private readonly notes: (note: RecordingNote) => void,
  ) {
    this.capacity = opts.capacity ?? DEFAULT_RECORDING_QUEUE_CAPACITY;
  }

  /** Creates the (temporary) file: throws a RecordingError before anything else starts. */
  static async open(opts: RecordingOptions, notes: (note: RecordingNote) => void = () => {}): Promise<RecordingWriter> {
    return new RecordingWriter(await RecordingFile.create(opts.file, opts.force === true), opts, notes);
  }

  /** The Synchronize state, as the runtime sent it; the first one only (a reconnect's is not recorded). */
  sync(payloads: readonly Uint8Array[], select?: StateSelection): void {
    this.statePayloads ??= { payloads, select };
  }

  /** Registered: writes the header, the state, then what came and comes. */
  begin(start: RecordingStart): void {
    if (this.begun || this.ended) return;
    this.begun = true;
    const header: HeaderLine = {
      format: RECORDING_FORMAT,
      version: RECORDING_VERSION,
      nrictlVersion: start.nrictlVersion,
      source: start.source,
      started: new Date(this.startedAt).toISOString(),
      runtime: {
        name: start.runtime?.name ?? '',
        version: start.runtime?.version ?? '',
        ...(start.runtime?.nriVersion ? { nriVersion: start.runtime.nriVersion } : {}),
      },
      plugin: start.plugin,
      events: eventsOfMask(start.events).map(eventName),
      ...(start.traced !== undefined ? { traced: eventsOfMask(start.traced).map(eventName) } : {}),
      ...(start.segments ? { segments: start.segments } : {}),
      ...(start.filter && Object.keys(start.filter).length > 0 ? { filter: start.filter } : {}),
      redacted: this.opts.keepEnv ? [] : ['env'],
    };
    this.header = JSON.stringify(header);
    const s = this.statePayloads;
    this.state = stateLines(s?.payloads ?? [], s?.select, this.opts.keepEnv === true);
    this.schedule();
  }

  /** An event as the runtime sent it (on the reply path: stores references, returns its number). */
  event(event: Event, request: object): number {
    const seq = ++this.seq;
    this.push({ kind: 'event', seq, t: Date.now() - this.startedAt, event, request });
    return seq;
  }

  /** What trace found the plugins did to event `seq`. */
  trace(seq: number, traced: TracedEvent): void {
    this.push({ kind: 'trace', seq, traced });
  }

  /** The runtime was gone for `ms`: the events then were not seen. */
  gap(ms: number): void {
    this.push({ kind: 'gap', t: Date.now() - this.startedAt, ms });
  }

  /**
   * Writes what is queued (for at most END_FLUSH_MS; the rest counts as dropped), the
   * trailer, and puts the file in place. Before begin() (the registration failed) the
   * temporary file is removed and nothing is left.
   */
  async end(): Promise<RecordingSummary> {
    const summary = (): RecordingSummary => ({
      file: this.opts.file,
      ...this.counts,
      complete: false,
      ...(this.full && this.opts.maxBytes !== undefined ? { full: { maxBytes: this.opts.maxBytes } } : {}),
    });
    if (this.ended) return summary();
    this.ended = true;
    if (!this.begun) {
      await this.file.discard();
      return { ...summary(), error: 'nothing was recorded' };
    }
    if (!(await this.whenIdle(END_FLUSH_MS))) this.dropQueued();
    try {
      if (this.file.error) throw this.file.error;
      const end: EndLine = { type: 'end', ended: new Date().toISOString(), records: { ...this.counts } };
      if (this.full) end.note = `stopped at --record-max (${this.opts.maxBytes} bytes): later records were not written`;
      this.file.out.write(`${JSON.stringify(end)}\n`);
      await this.file.finish();
    } catch (err) {
      await this.file.discard();
      return { ...summary(), error: (err as Error).message };
    }
    return { ...summary(), complete: true };
  }

  private push(item: Item): void {
    if (this.ended || this.full || this.file.error) {
      if (this.full) this.counts.truncated++;
      else this.counts.dropped++;
      return;
    }
    if (this.queue.length - this.head >= this.capacity) {
      this.counts.dropped++;
      return;
    }
    this.queue.push(item);
    if (this.begun) this.schedule();
  }

  private schedule(): void {
    if (this.pumping) return;
    this.pumping = true;
    // Not on the next turn: an event's follow-up (PostCreateContainer after CreateContainer)
    // comes a fraction of a millisecond later, and the runtime waits for its answer; the
    // lines are made once that burst is answered.
    setTimeout(() => void this.pump(), WRITE_DELAY_MS);
  }

  /** Writes lines a batch per turn, waiting for the file's 'drain' when it is behind. */
  private async pump(): Promise<void> {
    const out = this.file.out;
    for (;;) {
      let room = true;
      for (let n = 0; n < BATCH && room; n++) {
        const line = this.nextLine();
        if (line === undefined) break;
        room = out.write(line);
      }
      if (this.file.error) this.dropQueued();
      if (!room) await drainOrError(out);
      else if (this.pending()) await new Promise<void>((resolve) => setImmediate(resolve));
      else break;
    }
    this.pumping = false;
    const waiters = this.idle;
    this.idle = [];
    for (const w of waiters) w();
  }

  private pending(): boolean {
    return !this.file.error && (this.header !== undefined || this.state !== undefined || this.head < this.queue.length);
  }

  /** The next line to write (with its newline), or undefined when there is none. */
  private nextLine(): string | undefined {
    if (this.file.error) return undefined;
    if (this.header !== undefined) {
      const h = this.header;
      this.header = undefined;
      return this.fits(`${h}\n`, false);
    }
    while (this.state) {
      let next: IteratorResult<string>;
      try {
        next = this.state.next();
      } catch {
        // A state the runtime's own decoder took, that ours cannot write: the state ends here.
        this.state = undefined;
        break;
      }
      if (next.done) this.state = undefined;
      else if (!this.full) {
        const line = this.fits(`${next.value}\n`, false);
        if (line !== undefined) return line;
      }
    }
    while (this.head < this.queue.length) {
      const item = this.queue[this.head];
      this.queue[this.head++] = undefined as unknown as Item;
      if (this.head === this.queue.length) this.queue.length = this.head = 0;
      if (this.full) {
        this.counts.truncated++;
        continue;
      }
      let text: string;
      try {
        text = this.render(item);
      } catch {
        // Never the command's end: a record that cannot be written counts as dropped.
        this.counts.dropped++;
        continue;
      }
      const line = this.fits(`${text}\n`, true);
      if (line !== undefined) {
        this.counts.written++;
        return line;
      }
    }
    return undefined;
  }

  /** The line if it fits under --record-max; else the recording is full from here on. */
  private fits(line: string, record: boolean): string | undefined {
    const size = Buffer.byteLength(line);
    const max = this.opts.maxBytes;
    if (max !== undefined && this.bytes + size + TRAILER_ROOM > max) {
      if (record) this.counts.truncated++;
      if (!this.full) {
        this.full = true;
        this.notes({ kind: 'recording-full', file: this.opts.file, maxBytes: max });
      }
      return undefined;
    }
    this.bytes += size;
    return line;
  }

  private render(item: Item): string {
    const keepEnv = this.opts.keepEnv === true;
    switch (item.kind) {
      case 'event':
        return JSON.stringify({
          type: 'event',
          seq: item.seq,
          t: item.t,
          event: eventName(item.event),
          request: requestJson(item.event, item.request, keepEnv),
        });
      case 'trace':
        return JSON.stringify(traceLine(item.seq, item.traced, keepEnv));
      case 'gap':
        return JSON.stringify({ type: 'gap', t: item.t, ms: item.ms });
    }
  }

  private dropQueued(): void {
    this.counts.dropped += this.queue.length - this.head;
    this.queue.length = this.head = 0;
  }

  /** Resolves true once everything queued is handed to the file, false after timeoutMs. */
  private whenIdle(timeoutMs: number): Promise<boolean> {
    if (!this.pumping && !this.pending()) return Promise.resolve(true);
    this.schedule();
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      timer.unref();
      this.idle.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }
}

/** Resolves once a stream that was full takes more, or failed (then nothing more is written). */
function drainOrError(out: Writable): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      out.off('drain', done);
      out.off('error', done);
      out.off('close', done);
      resolve();
    };
    out.on('drain', done);
    out.on('error', done);
    out.on('close', done);
  });
}

/** The state's lines, made one at a time as the writer asks (a node's state is written over many turns). */
function* stateLines(payloads: readonly Uint8Array[], select: StateSelection | undefined, keepEnv: boolean) {
  const all = syncBriefs(payloads);
  const { pods, containers } = select ? select(all.pods, all.containers) : all;
  for (const p of pods) yield JSON.stringify({ type: 'pod', pod: podJson(p.complete()) });
  for (const c of containers)
    yield JSON.stringify({ type: 'container', container: containerJson(c.complete(), keepEnv) });
  yield JSON.stringify({ type: 'synced', pods: pods.length, containers: containers.length });
}

/**
 * A trace result as its line: the segments with plugins, and each changed field as it
 * ended (what a replay's --compare holds a replay's trace to, made the same way).
 */
export function traceLine(seq: number, r: TracedEvent, keepEnv: boolean): TraceLine {
  const value = (field: string, v: string | undefined) => (keepEnv ? v : redactFieldValue(field, v));
  const final = new Map<string, TraceLine['final'][number]>();
  const segments = r.segments
    .filter((s) => !s.calibration)
    .map((s) => {
      const changes = s.changes.map((c) => {
        const old = value(c.field, c.old);
        const now = value(c.field, c.new);
        final.set(`${c.field}/${c.key}`, {
          field: c.field,
          key: c.key,
          ...(now !== undefined ? { value: now } : {}),
          by: s.label,
        });
        return {
          field: c.field,
          key: c.key,
          ...(old !== undefined ? { old } : {}),
          ...(now !== undefined ? { new: now } : {}),
        };
      });
      return {
        label: s.label,
        plugins: s.plugins,
        ...(s.ms !== undefined ? { ms: Math.round(s.ms * 1000) / 1000 } : {}),
        changes,
      };
    });
  return {
    type: 'trace',
    seq,
    event: r.event,
    container: r.container.id,
    end: r.end,
    ...(r.stoppedIn !== undefined ? { stoppedIn: r.stoppedIn } : {}),
    segments,
    final: [...final.values()],
  };
}
