// Expectations on what a late plugin learnt: its Synchronize, and the events after it.
import { CheckFailure } from '../errors.js';
import type { Step } from '../check.js';
import type { KnownGap } from '../model.js';
import { said } from './said.js';

/** The plugin's Synchronize listed these pods and containers (aliases). */
export function expectSynchronized(index: string, pods: string[], containers: string[]): Step {
  return {
    label: `plugin ${index}'s Synchronize lists ${[...pods, ...containers].join(', ')}`,
    run: async (r) => {
      const sync = r.plugin(index).seen.find((s) => s.event === 'Synchronize');
      if (!sync) throw new CheckFailure(`plugin ${index} to be synchronized`, 'no Synchronize');
      const missingPods = pods.filter((a) => !sync.syncPodIds?.includes(r.pod(a).id));
      const missing = containers.filter((a) => !sync.syncContainerIds?.includes(r.ctr(a).id));
      if (missingPods.length + missing.length > 0)
        throw new CheckFailure(
          `plugin ${index}'s Synchronize to list ${[...pods, ...containers].join(', ')}`,
          `it without ${[...missingPods.map((p) => `pod ${r.podName(p)}`), ...missing.map((c) => `container ${c}`)].join(', ')}`,
        );
    },
  };
}

/** The containers started during the hold (`up:ALIAS`) were created and started. */
export function broughtUp(aliases: string[]): Step {
  return {
    label: `${aliases.join(', ')} created and started`,
    run: async (r) => {
      for (const a of aliases) {
        const o = await r.outcome(`up:${a}`);
        if (!o.ok)
          throw new CheckFailure(
            `container ${a}, made during the Synchronize, to be created and started`,
            said(o.error),
          );
      }
    },
  };
}

/** Every container reached the plugin: listed in its Synchronize, or as a CreateContainer event. */
export function expectReached(index: string, aliases: string[], known: KnownGap[]): Step {
  return {
    label: `${aliases.join(', ')} reached plugin ${index}`,
    run: async (r) => {
      await r.settle();
      const seen = r.plugin(index).seen;
      const synced = new Set(seen.find((s) => s.event === 'Synchronize')?.syncContainerIds ?? []);
      const creates = seen.filter((s) => s.event === 'CreateContainer');
      const created = new Set(creates.map((s) => s.containerId));
      // A runtime that sends no id with CreateContainer (iSulad) is matched by the name.
      const createdByName = new Set(creates.filter((s) => s.containerId === '').map((s) => s.containerName));
      const lost = aliases.filter((a) => {
        const id = r.ctr(a).id;
        return !synced.has(id) && !created.has(id) && !createdByName.has(a);
      });
      if (lost.length > 0)
        throw new CheckFailure(
          `${aliases.join(', ')} to reach plugin ${index} in its Synchronize or as CreateContainer`,
          `${lost.join(', ')} reach it neither way`,
          known,
        );
    },
  };
}
