// What the plugin SDK reported, as a SessionError: the SDK's reasons become codes the
// CLI's exit-code table knows, and two messages are corrected for an operator's eyes.
import { PluginError, type RuntimeInfo } from '../plugin/index.js';
import { formatDuration } from '../units/index.js';
import { SessionError, SIM_HINT, type SessionErrorCode } from './errors.js';

const PROTOCOL_ERRORS = new Set(['MuxProtocolError', 'TtrpcProtocolError']);

/** The malformed-input error somewhere in err's cause chain, if any. */
function protocolCause(err: unknown): Error | undefined {
  for (let e = err, depth = 0; e instanceof Error && depth < 8; e = e.cause, depth++) {
    if (PROTOCOL_ERRORS.has(e.name)) return e;
  }
  return undefined;
}

export interface ErrorContext {
  /** "/var/run/nri/nri.sock" or "the embedded simulator (demo.yaml)". */
  label: string;
  socketPath: string;
  /** Whether the runtime had synchronized us when it happened. */
  registered: boolean;
  runtime: RuntimeInfo | undefined;
  /** Under --sim a missing socket is not the operator's to fix; no hint then. */
  sim: boolean;
  /** The deadline of the call that failed, for its message. */
  callTimeoutMs?: number;
}

export function fromPluginError(err: unknown, at: ErrorContext): unknown {
  const details = { socketPath: at.socketPath, registered: at.registered, cause: err };
  const bad = protocolCause(err);
  if (bad) {
    // Not the runtime's doing: nrictl read something it cannot parse and hung up.
    const message =
      err instanceof PluginError && err.reason === 'protocol'
        ? err.message
        : `nrictl rejected a malformed message from ${at.label} and closed the connection: ${bad.message}`;
    return new SessionError('malformed-frame', message, details);
  }
  if (!(err instanceof PluginError)) return err;
  let code: SessionErrorCode;
  let message = err.message;
  switch (err.reason) {
    case 'no-socket':
      code = 'no-socket';
      if (!at.sim) message = `${message} ${SIM_HINT}`;
      break;
    case 'permission-denied':
    case 'not-a-socket':
    case 'refused':
    case 'path-too-long':
      code = err.reason;
      break;
    case 'rejected':
      code = err.step === 'update' ? 'update-refused' : 'registration-rejected';
      break;
    case 'timeout':
      if (err.step === 'update') {
        code = 'call-timeout';
        message = `${at.label} registered nrictl but did not answer UpdateContainers within ${formatDuration(at.callTimeoutMs ?? 0)}: the runtime is stuck or overloaded; the request may still be applied (raise --timeout to wait longer)`;
      } else {
        code = 'registration-timeout';
      }
      break;
    case 'no-events': {
      code = 'no-events';
      const who = at.runtime ? `${at.runtime.label} (${at.runtime.vintage})` : 'the runtime';
      message = `${who} at ${at.label} cannot deliver any of the events asked for: it is too old for them; ask for events it knows (see --events in --help)`;
      break;
    }
    default:
      code = err.step === 'closed' || at.registered ? 'runtime-gone' : 'registration-rejected';
  }
  return new SessionError(code, message, details);
}
