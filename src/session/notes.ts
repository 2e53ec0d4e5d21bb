// What a session tells people while it reaches the runtime, as notes a command line
// shows (a spinner while it waits, a warning line): the same for every connecting
// library, so that each one hands its caller one kind of note instead of callbacks.
import type { SessionTarget } from './endpoint.js';
import type { SessionOptions } from './session.js';

export type SessionNote =
  /** Reaching the runtime's socket, or starting the embedded simulator (`sim`: its scenario). */
  | { kind: 'connecting'; socketPath: string; sim?: string | undefined }
  /** Registered; the runtime's pods and containers are on their way. */
  | { kind: 'receiving' }
  /** A socket anyone but its owner could use, and similar. */
  | { kind: 'warning'; text: string };

/** The session's progress and warning hooks, as notes. */
export function sessionNotes(
  target: SessionTarget,
  notes: ((note: SessionNote) => void) | undefined,
): Pick<SessionOptions, 'onProgress' | 'onWarning'> {
  if (!notes) return {};
  return {
    onProgress: (phase) =>
      notes(
        phase === 'connecting'
          ? { kind: 'connecting', socketPath: target.socketPath, sim: target.sim }
          : { kind: 'receiving' },
      ),
    onWarning: (text) => notes({ kind: 'warning', text }),
  };
}
