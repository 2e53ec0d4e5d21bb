// What the Go adaptation's Start returns when a pre-started plugin fails to start, on the
// NRI versions where that failure is fatal (v0.3.0-v0.6.1): the error of plugin.start,
// unwrapped by startPlugins (v0.4.0 adaptation.go:336-338, plugin.go:246-283, 378-402).
// The embedding runtime prints it inside its own words.
import { Code, TtrpcClosedError, TtrpcError } from '../../ttrpc/index.js';
import { goErrorText, goQuote } from './go-text.js';
import { PluginConnectionError } from './plugin.js';

/** Start's error for a plugin that could not be launched at all (newLaunchedPlugin failed). */
export function goLaunchFailure(base: string, err: Error): string {
  return `failed to start NRI plugin ${goQuote(base)}: ${err.message}`;
}

/** Start's error for a launched plugin whose registration or Configure failed. */
export function goStartFailure(err: Error): string {
  if (!(err instanceof PluginConnectionError)) return err.message;
  switch (err.reason) {
    case 'registration-timeout':
      return 'plugin registration timed out';
    case 'closed':
      return 'failed to register plugin, connection closed';
    case 'configure-failed':
      return `failed to configure plugin: ${goCallError(err.cause)}`;
    default:
      // 'invalid-events' is already the Go text (plugin.go configure).
      return err.message;
  }
}

/** A failed ttrpc call as the Go client returns it (derived): a missed deadline is the context's. */
function goCallError(err: unknown): string {
  if (err instanceof TtrpcClosedError) return 'ttrpc: closed';
  if (err instanceof TtrpcError && err.code === Code.DeadlineExceeded) return 'context deadline exceeded';
  return goErrorText(err);
}
