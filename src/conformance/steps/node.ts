// Expectations on what the node runs beyond CRI's listings (node-view.ts): a pod CRI
// refused must leave no shim, pause process or cgroup behind. Where the node does not
// let nrictl look, the check says so in its notes and is judged on CRI alone.
import type { CheckRun } from '../check-run.js';
import { CheckFailure } from '../errors.js';
import type { Step } from '../check.js';
import type { KnownGap } from '../model.js';
import { describeFinding, settledLook } from '../node-view.js';

/** containerd#13609: the refused sandbox keeps running (containerd 2.0.0-2.2.5, 2.3.0-2.3.2). */
const REFUSED_SANDBOX_RUNS: KnownGap = {
  ref: 'containerd#13609',
  runtimes: ['containerd'],
  note: 'containerd 2.0.0-2.2.5 and 2.3.0-2.3.2 start the sandbox before the RunPodSandbox hook and leave it running when the hook fails; fixed in 2.2.6 and 2.3.3 (containerd#13644, #13645)',
};

/** Nothing of the pod whose id `idOf` gives is on the node, CRI's listings aside. */
export function expectNothingOnNode(idOf: (r: CheckRun) => string, alias: string, when: string): Step {
  return {
    label: `nothing of pod ${alias} on the node ${when}`,
    run: async (r) => {
      const id = idOf(r);
      const look = await settledLook(r.suite.node, [id], r.timing.nodeSettleMs, (ms) => r.wait(ms));
      if (!look.checked) {
        r.note(`not checked beyond CRI: ${look.why}`);
        return;
      }
      for (const limit of look.limits) r.note(`beyond CRI, ${limit}`);
      const f = look.found[0];
      if (f)
        throw new CheckFailure(
          `nothing of pod ${r.podName(alias)} left on the node ${when}`,
          `its sandbox ${id} still there, in no CRI listing: ${describeFinding(f)}`,
          [REFUSED_SANDBOX_RUNS],
        );
    },
  };
}
