// `nrictl sim --replay`: a recording (src/recording) replayed through the simulator's own
// lifecycle against the plugins under test, and (--compare) what they now do differently
// from the plugins that ran on the node.
// This file loads none of it: replayRecording loads the replay (the recording reader,
// trace's probes and sessions, zlib, http) on first use, so that `sim` without --replay,
// which imports this layer, does not pay for it at start-up.
import type { ReplayOptions, ReplayResult } from './replay.js';

export type { ReplayOptions, ReplayResult, ReplaySummary } from './replay.js';
export type { CompareResult, ContainerDifferences, Difference, FieldEnd } from './compare.js';

/** Replays `opts.replay` through the simulator; loads the replay's code on first use. */
export async function replayRecording(opts: ReplayOptions, signal: AbortSignal): Promise<ReplayResult> {
  const replay = await import('./replay.js');
  return replay.replayRecording(opts, signal);
}
