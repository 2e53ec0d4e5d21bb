// doctor's question to the runtime: does it answer? A failure to connect or register is
// a finding there, not an error, so it comes back as a value; only a bad identity or
// scenario (the operator's input) still throws.
import type { nri } from '../api/index.js';
import type { RuntimeInfo } from '../plugin/index.js';
import { SessionError, type SessionErrorCode } from './errors.js';
import { Session, type LifecycleSighting, type SessionOptions } from './session.js';

export type ProbeOutcome =
  | {
      status: 'answered';
      runtime: RuntimeInfo | undefined;
      pods: number;
      containers: number;
      /** The Synchronize state itself, with `whileRegistered` (doctor's comparison with CRI). */
      state?: { pods: nri.IPodSandbox[]; containers: nri.IContainer[] };
      /** Pods and containers that came or went after the Synchronize, while `whileRegistered` ran. */
      sightings?: LifecycleSighting[];
      /** Sightings beyond the ones kept: with any, `sightings` is not the whole story. */
      sightingsLost?: number;
    }
  | { status: 'failed'; code: SessionErrorCode; message: string };

const INPUT_ERRORS: ReadonlySet<SessionErrorCode> = new Set(['bad-identity', 'bad-scenario', 'cancelled']);
/** Sightings kept: a node busier than this during the second look is not compared (ask-runtime says so). */
const MAX_SIGHTINGS = 100_000;

/**
 * Registers, takes the state and leaves. With `whileRegistered`, it runs once the state
 * is taken, the session still registered and told of every pod and container that comes
 * or goes meanwhile; it must not throw.
 */
export async function probeRuntime(
  opts: SessionOptions,
  whileRegistered?: () => Promise<void>,
  maxSightings = MAX_SIGHTINGS,
): Promise<ProbeOutcome> {
  const sightings: LifecycleSighting[] = [];
  let sightingsLost = 0;
  const sighted = (s: LifecycleSighting): void => {
    if (sightings.length < maxSightings) sightings.push(s);
    else sightingsLost++;
  };
  let session: Session;
  try {
    session = await Session.open(whileRegistered ? { ...opts, onLifecycle: sighted } : opts);
  } catch (err) {
    if (err instanceof SessionError && !INPUT_ERRORS.has(err.code))
      return { status: 'failed', code: err.code, message: err.message };
    throw err;
  }
  try {
    if (whileRegistered) await whileRegistered();
  } finally {
    await session.close();
  }
  const answered = {
    status: 'answered' as const,
    runtime: session.runtime,
    pods: session.pods.length,
    containers: session.containers.length,
  };
  if (!whileRegistered) return answered;
  return { ...answered, state: { pods: session.pods, containers: session.containers }, sightings, sightingsLost };
}
