import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { formatBytes, parseQuantity, QuantityError } from '../../src/units/index.js';

describe('formatBytes', () => {
  it('uses the largest binary unit, whole numbers when exact', () => {
    expect(formatBytes(536870912)).toBe('512Mi');
    expect(formatBytes(1610612736)).toBe('1.5Gi');
    expect(formatBytes(1024)).toBe('1Ki');
    expect(formatBytes(1000)).toBe('1000');
    expect(formatBytes(0)).toBe('0');
    expect(formatBytes(2 ** 60)).toBe('1Ei');
    expect(formatBytes(-2 * 2 ** 20)).toBe('-2Mi');
  });
  it('rounds inexact values to one decimal', () => {
    expect(formatBytes(1536 * 1024 + 100)).toBe('1.5Mi');
    expect(formatBytes(1024 * 1024 - 1)).toBe('1024Ki');
  });
  it('reads back exactly for whole units', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1023 }),
        fc.constantFrom(1, 2 ** 10, 2 ** 20, 2 ** 30, 2 ** 40),
        (n, unit) => {
          expect(parseQuantity(formatBytes(n * unit))).toBe(n * unit);
        },
      ),
    );
  });
  it('reads back within rounding for any size', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 52 }), (bytes) => {
        const back = parseQuantity(formatBytes(bytes));
        expect(Math.abs(back - bytes)).toBeLessThanOrEqual(Math.max(1, bytes * 0.05));
      }),
    );
  });
});

describe('parseQuantity', () => {
  it('parses Kubernetes quantities into bytes', () => {
    expect(parseQuantity('512Mi')).toBe(512 * 2 ** 20);
    expect(parseQuantity('2G')).toBe(2e9);
    expect(parseQuantity('1.5Gi')).toBe(1.5 * 2 ** 30);
    expect(parseQuantity('1048576')).toBe(1048576);
    expect(parseQuantity('100k')).toBe(100000);
    expect(parseQuantity('1e9')).toBe(1e9);
    expect(parseQuantity('1E3')).toBe(1000);
    expect(parseQuantity(' 64Ki ')).toBe(65536);
    expect(parseQuantity('.5Ki')).toBe(512);
    expect(parseQuantity('+1Mi')).toBe(2 ** 20);
  });
  it('is exact with decimals and rounds fractions of a byte up', () => {
    expect(parseQuantity('0.1k')).toBe(100);
    expect(parseQuantity('1.1')).toBe(2);
    expect(parseQuantity('15e-1')).toBe(2);
  });
  it('rejects negatives unless allowed', () => {
    expect(() => parseQuantity('-1')).toThrow(/negative/);
    expect(parseQuantity('-1', { allowNegative: true })).toBe(-1);
    expect(parseQuantity('-0')).toBe(0);
  });
  it.each([
    ['512m', /thousandths.*Mi/],
    ['512MB', /drop the 'B': write M/],
    ['1GiB', /drop the 'B': write Gi/],
    ['1K', /Ki \(1024\) or k/],
    ['2gb', /case-sensitive: use Gi/],
    ['3x', /unknown suffix 'x'/],
    ['12 Mi', /expected a number/],
    ['Mi', /expected a number/],
    ['', /empty/],
    ['1.2.3', /expected a number/],
    ['99999999Ei', /too large/],
  ])('rejects %j with a clear reason', (input, reason) => {
    let error: unknown;
    try {
      parseQuantity(input);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(QuantityError);
    expect((error as Error).message).toMatch(reason);
    expect((error as Error).message).toContain(`'${input}'`);
  });
});
