// Runs one check: skips it when the runtime cannot have what it needs, registers its
// plugins, runs its steps until one ends it, judges by what was thrown, and cleans up on
// every path. A check that could not run is never reported as passed.
import { CriError } from '../cri/index.js';
import { Aborted, untilAborted } from '../session/index.js';
import { CheckRun } from './check-run.js';
import { cleanUpCheck } from './cleanup.js';
import { CheckError, CheckFailure, CheckSkip } from './errors.js';
import { crashesOn } from './crashing.js';
import { knownFor } from './known.js';
import type { Check } from './check.js';
import type { CheckVerdict, Requirement } from './model.js';
import type { SuiteScope } from './suite-scope.js';
import { maskHas } from './test-plugin.js';

/** The signal stopped the run while a check ran: it is not reported. */
export class Interrupted extends Error {
  override readonly name = 'Interrupted';
}

export async function runCheck(suite: SuiteScope, check: Check, number: number): Promise<CheckVerdict> {
  const r = new CheckRun(suite, check, number);
  const base = {
    name: check.name,
    ...(check.critest !== undefined ? { critest: check.critest } : {}),
    clause: check.clause,
  };
  let outcome: Pick<CheckVerdict, 'status' | 'reason' | 'known'>;
  try {
    const unmet = await unmetRequirement(suite, check.requires ?? []);
    if (unmet !== undefined) throw new CheckSkip(unmet);
    // A step is left to its deadlines once the signal came: cleanup must not wait for it.
    for (const spec of check.plugins)
      if ((spec.joins ?? 'start') === 'start') await untilAborted(r.connect(spec), suite.signal);
    for (const step of check.steps) await untilAborted(step.run(r), suite.signal);
    outcome = { status: 'pass' };
  } catch (err) {
    outcome = judged(err, suite, r.runtimeGone);
  } finally {
    await cleanUpCheck(r);
  }
  if (suite.signal.aborted && outcome.status !== 'pass') throw new Interrupted();
  return {
    ...base,
    ...outcome,
    notes: r.notes,
    durationMs: performance.now() - r.started,
    split: r.split,
  };
}

function judged(
  err: unknown,
  suite: SuiteScope,
  runtimeGone: string | undefined,
): Pick<CheckVerdict, 'status' | 'reason' | 'known'> {
  if (err instanceof CheckFailure && runtimeGone !== undefined) return { status: 'error', reason: runtimeGone };
  if (err instanceof CheckFailure) {
    const known = knownFor(err.known, suite.runtimeName, suite.runtimeVersion);
    return { status: 'fail', reason: err.message, ...(known ? { known } : {}) };
  }
  if (err instanceof CheckSkip) return { status: 'skip', reason: err.message };
  if (err instanceof CheckError || err instanceof CriError) return { status: 'error', reason: err.message };
  if (err instanceof Aborted) return { status: 'error', reason: 'interrupted' };
  return { status: 'error', reason: `internal error: ${(err as Error).message ?? String(err)}` };
}

/** Why the runtime cannot have what the check needs, or undefined. */
async function unmetRequirement(suite: SuiteScope, requires: readonly Requirement[]): Promise<string | undefined> {
  for (const req of requires) {
    if ('survives' in req) {
      const crash = suite.includeCrashing
        ? undefined
        : crashesOn(req.survives, suite.runtimeName, suite.runtimeVersion);
      if (crash !== undefined)
        return `not sent, so as not to bring the runtime down: ${crash} (--include-crashing runs it anyway)`;
    } else if ('events' in req) {
      const missing = req.events.filter((e) => !maskHas(suite.acceptedEvents, e));
      if (missing.length > 0)
        return `the test plugin cannot take ${missing.join(' or ')}: the runtime's Configure (${suite.nriLabel}) does not tell that its NRI knows it, and a runtime refuses a plugin that subscribes to an event it does not know`;
    } else {
      const probe = await suite.podUpdates();
      if (!probe.has) return probe.why;
    }
  }
  return undefined;
}
