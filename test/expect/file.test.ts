import { describe, expect, it } from 'vitest';
import { parseExpectations, placeExpectations, ExpectationError } from '../../src/expect/index.js';
import { parseScenarioResources, parseScenario, stepLabel } from '../../src/runtime/index.js';

const parse = (text: string) => parseExpectations(text, '/x/expect.yaml', parseScenarioResources);

describe('expectation files', () => {
  it('reads a scenario path relative to the file, steps by name or number, and resources by scenario key', () => {
    const f = parse(
      'scenario: s.yaml\nno-plugin-failures: true\nexpect:\n  - after: create c1\n    resources: {cpus: "0-1", memory_limit: 1024}\n  - after: 2\n    result: failed\n',
    );
    expect(f.scenario).toBe('/x/s.yaml');
    expect(f.noPluginFailures).toBe(true);
    expect(f.expectations[0].resources!.map((r) => [r.key, r.parsed])).toEqual([
      ['cpus', { cpu: { cpus: '0-1' } }],
      ['memory_limit', { memory: { limit: { value: 1024 } } }],
    ]);
    expect(f.expectations[1]).toMatchObject({ after: 2, result: 'failed' });
  });

  it('names the file, the place and the fix for bad input', () => {
    expect(() => parse('expect:\n  - result: failed\n')).toThrow(/expect\.yaml: expect\[0\]\.after: missing/);
    expect(() => parse('expect:\n  - after: 1\n    envs: {}\n')).toThrow(/expect\[0\]\.envs: unknown key/);
    expect(() => parse('expect:\n  - after: 1\n    result: ok\n')).toThrow(/expected succeeded or failed/);
    expect(() => parse('expect:\n  - after: 1\n    conflict: [a]\n')).toThrow(/expected the two plugins/);
    expect(() => parse('expect:\n  - after: 1\n    resources: {cpu: "1"}\n')).toThrow(
      /unknown key \(did you mean cpus\?\)/,
    );
    expect(() => parse('bogus: 1\n')).toThrow(ExpectationError);
  });

  it('refuses a step name that fits no step or several, before anything runs', () => {
    const s = parseScenario(
      'pods: [{id: p}]\nsteps:\n  - create: {id: c, pod: p, name: c}\n  - start: c\n  - stop: c\n  - start: c\n',
      's.yaml',
    );
    const place = (after: string | number) =>
      placeExpectations(
        { file: 'e.yaml', noPluginFailures: false, expectations: [{ where: 'expect[0]', after }] },
        s.steps.map(stepLabel),
      );
    expect(place('create c').get(0)).toHaveLength(1);
    expect(() => place('create d')).toThrow(/no step "create d" \(steps: create c, start c, stop c, start c\)/);
    expect(() => place('start c')).toThrow(/names steps 2, 4; use the number/);
    expect(() => place(9)).toThrow(/step 9 does not exist \(the scenario has 4\)/);
    expect(place(4).get(3)).toHaveLength(1);
  });
});
