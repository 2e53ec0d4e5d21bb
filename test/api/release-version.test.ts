// One reading and one ordering of release versions for every caller, which differ only in
// what they accept: the table holds each reading over the versions runtimes report, and
// the callers below hold that each still reads as it did before they shared it.
import { describe, expect, it } from 'vitest';
import { compareVersions, parseVersion, runtimeVintage as eventsVintage } from '../../src/api/index.js';
import { validatorOnNode, type OfflineDiagnosis } from '../../src/checks/index.js';
import { knownFor } from '../../src/conformance/known.js';
import { runtimeVintage, VintageError } from '../../src/runtime/adaptation/vintage.js';
import { presetForRuntime } from '../../src/runtime/sim/preset-match.js';

type Read = readonly [number, number, number] | undefined;

describe('parseVersion', () => {
  // input, three numbers required (checks, conformance, api), patch optional (preset match), patch optional and nothing after (vintage)
  const table: Array<[string, Read, Read, Read]> = [
    ['1.7.20', [1, 7, 20], [1, 7, 20], [1, 7, 20]],
    ['v1.7.20', [1, 7, 20], [1, 7, 20], [1, 7, 20]],
    ['v0.6', undefined, [0, 6, 0], [0, 6, 0]],
    ['1.33', undefined, [1, 33, 0], [1, 33, 0]],
    ['2.2.0-rc.1', [2, 2, 0], [2, 2, 0], undefined],
    ['v0.12.0-rc.1', [0, 12, 0], [0, 12, 0], undefined],
    ['1.7.20~ds1', [1, 7, 20], [1, 7, 20], undefined],
    ['1.2.3.4', [1, 2, 3], [1, 2, 3], undefined],
    ['1.7.x', undefined, [1, 7, 0], undefined],
    ['01.02.03', [1, 2, 3], [1, 2, 3], [1, 2, 3]],
    ['unknown', undefined, undefined, undefined],
    ['', undefined, undefined, undefined],
    ['v', undefined, undefined, undefined],
    ['1', undefined, undefined, undefined],
    ['V1.2.3', undefined, undefined, undefined],
    // Not trimmed here: the callers that trim do it themselves.
    [' 1.2.3', undefined, undefined, undefined],
    ['1.2.3 ', [1, 2, 3], [1, 2, 3], undefined],
  ];
  it.each(table)('reads %j', (input, full, patchOptional, exact) => {
    expect(parseVersion(input)).toEqual(full);
    expect(parseVersion(input, { patchOptional: true })).toEqual(patchOptional);
    expect(parseVersion(input, { patchOptional: true, exact: true })).toEqual(exact);
  });

  it('needs the patch number when the reading is exact without patchOptional', () => {
    expect(parseVersion('1.2.3', { exact: true })).toEqual([1, 2, 3]);
    expect(parseVersion('1.2', { exact: true })).toBeUndefined();
    expect(parseVersion('1.2.3-rc.1', { exact: true })).toBeUndefined();
  });
});

describe('compareVersions', () => {
  const table: Array<[[number, number, number], [number, number, number], -1 | 0 | 1]> = [
    [[1, 7, 25], [1, 7, 26], -1],
    [[1, 7, 26], [1, 7, 26], 0],
    [[2, 0, 0], [1, 99, 99], 1],
    [[1, 10, 0], [1, 9, 0], 1], // numbers, not text: 10 > 9
    [[0, 3, 0], [0, 12, 0], -1],
    [[2, 2, 1], [2, 2, 0], 1],
  ];
  it.each(table)('%j against %j: %i', (a, b, sign) => {
    expect(Math.sign(compareVersions(a, b))).toBe(sign);
    expect(Math.sign(compareVersions(b, a))).toBe(-sign || 0);
  });
});

describe('each caller keeps its reading', () => {
  it('preset match: a missing patch is 0, a suffix is passed over, whitespace trimmed', () => {
    expect(presetForRuntime('containerd', '2.2.0-rc.1')).toBe('containerd-2.2.0');
    expect(presetForRuntime('containerd', ' v2.1 ')).toBe('containerd-2.1');
    expect(presetForRuntime('cri-o', '1.33')).toBe('crio-1.33');
    expect(presetForRuntime('containerd', 'unknown')).toBeUndefined();
  });

  it('the simulated NRI version: a missing patch is 0, a pre-release is refused', () => {
    expect(runtimeVintage(' v0.7 ').nriVersion).toBe('v0.7.0');
    expect(() => runtimeVintage('v0.12.0-rc.1')).toThrow(VintageError);
    expect(() => runtimeVintage('unknown')).toThrow(/expected a version/);
  });

  it("a Configure's runtime version: three numbers needed, a suffix passed over", () => {
    const vintage = (runtimeVersion: string) =>
      eventsVintage({ runtimeName: 'containerd', runtimeVersion, registrationTimeout: 5000, requestTimeout: 2000 })
        .label;
    expect(vintage('2.2.0-rc.1')).toBe('NRI v0.10 or v0.11');
    expect(vintage(' v2.2.0 ')).toBe('NRI v0.10 or v0.11');
    expect(vintage('2.1.9')).toBe('NRI v0.7 to v0.11');
    expect(vintage('2.2')).toBe('NRI v0.7 to v0.11');
    expect(vintage('unknown')).toBe('NRI v0.7 to v0.11');
  });

  it("doctor's validator findings: three numbers needed, a suffix passed over, not trimmed", () => {
    // Only the fields validatorOnNode reads: a containerd config with an enabled default validator.
    const d = {
      runtimeConfigs: [
        { file: 'config.toml', format: 'containerd', settings: { defaultValidator: { enable: true } }, findings: [] },
      ],
      settingsFrom: 'config.toml',
      resolved: { pluginPath: 'no-such-plugin-dir' },
    } as unknown as OfflineDiagnosis;
    const codes = (version: string) =>
      validatorOnNode(d, { name: 'containerd', version }, { names: [] }).findings.map((f) => f.code);
    expect(codes('v2.1.9')).toEqual(['validator-unknown-to-runtime']);
    expect(codes('2.2.0-rc.1')).toEqual([]);
    expect(codes('2.1')).toEqual([]); // unreadable: no version, no finding
    expect(codes(' 2.1.9')).toEqual([]);
  });

  it('known gaps: a version that cannot be read is before nothing', () => {
    const gaps = [{ ref: 'x#1', runtimes: ['containerd'], before: '1.7.26', note: 'n' }];
    expect(knownFor(gaps, 'containerd', 'v1.7.25')?.ref).toBe('x#1');
    expect(knownFor(gaps, 'containerd', '1.7.25-rc.1')?.ref).toBe('x#1');
    expect(knownFor(gaps, 'containerd', '1.7.26')).toBeUndefined();
    expect(knownFor(gaps, 'containerd', '1.7')).toBeUndefined();
    expect(knownFor(gaps, 'containerd', 'unknown')).toBeUndefined();
  });
});
