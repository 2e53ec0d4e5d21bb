// `nrictl sim --preset all`: the same scenario (and expectation file) run once per
// runtime release line, one after the other, each on a fresh simulated runtime with
// the pre-started plugins launched anew. One result per preset: what the expectations
// said, and which plugins that runtime refused at start-up (an event it does not know,
// a name it forbids), or that the runtime itself would not come up because of one
// (containerd 1.7.0-1.7.25), which is what an author most wants to learn before deploying.
import { runtimeVintage } from '../adaptation/index.js';
import { RELEASE_PRESETS, RUNTIME_PRESETS } from './presets.js';
import { SimulationInputError } from './inputs.js';
import { RuntimeStartError } from './start-failure.js';
import { runSimulation, type SimulationOptions, type SimulationRecord, type SimulationResult } from './run.js';

/** A record of one preset's run, or the line that starts it. */
export type PresetRecord =
  | (SimulationRecord & { preset: string })
  | { type: 'preset'; preset: string; time: number; runtimeName: string; runtimeVersion: string; nriVersion: string };

export interface PresetResult {
  preset: string;
  runtimeName: string;
  runtimeVersion: string;
  nriVersion: string;
  /** Plugins the runtime would not start, with its words. */
  refused: Array<{ plugin: string; message: string }>;
  /**
   * The runtime itself did not come up (NRI before v0.7 and a pre-started plugin that
   * failed to start): the plugin, the runtime's log line, the whole one-line error.
   * Nothing of the scenario ran.
   */
  startFailure?: { plugin: string; log: string; message: string };
  /** Expectations failed, a plugin was refused, or the runtime did not start. */
  ok: boolean;
  result: SimulationResult;
}

export interface PresetsResult {
  presets: PresetResult[];
  /** The signal ended the runs; presets not reached are not listed. */
  stopped: boolean;
}

/** Options of runSimulation that a run per preset sets itself or cannot honour. */
const PER_PRESET = [
  'preset',
  'nriVersion',
  'runtimeName',
  'runtimeVersion',
  'keepRunning',
  'drive',
  'generate',
  'criSocketPath',
] as const;

/**
 * Runs the scenario once per release preset (RELEASE_PRESETS), in order, until done or
 * the signal. A scenario (or an expectation file naming one) is required: without a
 * script a run would serve until stopped.
 */
export async function runSimulationPerPreset(
  opts: Omit<SimulationOptions, 'preset'>,
  signal: AbortSignal,
  onRecord?: (r: PresetRecord) => void,
): Promise<PresetsResult> {
  for (const key of PER_PRESET) {
    if ((opts as Record<string, unknown>)[key] !== undefined)
      throw new SimulationInputError(
        'not with preset all: every preset sets its own runtime and runs its script to its end',
        'usage',
        key,
      );
  }
  if (opts.scenario === undefined && opts.expect === undefined)
    throw new SimulationInputError(
      'preset all runs a scenario once per preset: give SCENARIO or --expect',
      'usage',
      'preset',
    );
  const out: PresetsResult = { presets: [], stopped: false };
  for (const preset of RELEASE_PRESETS) {
    if (signal.aborted) break;
    const p = RUNTIME_PRESETS[preset];
    const who = { runtimeName: p.runtimeName, runtimeVersion: p.runtimeVersion, nriVersion: p.nriVersion };
    onRecord?.({ type: 'preset', preset, time: Date.now(), ...who });
    const refused: PresetResult['refused'] = [];
    // The default validator only where the runtime has one (NRI v0.10+, not Docker).
    const validator = opts.validator !== undefined && runtimeVintage(p.nriVersion).validation && !p.quirks?.docker;
    let result: SimulationResult;
    let startFailure: PresetResult['startFailure'];
    try {
      result = await runSimulation(
        {
          ...opts,
          ...(validator ? {} : { validator: undefined }),
          preset,
          onRecord: (r) => {
            // A plugin error outside any event: one the runtime did not start (its words).
            if (r.type === 'error' && r.plugin !== undefined && r.event === undefined)
              refused.push({ plugin: r.plugin, message: r.message });
            onRecord?.({ ...r, preset });
          },
        },
        signal,
      );
    } catch (err) {
      // That runtime would not come up: this preset's result, and on to the next one.
      if (!(err instanceof RuntimeStartError)) throw err;
      startFailure = { plugin: err.plugin, log: err.log, message: err.message };
      result = { stopped: signal.aborted };
    }
    const failed = (result.expectations?.failed ?? 0) > 0 || refused.length > 0 || startFailure !== undefined;
    out.presets.push({
      preset,
      ...who,
      refused,
      ...(startFailure ? { startFailure } : {}),
      ok: !failed && !result.stopped,
      result,
    });
  }
  out.stopped = signal.aborted;
  return out;
}
