// `--sim SCENARIO`: an in-process simulated runtime for the connecting commands, so
// they can be tried on a machine without an NRI-enabled runtime. Kept behind this one
// function so the commands do not depend on how the simulator is assembled.
import { Runtime } from '../runtime/runtime.js';
import { loadScenario } from '../runtime/scenario.js';
import { runScript, type ScriptResult } from '../runtime/script.js';
import { SimState } from '../runtime/state.js';

export interface EmbeddedSim {
  socketPath: string;
  /** Runs the scenario's steps; resolves when the last one is done. */
  runScript(): Promise<ScriptResult>;
  stop(): Promise<void>;
}

export async function startSim(scenarioFile: string): Promise<EmbeddedSim> {
  const scenario = await loadScenario(scenarioFile);
  const runtime = new Runtime(new SimState({ pods: scenario.pods, containers: scenario.containers }));
  const { socketPath } = await runtime.start();
  if (!socketPath) throw new Error('the embedded simulator did not listen on a socket');
  return {
    socketPath,
    runScript: () => runScript(runtime, scenario.steps),
    stop: () => runtime.stop(),
  };
}
