// `nrictl sim --replay`: a recording (src/recording) replayed through the simulator's own
// lifecycle against the plugins under test, and (--compare) what they now do differently
// from the plugins that ran on the node.
export { replayRecording, type ReplayOptions, type ReplayResult, type ReplaySummary } from './replay.js';
export { type CompareResult, type ContainerDifferences, type Difference, type FieldEnd } from './compare.js';
