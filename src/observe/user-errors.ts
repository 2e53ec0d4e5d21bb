// The plugin SDK's errors as the one line a user sees and the exit code scripts test.
import { PluginNameError } from '../api/index.js';
import { UserError } from '../cli/errors.js';
import { ExitCode } from '../cli/exit-codes.js';
import { PluginError } from '../plugin/index.js';
import { ScenarioError } from '../runtime/errors.js';
import { FilterError } from './filters.js';

export const SIM_HINT = 'To try nrictl without a runtime: --sim examples/demo.yaml';

/** Maps what connecting, registering or streaming threw; anything unknown passes through. */
export function toUserError(err: unknown): unknown {
  if (err instanceof PluginNameError) return new UserError(`--plugin-index/--plugin-name: ${err.message}`, ExitCode.USAGE, { cause: err });
  if (err instanceof FilterError || err instanceof ScenarioError) return new UserError(err.message, ExitCode.USAGE, { cause: err });
  if (!(err instanceof PluginError)) return err;
  switch (err.reason) {
    case 'path-too-long':
      return new UserError(err.message, ExitCode.USAGE, { cause: err });
    case 'no-socket':
      return new UserError(`${err.message} ${SIM_HINT}`, ExitCode.CONNECT, { cause: err });
    case 'permission-denied':
    case 'not-a-socket':
    case 'refused':
      return new UserError(err.message, ExitCode.CONNECT, { cause: err });
    case 'rejected':
    case 'timeout':
    case 'no-events':
      return new UserError(err.message, ExitCode.REGISTRATION, { cause: err });
    case 'closed':
      // Closed before the plugin was live: the runtime refused us without saying so.
      return new UserError(err.message, err.step === 'closed' ? ExitCode.RUNTIME_GONE : ExitCode.REGISTRATION, { cause: err });
    case 'protocol':
    default:
      return new UserError(err.message, ExitCode.RUNTIME_GONE, { cause: err });
  }
}
