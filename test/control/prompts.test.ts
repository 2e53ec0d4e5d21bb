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
