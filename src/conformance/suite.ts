// A run of the chosen checks against a prepared runtime: one namespace and label for
// everything it makes, one check after another, a sweep at the end, and the report.
import { randomBytes } from 'node:crypto';
import { CriError } from '../cri/index.js';
import { sweep, type Swept } from './cleanup.js';
import type { Check } from './check.js';
import type { CheckVerdict, ConformanceReport, ConformanceSummary, TargetInfo } from './model.js';
import type { Prepared } from './preflight.js';
import { Interrupted, runCheck } from './runner.js';
import { Registry, type SuiteScope } from './suite-scope.js';

export interface RunHooks {
  /** Each verdict as it is made (progress for people). */
  onVerdict?: ((v: CheckVerdict, done: number, total: number) => void) | undefined;
  /** --include-crashing: also the checks that send a call known to crash this runtime. */
  includeCrashing?: boolean | undefined;
  signal: AbortSignal;
}

/** A run's id and namespace, made before anything is, so that the plan can name them. */
export function newRunId(): { runId: string; namespace: string } {
  const runId = randomBytes(4).toString('hex');
  return { runId, namespace: `nrictl-conformance-${runId}` };
}

export async function runSuite(
  prepared: Prepared,
  checks: readonly Check[],
  ids: { runId: string; namespace: string },
  hooks: RunHooks,
): Promise<ConformanceReport> {
  const started = performance.now();
  const scope = suiteScope(prepared, ids, hooks.signal, hooks.includeCrashing ?? false);
  const verdicts: CheckVerdict[] = [];
  let interrupted = false;
  for (const [i, check] of checks.entries()) {
    if (hooks.signal.aborted) {
      interrupted = true;
      break;
    }
    try {
      const v = await runCheck(scope, check, i + 1);
      verdicts.push(v);
      hooks.onVerdict?.(v, i + 1, checks.length);
    } catch (err) {
      if (!(err instanceof Interrupted)) throw err;
      interrupted = true;
      break;
    }
  }
  const swept = await sweep(scope);
  return report(prepared.target, ids, verdicts, swept, interrupted || hooks.signal.aborted, started);
}

function suiteScope(
  prepared: Prepared,
  ids: { runId: string; namespace: string },
  signal: AbortSignal,
  includeCrashing: boolean,
): SuiteScope {
  let podUpdates: Promise<{ has: true } | { has: false; why: string }> | undefined;
  const cri = prepared.cri;
  return {
    cri,
    nriSocket: prepared.target.nriSocket,
    ...ids,
    image: prepared.target.image,
    imageKind: prepared.imageKind,
    imageId: prepared.imageId,
    cgroupParent: prepared.cgroupParent,
    timing: prepared.timing,
    runtimeName: prepared.target.runtimeName.toLowerCase(),
    runtimeVersion: prepared.target.runtimeVersion,
    includeCrashing,
    acceptedEvents: prepared.acceptedEvents,
    nriLabel: prepared.target.nri,
    registry: new Registry(),
    node: prepared.node,
    signal,
    podUpdates: () =>
      (podUpdates ??= cri
        .updatePodSandboxResources(`nrictl-conformance-probe-${ids.runId}`, {}, { timeoutMs: prepared.timing.callMs })
        .then(
          () => ({ has: true as const }),
          (err: unknown) => podUpdateProbe(err),
        )),
  };
}

/** What an update of a pod nobody has says about the call: Unimplemented, or "not implemented" in other words, means the runtime lacks it. */
function podUpdateProbe(err: unknown): { has: true } | { has: false; why: string } {
  if (err instanceof CriError && err.code === 'unimplemented')
    return { has: false, why: "the runtime's CRI has no UpdatePodSandboxResources (it answers Unimplemented)" };
  const words = err instanceof CriError ? (err.details.grpcMessage ?? err.message) : String(err);
  if (/not implemented/i.test(words))
    return { has: false, why: `the runtime's CRI refuses every UpdatePodSandboxResources ("${words}")` };
  return { has: true };
}

function report(
  target: TargetInfo,
  ids: { runId: string; namespace: string },
  verdicts: CheckVerdict[],
  swept: Swept,
  interrupted: boolean,
  started: number,
): ConformanceReport {
  const summary = summarise(verdicts, performance.now() - started);
  const clean =
    summary.failed === 0 && summary.errors === 0 && !interrupted && swept.left.length === 0 && !swept.unchecked;
  return {
    ...ids,
    target,
    verdicts,
    summary,
    leftovers: swept.left,
    ...(swept.unchecked ? { leftoversUnchecked: swept.unchecked } : {}),
    beyondCri: swept.beyondCri,
    interrupted,
    exitCode: clean ? 0 : 1,
  };
}

function summarise(verdicts: readonly CheckVerdict[], durationMs: number): ConformanceSummary {
  const count = (s: CheckVerdict['status']) => verdicts.filter((v) => v.status === s).length;
  return {
    total: verdicts.length,
    passed: count('pass'),
    failed: count('fail'),
    knownGaps: verdicts.filter((v) => v.status === 'fail' && v.known).length,
    skipped: count('skip'),
    errors: count('error'),
    durationMs,
  };
}
