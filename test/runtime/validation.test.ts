// ValidateContainerAdjustment: validator plugins see the untouched container, the merged
// adjustment, the owners and every plugin, and a rejection fails the creation.
import { describe, expect, it } from 'vitest';
import { nri } from '../../src/api/index.js';
import { Stub } from '../../src/plugin/index.js';
import { parseScenario } from '../../src/runtime/sim/scenario.js';
import { ofType, simPerTest, waitForPlugin, type Sim } from './helpers.js';

const perTest = simPerTest();
let sim: Sim | undefined;

async function plugin(name: string, index: string, handlers: ConstructorParameters<typeof Stub>[0]): Promise<Stub> {
  const s = perTest.plugin(name, index, handlers);
  await s.start();
  await waitForPlugin(sim!, `${index}-${name}`);
  return s;
}

const SCENARIO = parseScenario(`pods:\n  - {id: pod0, name: web, namespace: shop}\n`, 'inline.yaml');

describe('validator plugins', () => {
  it('see the original container, the merged adjustment, the owners and every plugin; accepting lets the creation through', async () => {
    sim = await perTest.start(SCENARIO);
    let seen: nri.IValidateContainerAdjustmentRequest | undefined;
    await plugin('annotator', '10', { createContainer: () => ({ adjust: { annotations: { team: 'a' } } }) });
    await plugin('logger', '20', { startContainer: () => undefined });
    await plugin('policy', '90', { validateContainerAdjustment: (req) => void (seen = req) });
    const r = await sim.runtime.createContainer('pod0', { id: 'ctr0', name: 'app', annotations: { orig: '1' } });
    expect(r.ok).toBe(true);
    expect(seen?.container?.annotations).toEqual({ orig: '1' });
    expect(seen?.adjust?.annotations).toEqual({ team: 'a' });
    expect(seen?.plugins?.map((p) => `${p.index}-${p.name}`)).toEqual(['10-annotator', '20-logger', '90-policy']);
    expect(seen?.owners?.owners?.ctr0?.compound?.[nri.Field.Annotations]?.owners).toEqual({ team: '10-annotator' });
    expect(ofType(sim.events, 'invoke').map((e) => `${e.event} ${e.plugin}`)).toEqual([
      'CreateContainer 10-annotator',
      'ValidateContainerAdjustment 90-policy',
    ]);
    expect(sim.runtime.state.mustContainer('ctr0').annotations).toMatchObject({ team: 'a' });
  });

  it('a rejection fails the creation, names the validator and leaves no container behind', async () => {
    sim = await perTest.start(SCENARIO);
    await plugin('annotator', '10', { createContainer: () => ({ adjust: { annotations: { privileged: 'yes' } } }) });
    await plugin('accepting', '80', { validateContainerAdjustment: () => undefined });
    await plugin('policy', '90', {
      validateContainerAdjustment: (req) =>
        req.adjust?.annotations?.privileged ? { reject: true, reason: 'no privileged annotations' } : undefined,
    });
    const r = await sim.runtime.createContainer('pod0', { id: 'ctr0', name: 'app' });
    expect(r.ok).toBe(false);
    expect(r.ok ? '' : r.error.message).toMatch(
      /validator "90-policy" rejected container adjustment, reason: no privileged annotations/,
    );
    expect(ofType(sim.events, 'rejected')).toMatchObject([
      { plugin: '90-policy', container: 'ctr0', reason: 'no privileged annotations' },
    ]);
    expect(sim.runtime.state.container('ctr0')).toBeUndefined();
  });

  it('a validator that throws rejects too (the SDK turns it into a rejection)', async () => {
    sim = await perTest.start(SCENARIO);
    await plugin('policy', '90', {
      validateContainerAdjustment: () => {
        throw new Error('policy store unreachable');
      },
    });
    const r = await sim.runtime.createContainer('pod0', { id: 'ctr0', name: 'app' });
    expect(r.ok).toBe(false);
    expect(ofType(sim.events, 'rejected')[0]?.reason).toBe('policy store unreachable');
  });

  it('a validator that hangs past the request timeout fails the creation and is dropped', async () => {
    sim = await perTest.start(SCENARIO, { requestTimeoutMs: 300 });
    await plugin('slow', '90', { validateContainerAdjustment: () => new Promise((r) => setTimeout(r, 2000)) });
    const r = await sim.runtime.createContainer('pod0', { id: 'ctr0', name: 'app' });
    expect(r.ok).toBe(false);
    expect(ofType(sim.events, 'error').find((e) => e.event === 'ValidateContainerAdjustment')?.message).toMatch(
      /validator plugin 90-slow failed/,
    );
    expect(sim.runtime.plugins()).toEqual([]);
    // With the validator gone the next creation goes through.
    expect((await sim.runtime.createContainer('pod0', { id: 'ctr1', name: 'next' })).ok).toBe(true);
  });

  it('runtimes before v0.10 never validate', async () => {
    sim = await perTest.start(SCENARIO, { nriVersion: 'v0.6.1' });
    let validated = false;
    // The SDK drops the validation bit such a runtime cannot know; it still subscribes to CreateContainer.
    await plugin('policy', '90', {
      createContainer: () => undefined,
      validateContainerAdjustment: () => void (validated = true),
    });
    const r = await sim.runtime.createContainer('pod0', { id: 'ctr0', name: 'app' });
    expect(r.ok).toBe(true);
    expect(validated).toBe(false);
  });
});
