// `nrictl sync dump` as a library: register, take the Synchronize state, leave, and keep
// what the filters select. The state stays as the runtime sent it (bytes): each pod and
// container is read in brief for the table and the filters, and decoded whole only when
// its complete data is asked for, one at a time, so that a node's state can be printed
// without holding it decoded.
import {
  syncBriefs,
  wireJsonType,
  WireJsonWriter,
  type ContainerBrief,
  type nri,
  type PodBrief,
  type WireJsonList,
} from '../api/index.js';
import { fetchStatePayloads, sessionNotes, type SessionNote, type SessionOptions } from '../session/index.js';
import { ObjectFilter, type FilterSpec } from './filters.js';

export interface DumpOptions extends Omit<SessionOptions, 'onProgress' | 'onWarning'> {
  filter?: FilterSpec | undefined;
  /** What people are told while it connects. */
  notes?: ((note: SessionNote) => void) | undefined;
}

/** The runtime's pods and containers, as it synchronizes them to a plugin. */
export interface RuntimeState {
  /** As the runtime names itself, when it does. */
  runtime?: { name: string; version: string };
  /**
   * The selected pods and containers in brief, in the order the runtime sent them: id,
   * name, namespace, pod id, state, and (read on first use) labels and linux.resources.
   */
  pods: PodBrief[];
  containers: ContainerBrief[];
  /** The same pods and containers complete, each decoded as it is reached (every call decodes afresh). */
  completePods(): Iterable<nri.PodSandbox>;
  completeContainers(): Iterable<nri.Container>;
  /**
   * The same pods and containers as the runtime's bytes, and a writer of their JSON text
   * straight from those (src/api/wire-json.ts): -o json without decoding each message.
   */
  wire(): { writer: WireJsonWriter; pods: WireJsonList; containers: WireJsonList };
  /** True when filters were given: then an empty state may be the filters' doing. */
  filtered: boolean;
}

export async function dumpState(opts: DumpOptions): Promise<RuntimeState> {
  // A bad filter is the user's mistake, reported before touching the runtime.
  const filter = new ObjectFilter(opts.filter);
  const state = await fetchStatePayloads({ ...opts, ...sessionNotes(opts.target, opts.notes) });
  const all = syncBriefs(state.payloads);
  const { pods, containers } = filter.selectState(all.pods, all.containers);
  const runtime = state.runtime ? { name: state.runtime.name, version: state.runtime.version } : undefined;
  return {
    ...(runtime ? { runtime } : {}),
    pods,
    containers,
    completePods: () => completeEach(pods),
    completeContainers: () => completeEach(containers),
    wire: () => ({
      writer: new WireJsonWriter(),
      pods: { type: wireJsonType('PodSandbox'), items: wireEach(pods) },
      containers: { type: wireJsonType('Container'), items: wireEach(containers) },
    }),
    filtered: !filter.empty,
  };
}

function* completeEach<T>(briefs: readonly { complete(): T }[]): Iterable<T> {
  for (const b of briefs) yield b.complete();
}

function* wireEach(briefs: readonly { wire(): Uint8Array }[]): Iterable<Uint8Array> {
  for (const b of briefs) yield b.wire();
}
