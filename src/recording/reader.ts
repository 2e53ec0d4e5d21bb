// Reads a recording back, line by line: a file `logs --record` or `trace --record` wrote
// (docs/recording.md), or the JSON lines `logs -o json` printed. The first line says
// which. Every line is checked as it is read, and the first one that is wrong ends the
// reading with one error naming the file, the line and what was wrong; checkRecording()
// reads the whole file that way before a replay starts anything.
import { Event, EVENT_NAMES, nri, unknownJsonFields } from '../api/index.js';
import { badRecording } from './errors.js';
import { RECORDING_FORMAT, RECORDING_VERSION, type EndLine, type HeaderLine, type TraceLine } from './format.js';
import { readLines, type Line } from './lines.js';
import { containerFromJson, eventByName, podFromJson, requestFromJson } from './messages.js';

type Json = Record<string, unknown>;

export type RecordingEntry =
  | { kind: 'pod'; line: number; pod: nri.PodSandbox }
  | { kind: 'container'; line: number; container: nri.Container }
  | { kind: 'synced'; line: number }
  | {
      kind: 'event';
      line: number;
      seq: number;
      /** ms since the recording started; undefined when the file has no timing. */
      t: number | undefined;
      event: Event;
      /** The request, as the message the runtime sent (CreateContainerRequest ...). */
      request: { pod?: nri.IPodSandbox | null; container?: nri.IContainer | null } & Json;
    }
  | { kind: 'trace'; line: number; trace: TraceLine }
  | { kind: 'gap'; line: number; t: number; ms: number }
  | { kind: 'end'; line: number; end: EndLine };

/** What kind of file it is, from its first line. */
export type RecordingInfo =
  { file: string; format: 'recording'; header: HeaderLine } | { file: string; format: 'logs-json' };

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Fields of the recorded pods, containers and requests that this nrictl's nri.proto does
 * not have (a newer NRI's, a runtime's own): the decoder leaves them out, and this counts
 * them so that a reader can say so. Filled as the lines are read.
 */
export interface UnknownFields {
  /** Lines that carried at least one. */
  lines: number;
  /** Each field's dotted path (pod.foo, container.linux.bar) -> the lines that carried it. */
  paths: Map<string, number>;
}

/** Turns lines into entries, holding what the order of the lines must respect. */
class EntryParser {
  info: RecordingInfo | undefined;
  private stage: 'state' | 'events' | 'ended' = 'state';
  private seq = 0;
  private firstTime: number | undefined;
  readonly unknown: UnknownFields = { lines: 0, paths: new Map() };

  constructor(private readonly file: string) {}

  /** Counts what message `type` does not know in one line's `json` (unknownJsonFields). */
  private noteUnknown(type: string, json: unknown, prefix = ''): void {
    const seen = new Set<string>();
    unknownJsonFields(type, json, (path) => seen.add(path), prefix);
    if (seen.size === 0) return;
    this.unknown.lines++;
    for (const path of seen) this.unknown.paths.set(path, (this.unknown.paths.get(path) ?? 0) + 1);
  }

  private bad(n: number, what: string): Error {
    return badRecording(this.file, n, what);
  }

  parse(line: Line): RecordingEntry | undefined {
    const { n } = line;
    if (line.text.trim() === '' && !line.partial) {
      if (n === 1) throw this.bad(n, 'empty: not an nrictl recording nor the output of nrictl logs -o json');
      return undefined;
    }
    let v: unknown;
    try {
      v = JSON.parse(line.text);
    } catch (err) {
      if (line.partial)
        throw this.bad(n, 'the file ends inside this line: it was cut short (copied while being written?)');
      throw this.bad(n, `not JSON (${(err as Error).message})`);
    }
    if (!isObject(v)) throw this.bad(n, 'not a JSON object');
    if (line.partial && this.info?.format === 'recording')
      throw this.bad(n, 'the file ends without a newline after this line: it was cut short');
    if (n === 1) return this.first(v, n);
    if (this.info!.format === 'logs-json') return this.logsLine(v, n);
    return this.recordingLine(v, n);
  }

  /** The end of the file: a recording must have ended with its trailer. */
  finish(lastLine: number): void {
    if (this.info === undefined) throw this.bad(1, 'the file is empty: not an nrictl recording');
    if (this.info.format === 'recording' && this.stage !== 'ended')
      throw this.bad(
        lastLine + 1,
        'the recording ends without its trailer: it was cut short (copied while being written, or nrictl was killed)',
      );
  }

