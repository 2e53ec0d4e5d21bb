// What the isulad-2.1.5 preset reproduces of real iSulad (master d2434895, the real-runtime
// kit): a CRI UpdateContainerResources takes the runtime down, so conformance does not send
// one unless told to; and a plugin's CPU adjustment without a cpuset is refused, which is
// iSulad's doing, not nrictl's: nrictl's answer carries no cpuset at all.
import { describe, expect, it } from 'vitest';
import { nri } from '../../src/api/index.js';
import { CHECKS, runOnSimulator } from '../../src/conformance/index.js';
import { emptyCpusetRefusal } from '../../src/runtime/sim/quirks.js';

const stop = new AbortController().signal;
const UPDATE = 'update-container/relayed';

describe('iSulad, which dies on a CRI UpdateContainerResources', () => {
  it('is not sent one: the check that needs it is skipped, with the reason and the flag that runs it', async () => {
    const r = await runOnSimulator({ preset: 'isulad-2.1.5', focus: [UPDATE], signal: stop });
    expect(r.verdicts.map((v) => [v.name, v.status])).toEqual([[UPDATE, 'skip']]);
    expect(r.verdicts[0].reason).toBe(
      'not sent, so as not to bring the runtime down: iSulad with NRI enabled exits (SIGSEGV) on any CRI UpdateContainerResources, whether or not a plugin is connected: NRIAdaptation::UpdateContainer reads pluginResult::GetReplyResources, an entry nothing filled (--include-crashing runs it anyway)',
    );
    // Skipped before anything was made: the node is as it was, and said to be.
    expect(r.leftovers).toEqual([]);
    expect(r.leftoversUnchecked).toBeUndefined();
    expect(r.exitCode).toBe(0);
  });

  it('with --include-crashing: the call is sent and the runtime goes away, which the run says', async () => {
    const r = await runOnSimulator({
      preset: 'isulad-2.1.5',
      focus: [UPDATE, 'container-lifecycle/post-events'],
      includeCrashing: true,
      signal: stop,
    });
    expect(r.verdicts.map((v) => [v.name, v.status])).toEqual([
      ['container-lifecycle/post-events', 'pass'],
      [UPDATE, 'error'],
    ]);
    expect(r.verdicts[1].reason).toMatch(/went away during UpdateContainerResources/);
    expect(r.leftoversUnchecked?.reason).toMatch(/^the runtime did not answer the last listing/);
    expect(r.exitCode).toBe(1);
  });

  it('is still sent one on the runtimes that survive it', async () => {
    const r = await runOnSimulator({ preset: 'containerd-2.3', focus: [UPDATE], signal: stop });
    expect(r.verdicts.map((v) => [v.name, v.status])).toEqual([[UPDATE, 'pass']]);
  });
});

describe("a plugin's CPU adjustment on iSulad", () => {
  it('refuses one without a cpuset, then one without memory nodes, in its words', () => {
    const shares = { linux: { resources: { cpu: { shares: { value: 384 } } } } };
    expect(emptyCpusetRefusal(shares)).toMatch(/^Requested CPUs are not available - requested , available: 0-\d+\.$/);
    expect(emptyCpusetRefusal({ linux: { resources: { cpu: { shares: { value: 384 }, cpus: '0' } } } })).toBe(
      'Requested memory nodes are not available - requested , available: 0.',
    );
    expect(
      emptyCpusetRefusal({ linux: { resources: { cpu: { shares: { value: 384 }, cpus: '0', mems: '0' } } } }),
    ).toBeUndefined();
    // No CPU message from any plugin: nothing of a cpuset reaches its spec.
    expect(emptyCpusetRefusal({ linux: { resources: { memory: { limit: { value: 1 } }, cpu: {} } } })).toBeUndefined();
    expect(emptyCpusetRefusal({ env: [{ key: 'A', value: 'b' }] })).toBeUndefined();
  });

  it('is sent by nrictl with no cpuset on the wire: the empty one is made on iSulad’s side', () => {
    const check = CHECKS.find((c) => c.name === 'adjust/resources');
    const react = check?.plugins[0].rules?.[0].react;
    const adjust = react && 'adjust' in react ? react.adjust : undefined;
    expect(adjust?.linux?.resources?.cpu?.shares).toEqual({ value: 384 });
    // As the plugin stub answers CreateContainer (plugin-service.ts), encoded and read back:
    // a field present on the wire is an own property of the decoded message.
    const wire = nri.CreateContainerResponse.encode({ adjust, update: [], evict: [] }).finish();
    const cpu = nri.CreateContainerResponse.decode(wire).adjust?.linux?.resources?.cpu;
    expect(cpu && Object.keys(cpu)).toEqual(['shares']);
  });
});
