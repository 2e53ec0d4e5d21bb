// Connect and find the container an update or eviction is for: the named one, or the
// one the operator picks on a terminal. The caller checks canPrompt() before
// connecting, so that a missing argument without a terminal fails before anything.
import { startSim, type EmbeddedSim } from '../observe/sim.js';
import { pickContainer } from './prompts.js';
import { resolveContainer, type ResolvedContainer } from './resolve.js';
import { ControlSession } from './session.js';

export interface TargetOptions {
  /** The <container> argument; undefined: pick interactively. */
  query: string | undefined;
  socketPath: string;
  /** --sim SCENARIO: an embedded simulator instead of the socket. */
  simScenario?: string | undefined;
  name: string;
  index: string;
  pickMessage: string;
}

export interface Target {
  session: ControlSession;
  target: ResolvedContainer;
  /** The socket actually used (the embedded simulator's under --sim). */
  socketPath: string;
  sim: EmbeddedSim | undefined;
  /** Closes the connection and stops the embedded simulator, if any. */
  close(): Promise<void>;
}

export async function openTarget(opts: TargetOptions): Promise<Target> {
  const sim = opts.simScenario ? await startSim(opts.simScenario) : undefined;
  const socketPath = sim?.socketPath ?? opts.socketPath;
  let session: ControlSession | undefined;
  try {
    session = await ControlSession.open({ socketPath, name: opts.name, index: opts.index });
    const target =
      opts.query === undefined
        ? await pickContainer(session.pods, session.containers, opts.pickMessage)
        : resolveContainer(opts.query, session.pods, session.containers);
    const s = session;
    return {
      session: s,
      target,
      socketPath,
      sim,
      close: async () => {
        await s.close();
        await sim?.stop();
      },
    };
  } catch (err) {
    await session?.close();
    await sim?.stop();
    throw err;
  }
}
