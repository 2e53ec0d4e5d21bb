// A step that asks the runtime for something over CRI and needs it done: its refusal
// fails the check, in words that name the call and what it was about.
import type { CheckRun } from '../check-run.js';
import { CheckError, CheckFailure } from '../errors.js';
import type { Step } from '../check.js';
import { said } from './said.js';

/**
 * `what` names the call for the failure ("StopPodSandbox of pod p-c3"); `act` makes it
 * (and records what it made). A check that cannot be judged stays an error.
 */
export function mustSucceed(
  label: string,
  what: (r: CheckRun) => string,
  act: (r: CheckRun) => Promise<unknown>,
): Step {
  return {
    label,
    run: async (r) => {
      try {
        await act(r);
      } catch (err) {
        if (err instanceof CheckError) throw err;
        throw new CheckFailure(`${what(r)} to succeed`, said(err));
      }
    },
  };
}
