// A point in the check's events, for "nothing since": taken once everything the runtime
// relayed so far has arrived (the canary), so that nothing caused earlier counts after it.
import type { Step } from '../check.js';

export function mark(name: string): Step {
  return {
    label: `mark ${name}`,
    run: async (r) => {
      await r.settle();
      r.mark(name);
    },
  };
}
