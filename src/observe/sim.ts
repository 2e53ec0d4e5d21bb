// `--sim SCENARIO` for the connecting commands (logs, sync dump, update, evict): the
// embedded simulator of src/runtime, under the name these commands already import.
// The simulator is loaded only when asked for, so commands talking to a real runtime
// do not pay for loading it at start-up.
import type { EmbeddedSimulator } from '../runtime/index.js';

export type EmbeddedSim = Pick<EmbeddedSimulator, 'socketPath' | 'runScript' | 'stop'> & Partial<EmbeddedSimulator>;

export async function startSim(scenarioFile: string): Promise<EmbeddedSimulator> {
  const { startEmbeddedSimulator } = await import('../runtime/index.js');
  return startEmbeddedSimulator({ scenario: scenarioFile });
}
