import { describe, expect, it } from 'vitest';
import {
  getOptionalBool,
  getOptionalFileMode,
  getOptionalInt,
  getOptionalInt64,
  getOptionalRepeatedString,
  getOptionalString,
  getOptionalUInt32,
  getOptionalUInt64,
  nri,
  optionalBool,
  optionalFileMode,
  optionalInt,
  optionalInt64,
  optionalRepeatedString,
  optionalString,
  optionalUInt32,
  optionalUInt64,
} from '../../src/api/index.js';

describe('Optional wrappers', () => {
  it('tells a present zero from an absent value after a wire round trip', () => {
    const msg = nri.LinuxMemory.decode(
      nri.LinuxMemory.encode({
        limit: optionalInt64(0),
        swappiness: optionalUInt64(60),
        disableOomKiller: optionalBool(false),
      }).finish(),
    );
    expect(getOptionalInt64(msg.limit)).toBe(0);
    expect(getOptionalInt64(msg.reservation)).toBeUndefined();
    expect(getOptionalUInt64(msg.swappiness)).toBe(60);
    expect(getOptionalBool(msg.disableOomKiller)).toBe(false);
    expect(getOptionalBool(msg.useHierarchy)).toBeUndefined();
  });

  it('builds wrappers, leaving undefined unset', () => {
    expect(optionalString('gold')).toEqual({ value: 'gold' });
    expect(optionalString(undefined)).toBeUndefined();
    expect(optionalInt(-1000)).toEqual({ value: -1000 });
    expect(optionalUInt32(0)).toEqual({ value: 0 });
    expect(optionalFileMode(0o644)).toEqual({ value: 0o644 });
    expect(optionalRepeatedString(['a', 'b'])).toEqual({ value: ['a', 'b'] });
    expect(optionalRepeatedString([])).toEqual({ value: [] });
  });

  it('reads each wrapper type', () => {
    expect(getOptionalString({ value: '' })).toBe('');
    expect(getOptionalString(null)).toBeUndefined();
    expect(getOptionalInt({})).toBe(0);
    expect(getOptionalUInt32({ value: 7 })).toBe(7);
    expect(getOptionalFileMode({ value: 0o600 })).toBe(0o600);
    expect(getOptionalRepeatedString({ value: ['x'] })).toEqual(['x']);
    expect(getOptionalRepeatedString({})).toEqual([]);
    expect(getOptionalRepeatedString(undefined)).toBeUndefined();
  });

  it('refuses values the wire type cannot carry exactly', () => {
    expect(() => optionalUInt32(-1)).toThrow(RangeError);
    expect(() => optionalUInt32(2 ** 32)).toThrow(RangeError);
    expect(() => optionalUInt64(-5)).toThrow(RangeError);
    expect(() => optionalInt64(2 ** 60)).toThrow(/OptionalInt64/);
    expect(() => optionalInt64(1.5)).toThrow(RangeError);
    expect(optionalInt64(Number.MAX_SAFE_INTEGER)).toEqual({ value: Number.MAX_SAFE_INTEGER });
  });
});
