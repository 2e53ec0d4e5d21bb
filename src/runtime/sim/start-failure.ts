// The simulated runtime did not come up: its NRI's Start failed because a pre-started
// plugin failed to start, which NRI before v0.7 makes fatal (containerd 1.7.0-1.7.25 exit).
// Said in one line: who would not start, which plugin, and the runtime's own log line.
import type { ErrorKind } from '../../errors/index.js';
import type { AdaptationOptions, PreStartFailedError } from '../adaptation/index.js';
import type { RuntimeQuirks } from './presets.js';

export class RuntimeStartError extends Error {
  override readonly name = 'RuntimeStartError';
  /** As a failed expectation: the plugin would not work on that runtime (exit 1). */
  readonly kind: ErrorKind = 'failed';
  constructor(
    message: string,
    /** "containerd v1.7.13". */
    readonly runtime: string,
    /** The pre-started plugin that failed, NN-name. */
    readonly plugin: string,
    /** What the runtime logs as it dies, in its words. */
    readonly log: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The runtime that failed to start, as runtime.ts's RuntimeOptions name it. */
type FailedRuntime = Pick<AdaptationOptions, 'runtimeName' | 'runtimeVersion'> & { quirks?: RuntimeQuirks };

export function runtimeStartError(
  opts: FailedRuntime,
  nriVersion: string,
  err: PreStartFailedError,
): RuntimeStartError {
  const runtime = `${opts.quirks?.runtime ?? opts.runtimeName ?? 'the runtime'} ${opts.runtimeVersion ?? ''}`.trim();
  const log = opts.quirks?.startFailureLog?.(err.message) ?? `NRI start failed: ${err.message}`;
  return new RuntimeStartError(
    `${runtime} exits at start-up: pre-started plugin ${err.plugin} failed to start, which NRI ${nriVersion} makes fatal (from v0.7.0 it is skipped): fix it or keep it out of the plugin directory; it logs ${log}`,
    runtime,
    err.plugin,
    log,
    { cause: err },
  );
}
