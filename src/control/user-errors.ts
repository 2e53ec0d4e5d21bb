// What update and evict threw, as the one line a user sees and the exit code.
import { UserError } from '../cli/errors.js';
import { ExitCode } from '../cli/exit-codes.js';
import { toUserError } from '../observe/user-errors.js';
import { PluginError } from '../plugin/index.js';
import { ContainerLookupError, ControlInputError } from './errors.js';

export function toControlUserError(err: unknown): unknown {
  if (err instanceof ControlInputError || err instanceof ContainerLookupError) return new UserError(err.message, ExitCode.USAGE, { cause: err });
  // The runtime answered UpdateContainers with an error status: it refused, and said why.
  if (err instanceof PluginError && err.step === 'update' && err.reason === 'rejected') return new UserError(err.message, ExitCode.REFUSED, { cause: err });
  if (err instanceof Error && err.name === 'ExitPromptError') return new UserError('cancelled: nothing was sent', ExitCode.FAILED, { cause: err });
  return toUserError(err);
}
