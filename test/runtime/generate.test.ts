import { describe, expect, it } from 'vitest';
import { generateScenario } from '../../src/runtime/sim/generate.js';
import { SimState } from '../../src/runtime/sim/state.js';

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
    expect(state.containersOf(s.pods[0].id!)).toHaveLength(5);
    const ctr = s.containers[0];
    expect(ctr.labels!['io.kubernetes.pod.name']).toBe(s.pods[0].name);
    expect(ctr.labels!['io.kubernetes.pod.namespace']).toBe(s.pods[0].namespace);
    expect(ctr.linux!.resources!.cpu!.shares!.value).toBeGreaterThan(0);
    expect(s.pods[0].uid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-8[0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(s.pods[0].id).toMatch(/^[0-9a-f]{64}$/);
  });

  it("detail 'full' keeps the compact state's names and ids and adds env, mounts, namespaces and more metadata", () => {
    const compact = generateScenario({ pods: 10, containersPerPod: 3, seed: 5 });
    const full = generateScenario({ pods: 10, containersPerPod: 3, seed: 5, detail: 'full' });
    expect(full.pods.map((p) => [p.id, p.name, p.uid])).toEqual(compact.pods.map((p) => [p.id, p.name, p.uid]));
    expect(full.containers.map((c) => [c.id, c.name, c.podSandboxId])).toEqual(
      compact.containers.map((c) => [c.id, c.name, c.podSandboxId]),
    );
    const ctr = full.containers[0];
    expect(ctr.mounts!.length).toBeGreaterThanOrEqual(7);
    expect(ctr.env!.length).toBeGreaterThan(compact.containers[0].env!.length);
    expect(ctr.linux!.namespaces!.map((n) => n.type)).toContain('network');
    expect(ctr.linux!.cgroupsPath).toContain(ctr.id!);
    expect(full.pods[0].linux!.cgroupsPath).toContain(full.pods[0].id!);
    expect(compact.containers[0].mounts).toBeUndefined();
  });
});
