// trace's errors as the one line a user sees and the exit code scripts test; the rest
// (connecting, registering, filters, scenarios) as logs maps them.
import { UserError } from '../cli/errors.js';
import { ExitCode } from '../cli/exit-codes.js';
import { toUserError } from '../observe/user-errors.js';
import { MetricsAddressError } from './metrics-server.js';
import { PlacementError } from './placement.js';

export function toTraceUserError(err: unknown): unknown {
  if (err instanceof PlacementError || err instanceof MetricsAddressError) return new UserError(err.message, ExitCode.USAGE, { cause: err });
  return toUserError(err);
}
