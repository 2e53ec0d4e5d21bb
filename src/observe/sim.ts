// `--sim SCENARIO` for the connecting commands (logs, sync dump, update, evict): the
// embedded simulator of src/runtime, under the name these commands already import.
import { startEmbeddedSimulator, type EmbeddedSimulator } from '../runtime/index.js';

export type EmbeddedSim = Pick<EmbeddedSimulator, 'socketPath' | 'runScript' | 'stop'> & Partial<EmbeddedSimulator>;

export function startSim(scenarioFile: string): Promise<EmbeddedSimulator> {
  return startEmbeddedSimulator({ scenario: scenarioFile });
}
