// RunPodSandbox repeating a live pod's metadata: containerd refuses (the name is
// reserved), CRI-O answers the same pod (an idempotent retry); a new pod is wrong.
import { CheckFailure } from '../errors.js';
import type { Step } from '../check.js';
import { refusal, said } from './said.js';

export function duplicateRunPod(alias: string): Step {
  return {
    label: `RunPodSandbox repeating ${alias}'s metadata`,
    run: async (r) => {
      const pod = r.pod(alias);
      let id: string;
      try {
        id = (await r.cri((c, o) => c.runPodSandbox(pod.config, '', o))).podSandboxId;
      } catch (err) {
        refusal(err, 'the duplicate RunPodSandbox');
        r.note(`the duplicate was refused (${said(err)})`);
        return;
      }
      if (id === pod.id) {
        r.note("the duplicate answered the live pod's id");
        return;
      }
      r.adoptPod(`${alias}-duplicate`, id, pod.config);
      throw new CheckFailure(`the duplicate RunPodSandbox to fail or answer pod ${pod.id}`, `a new pod ${id}`);
    },
  };
}
