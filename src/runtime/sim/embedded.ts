// An in-process simulator for other commands (`nrictl logs --sim FILE`): start it, let
// the caller connect, then run the scenario's script when asked.
import { loadScenario, type Scenario } from './scenario.js';
import { Runtime, type RuntimeOptions } from './runtime.js';
import { runScript, type ScriptResult } from './script.js';
import { SimState } from './state.js';
import { mustBeDirectory, PLUGIN_DIR_HOLDS } from './inputs.js';
import path from 'node:path';

export interface EmbeddedSimulator {
  runtime: Runtime;
  socketPath: string;
  scenario: Scenario;
  /** Runs the scenario's steps (typically once the caller's plugin is live); stop() cuts it short. */
  runScript(): Promise<ScriptResult>;
  /** Ends the script where it is (a pause in it too) and stops the runtime. */
  stop(): Promise<void>;
}

export async function startEmbeddedSimulator(opts: {
  scenario: string | Scenario;
  socketDir?: string;
  runtime?: Omit<RuntimeOptions, 'socketPath'>;
}): Promise<EmbeddedSimulator> {
  const scenario = typeof opts.scenario === 'string' ? await loadScenario(opts.scenario) : opts.scenario;
  // A plugin directory the user named must be there (`trace --sim demo --plugin-dir /nope`), though
  // a runtime would start with no plugins.
  if (opts.runtime?.pluginPath !== undefined)
    await mustBeDirectory(opts.runtime.pluginPath, 'pluginDir', PLUGIN_DIR_HOLDS);
  const runtime = new Runtime(new SimState({ pods: scenario.pods, containers: scenario.containers }), {
    ...opts.runtime,
    ...(opts.socketDir ? { socketPath: path.join(opts.socketDir, 'nri.sock') } : {}),
  });
  const { socketPath } = await runtime.start();
  // A pause left in the script must not keep the caller running once it is done
  // (`nrictl logs --sim demo | head -1`).
  const stopped = new AbortController();
  return {
    runtime,
    socketPath: socketPath ?? '',
    scenario,
    runScript: () => runScript(runtime, scenario.steps, stopped.signal),
    stop: () => {
      stopped.abort();
      return runtime.stop();
    },
  };
}
