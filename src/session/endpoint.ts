// Where a session connects: the runtime's socket, or an embedded simulator started for
// `--sim SCENARIO`. The simulator is loaded only when asked for, so a command talking
// to a real runtime does not pay for it.
import type { EmbeddedSimulator, RuntimePreset } from '../runtime/index.js';
import { SessionError } from './errors.js';
import { socketExposure } from './socket-exposure.js';

export interface SessionTarget {
  /** The runtime's NRI socket. */
  socketPath: string;
  /** --sim: a scenario file; the socket is then the simulator's own. */
  sim?: string | undefined;
  /** --sim with --plugin-dir: the simulator launches the plugins in this directory, as a runtime would. */
  simPluginPath?: string | undefined;
  /** --sim with --preset: the runtime release line the simulator imitates (its name, versions and quirks). */
  simPreset?: string | undefined;
}

/** What the embedded simulator offers a caller: its script, its runtime (the plugins it runs), stop. */
export type EmbeddedRuntime = Pick<EmbeddedSimulator, 'socketPath' | 'runScript' | 'runtime' | 'stop'>;

export interface Endpoint {
  socketPath: string;
  /** How messages name it: the socket path, or "the embedded simulator (FILE)". */
  label: string;
  sim: EmbeddedRuntime | undefined;
  /** Stops the simulator, if any. */
  close(): Promise<void>;
}

/** Whether a caller handed over an endpoint it opened (and closes), rather than a target to open. */
export function isEndpoint(t: SessionTarget | Endpoint): t is Endpoint {
  return typeof (t as Endpoint).close === 'function';
}

export async function openEndpoint(target: SessionTarget, onWarning?: (text: string) => void): Promise<Endpoint> {
  if (!target.sim) {
    // Looked at only for someone to tell: a caller that takes no warnings (conformance's
    // test plugins, one registration per check) would pay a walk up the path for nothing.
    if (onWarning) for (const w of socketExposure(target.socketPath)) onWarning(w);
    return { socketPath: target.socketPath, label: target.socketPath, sim: undefined, close: async () => {} };
  }
  const { runScript, startEmbeddedSimulator, ScenarioError } = await import('../runtime/index.js');
  const preset = await simPreset(target);
  let sim: Awaited<ReturnType<typeof startEmbeddedSimulator>>;
  try {
    sim = await startEmbeddedSimulator({
      scenario: target.sim,
      ...(target.simPluginPath || preset
        ? {
            runtime: {
              ...(target.simPluginPath ? { pluginPath: target.simPluginPath } : {}),
              ...(preset
                ? {
                    runtimeName: preset.runtimeName,
                    runtimeVersion: preset.runtimeVersion,
                    nriVersion: preset.nriVersion,
                    ...(preset.quirks ? { quirks: preset.quirks } : {}),
                  }
                : {}),
            },
          }
        : {}),
    });
  } catch (err) {
    if (err instanceof ScenarioError) throw new SessionError('bad-scenario', err.message, { cause: err });
    throw err;
  }
  // Stopping the simulator ends its script too: a pause left in the script must not keep
  // nrictl running once the command is done (`nrictl logs --sim demo | head -1`).
  const stopped = new AbortController();
  const embedded: EmbeddedRuntime = {
    socketPath: sim.socketPath,
    runtime: sim.runtime,
    runScript: () => runScript(sim.runtime, sim.scenario.steps, stopped.signal),
    stop: () => {
      stopped.abort();
      return sim.stop();
    },
  };
  return {
    socketPath: sim.socketPath,
    label: `the embedded simulator (${target.sim})`,
    sim: embedded,
    close: () => embedded.stop(),
  };
}

/**
 * The preset a --sim target names (undefined: none), for a caller that must refuse an
 * unknown one before it does anything else. Throws SessionError 'bad-scenario'.
 */
export async function simPreset(target: SessionTarget): Promise<RuntimePreset | undefined> {
  if (target.simPreset === undefined) return undefined;
  const { RUNTIME_PRESETS } = await import('../runtime/index.js');
  const preset = RUNTIME_PRESETS[target.simPreset];
  if (preset === undefined)
    throw new SessionError(
      'bad-scenario',
      `--preset: unknown preset "${target.simPreset}" (known: ${Object.keys(RUNTIME_PRESETS).join(', ')})`,
    );
  return preset;
}
