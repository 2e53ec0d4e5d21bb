// How iSulad takes in an external plugin (NewExternalPlugin, nri_adaption.cc:163-243 at
// d2434895): keyed by a random name and in its plugin map before it is synchronized, so
// that CRI calls reach it while its Synchronize is in flight, and plugins are invoked in
// the order of those random names. Seen on the kit's iSulad: CreateContainer went to a
// plugin whose Synchronize was held, and teardown/index-order passed in 3 of 6 runs.
import { describe, expect, it } from 'vitest';
import type { nri } from '../../src/api/index.js';
import { RUNTIME_PRESETS } from '../../src/runtime/index.js';
import { simPerTest, waitFor, waitForPlugin } from './helpers.js';

const t = simPerTest();

const ISULAD = RUNTIME_PRESETS['isulad-2.1.5'];
const isuladOptions = {
  runtimeName: ISULAD.runtimeName,
  runtimeVersion: ISULAD.runtimeVersion,
  nriVersion: ISULAD.nriVersion,
  quirks: ISULAD.quirks!,
};
const POD: nri.IPodSandbox = { id: 'pod1', name: 'web-0', namespace: 'shop', uid: 'u1' };
const CTR: nri.IContainer = { id: 'ctr1', name: 'web', args: ['/bin/web'] };

/** A plugin whose Synchronize is held until release(); what it saw, in order. */
function heldSync(name: string) {
  const seen: string[] = [];
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let synchronizing = false;
  const plugin = t.plugin(name, '10', {
    synchronize: async () => {
      synchronizing = true;
      seen.push('synchronize');
      await held;
      seen.push('synchronize answered');
    },
    createContainer: (_pod, ctr) => void seen.push(`create ${ctr.name ?? ''}`),
  });
  return { plugin, seen, release, synchronizing: () => synchronizing };
}

describe('an external plugin joining iSulad', () => {
  it('gets CreateContainer while its Synchronize is still in flight, and the container is made', async () => {
    const sim = await t.start({ pods: [POD], containers: [] }, isuladOptions);
    const late = heldSync('late');
    const started = late.plugin.start();
    await waitFor('the Synchronize', () => late.synchronizing());
    const created = await sim.runtime.createContainer('pod1', CTR);
    expect(created.ok).toBe(true);
    expect(late.seen).toEqual(['synchronize', 'create web']);
    late.release();
    await started;
    expect(late.seen).toEqual(['synchronize', 'create web', 'synchronize answered']);
  });

  it('is invoked in the order of the random names it was given, not by index', async () => {
    const names = ['f0', 'a0', 'a1', 'f1'];
    const sim = await t.start(
      { pods: [POD], containers: [] },
      { ...isuladOptions, externalName: () => names.shift() ?? 'zz' },
    );
    const order = async (...plugins: Array<[string, string]>) => {
      for (const [name, index] of plugins) {
        const p = t.plugin(name, index, { createContainer: () => undefined });
        await p.start();
        await waitForPlugin(sim, p.fullName);
      }
      return sim.runtime.plugins().map((p) => p.name);
    };
    // 10-x is named f0, 11-y a0: y first. Then 20-u a1, 21-v f1.
    expect(await order(['x', '10'], ['y', '11'])).toEqual(['11-y', '10-x']);
    expect(await order(['u', '20'], ['v', '21'])).toEqual(['11-y', '20-u', '10-x', '21-v']);
  });
});

describe('a Go runtime, for contrast', () => {
  it('holds CreateContainer back until the joining plugin answered its Synchronize', async () => {
    const sim = await t.start({ pods: [POD], containers: [] });
    const late = heldSync('late');
    const started = late.plugin.start();
    await waitFor('the Synchronize', () => late.synchronizing());
    const created = sim.runtime.createContainer('pod1', CTR);
    late.release();
    await started;
    expect((await created).ok).toBe(true);
    await waitFor('the CreateContainer', () => late.seen.includes('create web'));
    expect(late.seen).toEqual(['synchronize', 'synchronize answered', 'create web']);
  });
});
