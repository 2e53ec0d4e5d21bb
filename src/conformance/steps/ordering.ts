// Expectations of the multi-plugin ordering check, while the last plugin's hook is held.
import { CriPodState } from '../../cri/index.js';
import { CheckFailure } from '../errors.js';
import type { Step } from '../check.js';
import { refusal, said } from './said.js';
import { heldPod } from './state.js';

/** While the hook of the last of `indexes` is held, each earlier plugin has had it once, in index order, and the last has it now. */
export function expectSeenSoFar(indexes: string[], alias: string): Step {
  return {
    label: `RunPodSandbox of ${alias} reached ${indexes.join(', ')} in order`,
    run: async (r) => {
      const all = indexes
        .flatMap((i) => r.podEvents(i, alias).filter((s) => s.event === 'RunPodSandbox'))
        .sort((a, b) => a.seq - b.seq);
      const order = all.map((s) => s.plugin).join(', ');
      if (order !== indexes.join(', '))
        throw new CheckFailure(
          `RunPodSandbox of pod ${r.podName(alias)} at plugins ${indexes.join(', ')} in that order, once each, by the time the last is held`,
          order || 'none',
        );
    },
  };
}

/** For the window, polled: the RunPodSandbox call has not returned, the pod is not listed, and not ready. */
export function expectHeldBack(alias: string): Step {
  return {
    label: `pod ${alias} held back while a hook runs`,
    run: async (r) => {
      const id = heldPod(r);
      const until = performance.now() + r.timing.windowMs;
      const every = Math.max(5, Math.floor(r.timing.windowMs / 3));
      for (;;) {
        if (r.ended(`run:${alias}`)) {
          const o = await r.outcome(`run:${alias}`);
          throw new CheckFailure(
            `RunPodSandbox of pod ${r.podName(alias)} not to return while a hook runs`,
            o.ok ? 'it return' : `it fail (${said(o.error)})`,
          );
        }
        const listed = (await r.cri((c, o) => c.listPodSandbox(undefined, o), false)).items.some((p) => p.id === id);
        if (listed) throw new CheckFailure(`pod ${r.podName(alias)} not listed while a hook runs`, 'it listed');
        let state: number | undefined;
        try {
          state = (await r.cri((c, o) => c.podSandboxStatus(id, false, o), false)).status?.state ?? undefined;
        } catch (err) {
          refusal(err, `PodSandboxStatus of pod ${r.podName(alias)}`);
          state = undefined;
        }
        if (state === CriPodState.READY)
          throw new CheckFailure(`pod ${r.podName(alias)} not SANDBOX_READY while a hook runs`, 'SANDBOX_READY');
        if (performance.now() >= until) return;
        await r.wait(every);
      }
    },
  };
}

/** Every plugin saw the id the RunPodSandbox call returned. */
export function expectSameIdAsReturned(indexes: string[], alias: string): Step {
  return {
    label: `plugins saw the id RunPodSandbox returned`,
    run: async (r) => {
      const id = r.pod(alias).id;
      for (const i of indexes) {
        const s = r.podEvents(i, alias).find((e) => e.event === 'RunPodSandbox');
        if (s && s.podId !== id)
          throw new CheckFailure(`plugin ${i}'s RunPodSandbox to carry the id RunPodSandbox returned (${id})`, s.podId);
      }
    },
  };
}
