// Expectations on the hooks a plugin was called with.
import { CheckFailure } from '../errors.js';
import type { Step } from '../check.js';

/** The plugin's RunPodSandbox hook was called for the pod, with an id. */
export function hookSawPod(index: string, alias: string): Step {
  return {
    label: `plugin ${index} saw RunPodSandbox of ${alias}`,
    run: async (r) => {
      const s = await r.event(
        index,
        (e) => e.event === 'RunPodSandbox' && r.isPod(e, alias),
        `the RunPodSandbox hook called for pod ${r.podName(alias)}`,
      );
      if (s.podId === '')
        throw new CheckFailure(`the RunPodSandbox hook of pod ${r.podName(alias)} to carry a pod id`, 'none');
    },
  };
}

/** The plugin's CreateContainer hook was called for the container. */
export function hookSawContainer(index: string, pod: string, alias: string): Step {
  return {
    label: `plugin ${index} saw CreateContainer of ${alias}`,
    run: async (r) => {
      await r.event(
        index,
        (e) =>
          e.event === 'CreateContainer' && r.isPod(e, pod) && (e.containerName === alias || e.containerName === ''),
        `the CreateContainer hook called for container ${alias}`,
      );
    },
  };
}
