// doctor's question to the runtime: does it answer? A failure to connect or register is
// a finding there, not an error, so it comes back as a value; only a bad identity or
// scenario (the operator's input) still throws.
import type { RuntimeInfo } from '../plugin/index.js';
import { SessionError, type SessionErrorCode } from './errors.js';
import { fetchState, type SessionOptions } from './session.js';

export type ProbeOutcome =
  | { status: 'answered'; runtime: RuntimeInfo | undefined; pods: number; containers: number }
  | { status: 'failed'; code: SessionErrorCode; message: string };

const INPUT_ERRORS: ReadonlySet<SessionErrorCode> = new Set(['bad-identity', 'bad-scenario', 'cancelled']);

export async function probeRuntime(opts: SessionOptions): Promise<ProbeOutcome> {
  try {
    const s = await fetchState(opts);
    return { status: 'answered', runtime: s.runtime, pods: s.pods.length, containers: s.containers.length };
  } catch (err) {
    if (err instanceof SessionError && !INPUT_ERRORS.has(err.code))
      return { status: 'failed', code: err.code, message: err.message };
    throw err;
  }
}
