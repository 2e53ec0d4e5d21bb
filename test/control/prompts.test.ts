import { describe, expect, it } from 'vitest';
import { choiceLines } from '../../src/control/prompts.js';
import { listContainers } from '../../src/control/resolve.js';
import { loadScenario } from '../../src/runtime/sim/scenario.js';

describe('the update picker', () => {
  it('aligns its columns across containers of different name lengths', async () => {
    const demo = await loadScenario('examples/demo.yaml');
    const all = listContainers(demo.pods, demo.containers);
    const lines = choiceLines(all);
    expect(lines).toHaveLength(all.length);
    expect(new Set(all.map((r) => r.name.length)).size).toBeGreaterThan(1); // the demo does have names of different lengths
    // Each column starts at the same place on every line: the short id after the name, then the state.
    const idAt = lines.map((l, i) => l.indexOf(all[i].container.id!.slice(0, 13)));
    expect(new Set(idAt).size).toBe(1);
    const stateAt = lines.map((l) => l.search(/\b(Running|Created|Paused|Stopped|Unknown)\b/));
    expect(new Set(stateAt).size).toBe(1);
    const memAt = lines.map((l) => l.indexOf('mem ')).filter((i) => i >= 0);
    expect(memAt.length).toBeGreaterThan(1);
    expect(new Set(memAt).size).toBe(1);
  });
});

describe('the picker in a narrow terminal', () => {
  const ctr = (id: string, pod: string, name: string, cpus = '') => ({
    pod: { id: pod },
    container: {
      id,
      name,
      podSandboxId: pod,
      state: 3,
      linux: { resources: { cpu: { cpus }, memory: { limit: { value: 512 * 2 ** 20 } } } },
    },
  });
  const long = [
    ctr('a'.repeat(64), 'p1', 'sidecar-with-a-long-name', '0-3,8-11,16-19,24-27'),
    ctr('b'.repeat(64), 'p2', 'app'),
  ];
  const pods = [
    { id: 'p1', name: 'payments-api-7d9f8b6c5d-x2lqp', namespace: 'production-eu-west' },
    { id: 'p2', name: 'web-0', namespace: 'shop' },
  ];
  const all = listContainers(
    pods,
    long.map((c) => c.container),
  );

  it('fits every row into the width, shortening names in the middle and keeping both ends', () => {
    const lines = choiceLines(all, 78);
    for (const l of lines) expect(l.length, l).toBeLessThanOrEqual(78);
    // 78 columns leave a name 25: its start and its end, the namespace and the container.
    expect(lines[0]).toBe('production-e…-a-long-name  aaaaaaaaaaaaa  Running  cpus 0-3,8-11,1…  mem 512Mi');
    expect(lines[1]).toBe('shop/web-0/app             bbbbbbbbbbbbb  Running                    mem 512Mi');
  });

  it('keeps names whole when they fit', () => {
    const lines = choiceLines(all, 200);
    expect(lines[0]).toContain('production-eu-west/payments-api-7d9f8b6c5d-x2lqp/sidecar-with-a-long-name');
  });

  it('leaves out columns, from the right, before a name would be shorter than 24', () => {
    const lines = choiceLines(all, 50);
    for (const l of lines) expect(l.length, l).toBeLessThanOrEqual(50);
    expect(lines[0]).toMatch(/^\S{24,} {2}aaaaaaaaaaaaa/);
    expect(lines.join('\n')).not.toContain('mem ');
  });
});
