// Expectations on what an event carries about its pod.
import { CheckFailure } from '../errors.js';
import type { Step } from '../check.js';

/** RunPodSandbox carries the pod's CRI name, namespace and uid; every event of the pod carries its id. */
export function expectPodMetadata(index: string, alias: string): Step {
  return {
    label: `events of ${alias} carry its metadata`,
    run: async (r) => {
      await r.settle();
      const pod = r.pod(alias);
      const meta = pod.config.metadata ?? {};
      const events = r.podEvents(index, alias);
      // The events are found by the pod's name or its uid (CheckRun.isPod), so that a
      // runtime that names pods its own way fails here, once, and not in every step after.
      const run = events.find((s) => s.event === 'RunPodSandbox');
      if (run) {
        const saw = `${run.podName}/${run.podNamespace}/${run.podUid}`;
        const want = `${meta.name ?? ''}/${meta.namespace ?? ''}/${meta.uid ?? ''}`;
        if (saw !== want) throw new CheckFailure(`RunPodSandbox to carry name/namespace/uid ${want}`, saw);
      }
      const wrong = events.find((s) => s.podId !== pod.id);
      if (wrong) throw new CheckFailure(`${wrong.event} to carry the pod's id ${pod.id}`, JSON.stringify(wrong.podId));
    },
  };
}