  private first(v: Json, n: number): RecordingEntry | undefined {
    if (v.format === RECORDING_FORMAT) {
      if (typeof v.version !== 'number') throw this.bad(n, 'a recording header without a version');
      if (v.version > RECORDING_VERSION)
        throw this.bad(
          n,
          `recorded in format version ${v.version} by nrictl ${typeof v.nrictlVersion === 'string' ? v.nrictlVersion : '(unknown)'}, newer than this nrictl reads (${RECORDING_VERSION}): upgrade nrictl`,
        );
      if (!['logs', 'trace'].includes(v.source as string) || !isObject(v.runtime) || !Array.isArray(v.events))
        throw this.bad(n, 'a recording header without source, runtime or events');
      this.info = { file: this.file, format: 'recording', header: v as unknown as HeaderLine };
      return undefined;
    }
    if (typeof v.event === 'string' && isObject(v.pod)) {
      this.info = { file: this.file, format: 'logs-json' };
      this.stage = 'events';
      return this.logsLine(v, n);
    }
    throw this.bad(n, 'not an nrictl recording (no "format": "nrictl-recording") nor a line of nrictl logs -o json');
  }

  private eventOf(name: unknown, n: number): Event {
    const event = typeof name === 'string' ? eventByName(name) : undefined;
    if (event === undefined)
      throw this.bad(n, `unknown event ${JSON.stringify(name)} (recorded by a newer nrictl or runtime?)`);
    return event;
  }

  private request(event: Event, json: Json, n: number, name: string): RecordingEntry & { kind: 'event' } {
    let request: object;
    try {
      request = requestFromJson(event, json);
    } catch (err) {
      throw this.bad(n, `the ${name} request cannot be read: ${(err as Error).message}`);
    }
    const r = request as { pod?: nri.IPodSandbox | null; container?: nri.IContainer | null } & Json;
    if (!r.pod?.id && event !== Event.VALIDATE_CONTAINER_ADJUSTMENT)
      throw this.bad(n, `the ${name} request names no pod (pod.id)`);
    return { kind: 'event', line: n, seq: 0, t: undefined, event, request: r };
  }

  /** A line `logs -o json` printed: {time, event, pod, container, linuxResources, overheadLinuxResources ...}. */
  private logsLine(v: Json, n: number): RecordingEntry | undefined {
    if (typeof v.event !== 'string' || !isObject(v.pod))
      throw this.bad(n, 'not a line of nrictl logs -o json (an object with "event" and "pod")');
    const event = this.eventOf(v.event, n);
    const json: Json = { pod: v.pod };
    if (v.container !== undefined) json.container = v.container;
    if (v.linuxResources !== undefined) json.linuxResources = v.linuxResources;
    if (v.overheadLinuxResources !== undefined) json.overheadLinuxResources = v.overheadLinuxResources;
    // The line's own keys (time, plugin, adjust, ...) are logs' own, not the request's.
    this.noteUnknown(`${EVENT_NAMES[event]}Request`, json);
    for (const k of ['adjust', 'update', 'owners', 'plugins']) if (v[k] !== undefined) json[k] = v[k];
    const entry = this.request(event, json, n, v.event);
    const time = typeof v.time === 'string' ? Date.parse(v.time) : NaN;
    this.firstTime ??= Number.isNaN(time) ? undefined : time;
    entry.seq = ++this.seq;
    entry.t = Number.isNaN(time) || this.firstTime === undefined ? undefined : Math.max(0, time - this.firstTime);
    return entry;
  }

