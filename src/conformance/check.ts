// The contract as data: a check is test plugins, requirements and steps (CRI calls, waits,
// expectations) that act on a CheckRun. A new clause is a new entry of checks/*.ts built
// from the steps in steps/, not a new runner.
import type { CheckRun } from './check-run.js';
import type { PluginSpec, Requirement } from './model.js';

/** One step of a check: a CRI call, a wait, or an expectation. Throws CheckFailure, CheckSkip or CheckError. */
export interface Step {
  label: string;
  run(run: CheckRun): Promise<void>;
}

export interface Check {
  /** Stable, path-like: "run-pod/hidden-while-hook-runs". */
  name: string;
  /** The number of critest's NRI spec it follows (nri-contract.md), if any. */
  critest?: number;
  /** The clause it checks, in one line: what the runtime must do. */
  clause: string;
  /** Where the clause is written: the draft (containerd/nri#286), critest, or nrictl (beyond both). */
  source: 'draft' | 'critest' | 'draft+critest' | 'nrictl';
  plugins: PluginSpec[];
  requires?: Requirement[];
  steps: Step[];
}
