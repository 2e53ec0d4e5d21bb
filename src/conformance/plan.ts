// `nrictl conformance` on a node: the checks chosen and the runtime prepared (nothing made
// yet), shown and confirmed, then run. It acts on the node, so it asks on a terminal and,
// without one or under CI, runs only with --yes, as `update` does.
import { confirm } from '@inquirer/prompts';
import { ConformanceError } from './errors.js';
import type { Check } from './check.js';
import type { ConformanceReport, TargetInfo } from './model.js';
import { prepare, type Prepared, type TargetOptions } from './preflight.js';
import { selectChecks } from './select.js';
import { newRunId, runSuite, type RunHooks } from './suite.js';
import { plural } from '../units/index.js';

export interface PlanOptions extends TargetOptions {
  focus?: readonly string[] | undefined;
  skip?: readonly string[] | undefined;
  /** There is a terminal to ask on (the command line decides: both ends a TTY, no CI). */
  terminal: boolean;
  /** Ask before running (not with --yes). */
  ask: boolean;
  /** --include-crashing: also the checks that send a call known to crash this runtime. */
  includeCrashing?: boolean | undefined;
  signal: AbortSignal;
}

const NEEDS_YES =
  'no terminal to confirm on (stdin or stdout is not a terminal, or CI is set): add --yes to run the checks, which create and remove pods on this node';

export class ConformancePlan {
  private constructor(
    private readonly prepared: Prepared,
    readonly checks: readonly Check[],
    readonly runId: string,
    readonly namespace: string,
    private readonly opts: PlanOptions,
  ) {}

  /** Chooses the checks and prepares the runtime; refuses bad input before anything is made. */
  static async open(opts: PlanOptions): Promise<ConformancePlan> {
    const checks = selectChecks(opts.focus, opts.skip);
    if (opts.ask && !opts.terminal) throw new ConformanceError('needs-yes', NEEDS_YES);
    const prepared = await prepare(opts);
    const { runId, namespace } = newRunId();
    return new ConformancePlan(prepared, checks, runId, namespace, opts);
  }

  get target(): TargetInfo {
    return this.prepared.target;
  }

  /** The longest a hook is held: well under the runtime's request timeout. */
  get holdBoundMs(): number {
    return this.prepared.timing.holdBoundMs;
  }

  /** Asks on the terminal when the plan says to; rejects when declined or cancelled. */
  async confirm(): Promise<void> {
    if (!this.opts.ask) return;
    let yes: boolean;
    try {
      yes = await confirm(
        {
          message: `Run ${plural(this.checks.length, 'check')} on ${this.target.runtime}, creating pods in namespace ${this.namespace}?`,
          default: false,
        },
        { signal: this.opts.signal },
      );
    } catch {
      throw new ConformanceError('cancelled', 'cancelled: nothing was created');
    }
    if (!yes) throw new ConformanceError('not-confirmed', 'not confirmed: nothing was created');
  }

  run(onVerdict?: RunHooks['onVerdict']): Promise<ConformanceReport> {
    return runSuite(this.prepared, this.checks, this, {
      signal: this.opts.signal,
      onVerdict,
      includeCrashing: this.opts.includeCrashing,
    });
  }

  close(): void {
    this.prepared.cri.close();
  }
}
