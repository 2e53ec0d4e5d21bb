// A check's test plugins stay connected until the teardown of what they watched is done:
// the runtime sends them the StopPodSandbox and RemovePodSandbox of the check's pods, and
// a plugin that left before would take them on a closed connection, which containerd
// logs ("failed to handle StopPodSandbox request: ttrpc: closed") and counts as the
// plugin's fatal failure. The runtime is the simulator on real NRI and CRI sockets; what
// it delivered to each plugin is in its own event stream.
import { describe, expect, it } from 'vitest';
import type { SimEvent } from '../../src/runtime/index.js';
import { simulatedNode } from './simulated-node.js';

const node = simulatedNode();

type Invoke = Extract<SimEvent, { type: 'invoke' }>;

describe("a check's test plugins and the teardown of its pods", () => {
  it.each([['adjust/env'], ['pod-lifecycle']])(
    '%s: every pod a plugin saw run, it sees stopped and removed before it leaves; none is dropped',
    async (check) => {
      const from = node.sim.events.length;
      const plan = await node.plan([check], new AbortController().signal);
      try {
        const report = await plan.run();
        expect(report.verdicts.map((v) => [v.name, v.status])).toEqual([[check, 'pass']]);
        expect(report.leftovers).toEqual([]);
      } finally {
        plan.close();
      }
      const events = node.sim.events.slice(from);
      const plugins = [
        ...new Set(
          events
            .filter((e) => e.type === 'registered' && e.plugin !== '99-nrictl-conformance')
            .map((e) => (e as { plugin: string }).plugin),
        ),
      ];
      expect(plugins.length).toBeGreaterThan(0);
      for (const plugin of plugins) {
        const mine = events.filter((e) => 'plugin' in e && e.plugin === plugin);
        const invoked = (event: string): string[] =>
          mine.filter((e): e is Invoke => e.type === 'invoke' && e.event === event).map((e) => e.pod ?? '');
        const ran = invoked('RunPodSandbox');
        expect(ran.length, plugin).toBeGreaterThan(0);
        expect(new Set(invoked('StopPodSandbox')), plugin).toEqual(new Set(ran));
        expect(new Set(invoked('RemovePodSandbox')), plugin).toEqual(new Set(ran));
        expect(
          mine.filter((e) => e.type === 'dropped' || e.type === 'error'),
          plugin,
        ).toEqual([]);
        // It left after the last event it was sent, its work done.
        expect(mine.at(-1)?.type, plugin).toBe('stopped');
      }
    },
  );
});
