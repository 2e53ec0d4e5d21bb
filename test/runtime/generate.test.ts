import { describe, expect, it } from 'vitest';
import { generateScenario } from '../../src/runtime/generate.js';
import { SimState } from '../../src/runtime/state.js';

describe('generateScenario', () => {
  it('is deterministic for a seed and differs between seeds', () => {
    const a = generateScenario({ pods: 20, containersPerPod: 3, seed: 7 });
    const b = generateScenario({ pods: 20, containersPerPod: 3, seed: 7 });
    const c = generateScenario({ pods: 20, containersPerPod: 3, seed: 8 });
    expect(a).toEqual(b);
    expect(a.pods.map((p) => p.id)).not.toEqual(c.pods.map((p) => p.id));
  });

  it('produces the requested counts with kubernetes-shaped metadata that loads into SimState', () => {
    const s = generateScenario({ pods: 1000, containersPerPod: 5, seed: 1 });
    expect(s.pods).toHaveLength(1000);
    expect(s.containers).toHaveLength(5000);
    const state = new SimState({ pods: s.pods, containers: s.containers }); // throws on duplicate ids or dangling pods
    expect(state.containersOf(s.pods[0]!.id!)).toHaveLength(5);
    const ctr = s.containers[0]!;
    expect(ctr.labels!['io.kubernetes.pod.name']).toBe(s.pods[0]!.name);
    expect(ctr.labels!['io.kubernetes.pod.namespace']).toBe(s.pods[0]!.namespace);
    expect(ctr.linux!.resources!.cpu!.shares!.value).toBeGreaterThan(0);
    expect(s.pods[0]!.uid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-8[0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(s.pods[0]!.id).toMatch(/^[0-9a-f]{64}$/);
  });
});
