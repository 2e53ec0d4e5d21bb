// The lines of a recording (docs/recording.md is their one description): JSON Lines, the
// header first, then the Synchronize state, then the events in the order they came, trace
// results after their events, and a trailer with the counts. Types and constants only:
// pure, so both the writer and the reader (and a test) build on the same words.

/** What the header's `format` says, so a reader knows the file from any other JSON lines. */
export const RECORDING_FORMAT = 'nrictl-recording';
/** The version this nrictl writes, and the newest it reads. */
export const RECORDING_VERSION = 1;
/** What an environment variable's value becomes in a recording made without --record-env. */
export const REDACTED = '<redacted>';

/** Which command made it: `logs` (events as its plugin got them) or `trace` (events and what each plugin changed). */
export type RecordingSource = 'logs' | 'trace';

export interface RuntimeIdentityLine {
  /** As the runtime named itself in Configure. */
  name: string;
  version: string;
  /** The NRI version it said in Configure (v0.12 and later); absent when it did not say. */
  nriVersion?: string;
}

/** One segment of trace's plan: the plugins between two probes. */
export interface SegmentLine {
  label: string;
  plugins: string[];
}

export interface HeaderLine {
  format: typeof RECORDING_FORMAT;
  version: number;
  nrictlVersion: string;
  source: RecordingSource;
  /** When the recording started (RFC 3339, UTC); every `t` counts from here. */
  started: string;
  runtime: RuntimeIdentityLine;
  /** The plugin that recorded ("00-nrictl-logs", trace's first probe "09-nrictl-trace"). */
  plugin: string;
  /** The events recorded (the subscription), by name. */
  events: string[];
  /** trace: the events traced (what each plugin changed is recorded for these). */
  traced?: string[];
  /** trace: the probes and the plugins between them. */
  segments?: SegmentLine[];
  /** --namespace, --pod, --container, --label: only what they select was recorded. */
  filter?: { namespace?: string; pod?: string; container?: string; labels?: string[] };
  /** What was replaced by REDACTED: ["env"] (the default), or [] with --record-env. */
  redacted: string[];
}

/** A pod of the Synchronize state, in the protobuf JSON mapping. */
export interface PodLine {
  type: 'pod';
  pod: Record<string, unknown>;
}

export interface ContainerLine {
  type: 'container';
  container: Record<string, unknown>;
}

/** The end of the Synchronize state: what a replay starts from is complete. */
export interface SyncedLine {
  type: 'synced';
  pods: number;
  containers: number;
}

export interface EventLine {
  type: 'event';
  /** 1, 2, 3 ... in the order the events came; a trace line names its event by it. */
  seq: number;
  /** Milliseconds since the header's `started`. */
  t: number;
  /** "CreateContainer", as eventName() writes it. */
  event: string;
  /** The request (CreateContainerRequest ...) in the protobuf JSON mapping. */
  request: Record<string, unknown>;
}

export interface ChangeLine {
  field: string;
  key: string;
  old?: string;
  new?: string;
}

/** trace: what the plugins did to one event's container. */
export interface TraceLine {
  type: 'trace';
  seq: number;
  event: string;
  container: string;
  /** complete: every probe saw it; failed: a plugin failed it or plugins conflicted (stoppedIn); stopped: trace ended meanwhile. */
  end: 'complete' | 'failed' | 'stopped';
  stoppedIn?: string;
  segments: Array<SegmentLine & { ms?: number; changes: ChangeLine[] }>;
  /** The runtime's final answer: each field a plugin changed, as it ended, and who set it last (no value: removed). */
  final: Array<{ field: string; key: string; value?: string; by: string }>;
}

/** The runtime went away and came back (logs --reconnect): the events in between were not seen. */
export interface GapLine {
  type: 'gap';
  t: number;
  ms: number;
}

export interface EndLine {
  type: 'end';
  ended: string;
  /** Event and trace lines: written; dropped (the file could not keep up); not written past --record-max. */
  records: { written: number; dropped: number; truncated: number };
  note?: string;
}

export type BodyLine = PodLine | ContainerLine | SyncedLine | EventLine | TraceLine | GapLine | EndLine;
