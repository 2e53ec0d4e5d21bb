import { describe, expect, it } from 'vitest';
import { nri } from '../../src/api/index.js';
import { applyAdjustment, applyUpdates } from '../../src/runtime/sim/apply.js';
import { ResultCollector } from '../../src/runtime/adaptation/result.js';
import { SimState } from '../../src/runtime/sim/state.js';

function state(): SimState {
  return new SimState({
    pods: [{ id: 'p0' }],
    containers: [
      {
        id: 'c0',
        podSandboxId: 'p0',
        state: nri.ContainerState.CONTAINER_CREATED,
        annotations: { old: '1', keep: 'k' },
        env: ['PATH=/bin', 'OLD=1'],
        mounts: [{ destination: '/data', source: '/a' }],
        linux: { resources: { cpu: { shares: { value: 1024 } } } },
      },
      { id: 'c1', podSandboxId: 'p0', linux: { resources: { memory: { limit: { value: 100 } } } } },
    ],
  });
}

describe('applyAdjustment', () => {
  it('makes a later snapshot show the merged adjustment of several plugins', () => {
    const s = state();
    const col = new ResultCollector({ create: { pod: s.pod('p0')!, container: s.container('c0')! } });
    col.apply('10-a', {
      adjust: {
        annotations: { '-old': '', added: 'yes' },
        env: [{ key: 'NEW', value: 'v' }],
        mounts: [{ destination: '-/data' }, { destination: '/cache', source: '/c' }],
      },
    });
    col.apply('20-b', {
      adjust: {
        linux: { resources: { cpu: { cpus: '0-1' } }, oomScoreAdj: { value: 10 } },
        rlimits: [{ type: 'RLIMIT_NOFILE', hard: 8, soft: 8 }],
      },
    });
    applyAdjustment(s, 'c0', col.result().adjust!);
    const c = s.snapshot().containers[0];
    expect(c.annotations).toEqual({ keep: 'k', added: 'yes' });
    expect(c.env).toEqual(['PATH=/bin', 'OLD=1', 'NEW=v']);
    expect(c.mounts).toEqual([{ destination: '/cache', source: '/c' }]);
    expect(c.linux!.resources!.cpu).toEqual({ shares: { value: 1024 }, cpus: '0-1' });
    expect(c.linux!.oomScoreAdj).toEqual({ value: 10 });
    expect(c.rlimits).toEqual([{ type: 'RLIMIT_NOFILE', hard: 8, soft: 8 }]);
  });
});

describe('applyUpdates', () => {
  it('applies updates, reports only failures, skips updates without a container id', () => {
    const s = state();
    const out = applyUpdates(s, [
      { containerId: 'c1', linux: { resources: { memory: { limit: { value: 200 } } } } },
      { containerId: '', linux: { resources: { cpu: { cpus: '9' } } } },
      { containerId: 'ghost', linux: { resources: { cpu: { cpus: '1' } } } },
      { containerId: 'ghost2', ignoreFailure: true, linux: { resources: { cpu: { cpus: '1' } } } },
    ]);
    expect(out.applied).toEqual(['c1']);
    expect(out.failed.map((u) => u.containerId)).toEqual(['ghost']);
    expect(out.skipped).toHaveLength(1);
    expect(s.container('c1')!.linux!.resources!.memory!.limit).toEqual({ value: 200 });
    expect(s.container('c0')!.linux!.resources!.cpu!.cpus).toBeUndefined();
  });
});