  private recordingLine(v: Json, n: number): RecordingEntry | undefined {
    if (this.stage === 'ended') throw this.bad(n, 'a line after the trailer');
    const type = v.type;
    const inState = (what: string): void => {
      if (this.stage !== 'state') throw this.bad(n, `${what} after the events began`);
    };
    switch (type) {
      case 'pod':
        inState('a pod of the Synchronize state');
        if (!isObject(v.pod)) throw this.bad(n, 'a pod line without its pod');
        this.noteUnknown('PodSandbox', v.pod, 'pod.');
        return { kind: 'pod', line: n, pod: this.convert(() => podFromJson(v.pod as Json), n, 'pod') };
      case 'container':
        inState('a container of the Synchronize state');
        if (!isObject(v.container)) throw this.bad(n, 'a container line without its container');
        this.noteUnknown('Container', v.container, 'container.');
        return {
          kind: 'container',
          line: n,
          container: this.convert(() => containerFromJson(v.container as Json), n, 'container'),
        };
      case 'synced':
        inState('the end of the Synchronize state');
        this.stage = 'events';
        return { kind: 'synced', line: n };
      case 'event': {
        this.stage = 'events';
        if (!Number.isInteger(v.seq) || (v.seq as number) <= this.seq)
          throw this.bad(n, `event number ${String(v.seq)} out of order (after ${this.seq})`);
        if (typeof v.t !== 'number' || !(v.t >= 0)) throw this.bad(n, 'an event without its time (t)');
        if (!isObject(v.request)) throw this.bad(n, 'an event without its request');
        const event = this.eventOf(v.event, n);
        this.noteUnknown(`${EVENT_NAMES[event]}Request`, v.request);
        const entry = this.request(event, v.request, n, v.event as string);
        this.seq = entry.seq = v.seq as number;
        entry.t = v.t;
        return entry;
      }
      case 'trace':
        if (
          !Number.isInteger(v.seq) ||
          typeof v.container !== 'string' ||
          !Array.isArray(v.segments) ||
          !Array.isArray(v.final)
        )
          throw this.bad(n, 'a trace line without seq, container, segments or final');
        this.eventOf(v.event, n);
        return { kind: 'trace', line: n, trace: v as unknown as TraceLine };
      case 'gap':
        if (typeof v.t !== 'number' || typeof v.ms !== 'number') throw this.bad(n, 'a gap line without t and ms');
        return { kind: 'gap', line: n, t: v.t, ms: v.ms };
      case 'end':
        if (!isObject(v.records)) throw this.bad(n, 'a trailer without its counts');
        this.stage = 'ended';
        return { kind: 'end', line: n, end: v as unknown as EndLine };
      default:
        throw this.bad(n, `unknown line type ${JSON.stringify(type)}`);
    }
  }

  private convert<T>(make: () => T, n: number, what: string): T {
    try {
      return make();
    } catch (err) {
      throw this.bad(n, `the ${what} cannot be read: ${(err as Error).message}`);
    }
  }
}

export interface Recording {
  info: RecordingInfo;
  /** The entries after the first line (a logs -o json file's first line is its first event). */
  entries: AsyncIterable<RecordingEntry>;
  /** What the lines read so far carried that this nrictl does not know (left out of the entries). */
  unknown: UnknownFields;
}

/** Opens a recording and reads its first line; the rest is read as `entries` is iterated (once). */
export async function openRecording(file: string): Promise<Recording> {
  const parser = new EntryParser(file);
  const lines = readLines(file);
  const first = await lines.next();
  if (first.done) parser.finish(0);
  const head = parser.parse(first.value as Line);
  async function* entries(): AsyncGenerator<RecordingEntry> {
    let last = 1;
    try {
      if (head) yield head;
      for await (const line of lines) {
        last = line.n;
        const e = parser.parse(line);
        if (e) yield e;
      }
    } finally {
      await lines.return(undefined);
    }
    parser.finish(last);
  }
  return { info: parser.info!, entries: entries(), unknown: parser.unknown };
}

/** What a whole recording holds, read once to the end. */
export interface RecordingCheck {
  info: RecordingInfo;
  pods: number;
  containers: number;
  /** The Synchronize state ended with its `synced` line (a recording cut by --record-max may lack it). */
  synced: boolean;
  events: number;
  /** Every event has its time (a logs -o json line may lack one). */
  timed: boolean;
  traces: number;
  gaps: number;
  /** ms from the first event to the last (0 without timing). */
  spanMs: number;
  end?: EndLine;
  /** Fields of pods, containers and requests this nrictl does not know, left out. */
  unknown: UnknownFields;
}

/**
 * Reads the whole file, checking every line, holding one at a time. Throws the first
 * problem (a RecordingError): a replay checks this before it starts anything.
 */
export async function checkRecording(file: string, onEntry?: (e: RecordingEntry) => void): Promise<RecordingCheck> {
  const { info, entries, unknown } = await openRecording(file);
  const check: RecordingCheck = {
    unknown,
    info,
    pods: 0,
    containers: 0,
    synced: false,
    events: 0,
    timed: true,
    traces: 0,
    gaps: 0,
    spanMs: 0,
  };
  let first: number | undefined;
  for await (const e of entries) {
    onEntry?.(e);
    if (e.kind === 'pod') check.pods++;
    else if (e.kind === 'container') check.containers++;
    else if (e.kind === 'synced') check.synced = true;
    else if (e.kind === 'event') {
      check.events++;
      if (e.t !== undefined) {
        first ??= e.t;
        check.spanMs = e.t - first;
      } else check.timed = false;
    } else if (e.kind === 'trace') check.traces++;
    else if (e.kind === 'gap') check.gaps++;
    else check.end = e.end;
  }
  return check;
}
