// `nrictl sync dump` as a library: register, take the Synchronize state, leave, and keep
// what the filters select.
import type { nri } from '../api/index.js';
import { fetchState, sessionNotes, type SessionNote, type SessionOptions } from '../session/index.js';
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
  pods: nri.IPodSandbox[];
  containers: nri.IContainer[];
  /** True when filters were given: then an empty state may be the filters' doing. */
  filtered: boolean;
}

export async function dumpState(opts: DumpOptions): Promise<RuntimeState> {
  // A bad filter is the user's mistake, reported before touching the runtime.
  const filter = new ObjectFilter(opts.filter);
  const state = await fetchState({ ...opts, ...sessionNotes(opts.target, opts.notes) });
  const { pods, containers } = filter.selectState(state.pods, state.containers);
  const runtime = state.runtime ? { name: state.runtime.name, version: state.runtime.version } : undefined;
  return { ...(runtime ? { runtime } : {}), pods, containers, filtered: !filter.empty };
}
