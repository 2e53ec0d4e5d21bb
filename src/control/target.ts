// Connect and find the container an update or eviction is for: the named one, or the
// one the operator picks on a terminal. The plan (plan.ts) refuses before connecting
// when there is neither a name nor a terminal.
import { Session, type SessionOptions } from '../session/index.js';
import { ControlError } from './errors.js';
import { pickContainer } from './prompts.js';
import { resolveContainer, type ResolvedContainer } from './resolve.js';

export interface TargetOptions extends SessionOptions {
  /** The <container> argument; undefined: pick interactively. */
  query: string | undefined;
  pickMessage: string;
  /** Called once connecting is over, before any prompt (a spinner stops here). */
  onConnected?: (() => void) | undefined;
}

export interface Target {
  session: Session;
  target: ResolvedContainer;
}

export async function openTarget(opts: TargetOptions): Promise<Target> {
  let session: Session;
  try {
    session = await Session.open(opts);
  } finally {
    opts.onConnected?.();
  }
  try {
    const target =
      opts.query === undefined
        ? await pickContainer(session.pods, session.containers, opts.pickMessage, opts.signal)
        : resolveContainer(opts.query, session.pods, session.containers);
    return { session, target };
  } catch (err) {
    await session.close();
    throw asCancelled(err);
  }
}

/**
 * A prompt ended by Ctrl-C on the terminal (ExitPromptError) or by the stop signal
 * (SIGTERM, SIGHUP: AbortPromptError): the same end as a signal while connecting.
 */
export function asCancelled(err: unknown): unknown {
  if (err instanceof Error && (err.name === 'ExitPromptError' || err.name === 'AbortPromptError'))
    return new ControlError('cancelled', 'cancelled: nothing was sent', { cause: err });
  return err;
}
