import { describe, expect, it } from 'vitest';
import { nri } from '../../src/api/index.js';
import { StateError } from '../../src/runtime/sim/errors.js';
import { SimState } from '../../src/runtime/sim/state.js';

function state(): SimState {
  return new SimState({
    pods: [
      { id: 'p0', name: 'web', namespace: 'default' },
      { id: 'p1', name: 'db', namespace: 'prod' },
    ],
    containers: [
      {
        id: 'c0',
        podSandboxId: 'p0',
        name: 'nginx',
        state: nri.ContainerState.CONTAINER_RUNNING,
        linux: { resources: { cpu: { shares: { value: 1024 }, cpus: '0-3' } } },
      },
      { id: 'c1', podSandboxId: 'p1', name: 'pg', state: nri.ContainerState.CONTAINER_CREATED },
    ],
  });
}

describe('SimState', () => {
  it('looks pods and containers up and lists them in insertion order', () => {
    const s = state();
    expect(s.pods().map((p) => p.id)).toEqual(['p0', 'p1']);
    expect(s.container('c1')?.name).toBe('pg');
    expect(s.containersOf('p0').map((c) => c.id)).toEqual(['c0']);
    expect(s.container('nope')).toBeUndefined();
    expect(() => s.mustContainer('nope')).toThrow(StateError);
    expect(() => s.mustContainer('nope')).toThrow(/no container "nope"/);
  });

  it('refuses duplicates and containers of unknown pods', () => {
    const s = state();
    expect(() => s.addPod({ id: 'p0' })).toThrow(/already exists/);
    expect(() => s.addContainer({ id: 'c9', podSandboxId: 'zz' })).toThrow(/no pod sandbox "zz"/);
  });

  it('snapshots are deep copies', () => {
    const s = state();
    const snap = s.snapshot();
    snap.containers[0].linux!.resources!.cpu!.cpus = '7';
    expect(s.container('c0')!.linux!.resources!.cpu!.cpus).toBe('0-3');
    s.setContainerState('c1', nri.ContainerState.CONTAINER_RUNNING);
    expect(snap.containers[1].state).toBe(nri.ContainerState.CONTAINER_CREATED);
  });

  it('moves containers through states and stamps the times', () => {
    const s = state();
    const c = s.setContainerState('c1', nri.ContainerState.CONTAINER_RUNNING);
    expect(c.state).toBe(nri.ContainerState.CONTAINER_RUNNING);
    expect(c.startedAt).toBeGreaterThan(0);
    s.setContainerState('c1', nri.ContainerState.CONTAINER_STOPPED, 137);
    expect(s.container('c1')).toMatchObject({ state: nri.ContainerState.CONTAINER_STOPPED, exitCode: 137 });
    expect(s.container('c1')!.finishedAt).toBeGreaterThan(0);
  });

  it('overlays only the resource fields an update sets', () => {
    const s = state();
    s.applyLinuxResources('c0', {
      cpu: { quota: { value: 50000 } },
      memory: { limit: { value: 1 << 30 } },
      pids: { limit: 64 },
    });
    expect(s.container('c0')!.linux!.resources).toEqual({
      cpu: { shares: { value: 1024 }, cpus: '0-3', quota: { value: 50000 } },
      memory: { limit: { value: 1 << 30 } },
      pids: { limit: 64 },
    });
    s.applyLinuxResources('c0', { cpu: { cpus: '4-5' }, unified: { 'memory.high': '1G' } });
    expect(s.container('c0')!.linux!.resources!.cpu).toMatchObject({ shares: { value: 1024 }, cpus: '4-5' });
    expect(s.container('c0')!.linux!.resources!.unified).toEqual({ 'memory.high': '1G' });
  });

  it('applies pod resources and removes pods only when empty unless asked', () => {
    const s = state();
    s.applyPodResources('p1', { cpu: { shares: { value: 2 } } }, { memory: { limit: { value: 10 } } });
    expect(s.pod('p1')!.linux).toMatchObject({
      resources: { cpu: { shares: { value: 2 } } },
      podOverhead: { memory: { limit: { value: 10 } } },
    });
    expect(() => s.removePod('p1')).toThrow(/still has containers \(c1\)/);
    const removed = s.removePod('p1', { withContainers: true });
    expect(removed.containers.map((c) => c.id)).toEqual(['c1']);
    expect(s.container('c1')).toBeUndefined();
    s.removeContainer('c0');
    expect(s.removePod('p0').containers).toEqual([]);
    expect(s.podCount + s.containerCount).toBe(0);
  });
});
