import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { canonicalCpuset, CpusetError, describeCpuset, formatCpuset, parseCpuset } from '../../src/units/index.js';

describe('parseCpuset', () => {
  it('expands ranges and single CPUs, sorted and distinct', () => {
    expect(parseCpuset('0-3,8')).toEqual([0, 1, 2, 3, 8]);
    expect(parseCpuset('8,0-2,1,2-3')).toEqual([0, 1, 2, 3, 8]);
    expect(parseCpuset(' 5 ')).toEqual([5]);
    expect(parseCpuset('4-4')).toEqual([4]);
    expect(parseCpuset('')).toEqual([]);
  });
  it.each([
    ['3-1', /reversed; write 1-3/],
    ['-1', /negative/],
    ['0--1', /negative/],
    ['0,,1', /empty item/],
    ['0,', /empty item/],
    ['a', /expected a CPU number/],
    ['1-', /expected a CPU number/],
    ['0-3-5', /expected a CPU number/],
    ['1.5', /expected a CPU number/],
    ['0-4000000000', /out of range/],
  ])('rejects %j', (input, reason) => {
    expect(() => parseCpuset(input)).toThrow(CpusetError);
    expect(() => parseCpuset(input)).toThrow(reason);
  });
});

describe('formatCpuset', () => {
  it('writes runs as ranges', () => {
    expect(formatCpuset([3, 0, 1, 2, 8])).toBe('0-3,8');
    expect(formatCpuset([0, 1])).toBe('0-1');
    expect(formatCpuset([1, 3, 5])).toBe('1,3,5');
    expect(formatCpuset([])).toBe('');
    expect(canonicalCpuset('8,3,0-2')).toBe('0-3,8');
  });
  it('round-trips any set of CPUs', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 0, max: 300 }), { maxLength: 60 }), (cpus) => {
        expect(parseCpuset(formatCpuset(cpus))).toEqual([...cpus].sort((a, b) => a - b));
      }),
    );
  });
});

describe('describeCpuset', () => {
  it('names the CPUs in words', () => {
    expect(describeCpuset('0-3,8')).toBe('CPUs 0,1,2,3,8');
    expect(describeCpuset('3')).toBe('CPU 3');
    expect(describeCpuset('')).toBe('no CPUs');
    expect(describeCpuset('0-63')).toBe('64 CPUs: 0-63');
    expect(describeCpuset([1, 0], ['memory node', 'memory nodes'])).toBe('memory nodes 0,1');
  });
});
