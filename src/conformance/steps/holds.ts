// Holding a hook while the check looks around: the trigger's call is issued without
// waiting, the plugin's hook is held when it comes, the steps run, and the hook is
// released on every path, well before the runtime's request timeout.
import { CheckError, CheckFailure } from '../errors.js';
import type { Step } from '../check.js';
import type { NriEventName, PluginSpec } from '../model.js';
import type { CheckRun } from '../check-run.js';

async function held(r: CheckRun, index: string, what: string, during: readonly Step[]): Promise<void> {
  const p = r.plugin(index);
  const t = performance.now();
  const hold = await p.nextHold(r.timing.eventWaitMs);
  r.count('nriMs', t);
  if (!hold) {
    if (p.dropped)
      throw new CheckError(`plugin ${p.fullName} was dropped before its ${what} hook: ${p.dropped.message}`);
    throw new CheckFailure(
      `the runtime to call the ${what} hook of plugin ${p.fullName}`,
      `no call within ${r.timing.eventWaitMs} ms`,
    );
  }
  r.hold = hold;
  let failure: unknown;
  try {
    for (const s of during) await s.run(r);
  } catch (err) {
    failure = err;
  }
  const expired = hold.expired;
  hold.release();
  r.hold = undefined;
  if (failure) throw failure as Error;
  if (expired)
    throw new CheckError(
      `the ${what} hook was held past its bound of ${r.timing.holdBoundMs} ms: the check took too long`,
    );
}

/** Issues `trigger`, holds plugin `index`'s `what` hook when it comes, runs `during`, releases. */
export function whileHeld(index: string, what: NriEventName, trigger: Step, during: Step[]): Step {
  return {
    label: `${trigger.label}, its ${what} hook held`,
    run: async (r) => {
      await trigger.run(r);
      await held(r, index, what, during);
    },
  };
}

/** Registers a plugin that joins during the check; its registration (and Synchronize) counts as NRI time. */
export function connect(index: string): Step {
  return {
    label: `plugin ${index} connects`,
    run: async (r) => {
      await r.connect(spec(r, index));
    },
  };
}

/** A plugin connects, its Synchronize is held while `during` runs, then released; it must then be live. */
export function connectWhileHeld(index: string, during: Step[]): Step {
  return {
    label: `plugin ${index} connects, its Synchronize held`,
    run: async (r) => {
      r.start(`connect:${index}`, (unwaited) => unwaited.connect(spec(r, index)), 'nri');
      await held(r, index, 'Synchronize', during);
      const o = await r.outcome(`connect:${index}`);
      if (!o.ok) throw o.error;
    },
  };
}

function spec(r: CheckRun, index: string): PluginSpec {
  const s = r.check.plugins.find((p) => p.index === index);
  if (!s) throw new CheckError(`the check has no plugin ${index} (a check's definition is wrong)`);
  return s;
}

/** A deliberate pause: a call issued during a hold gets this long to reach the runtime. */
export function settleInFlight(): Step {
  return { label: 'let the calls reach the runtime', run: (r) => r.wait(r.timing.settleMs) };
}
