// The Optional* wrapper messages tell "set to zero" from "not set": a present wrapper
// with value 0 / "" / false is a real value. These read a wrapper into `T | undefined`
// and build one from `T | undefined`, so callers never test `.value` on a missing wrapper.
import { nri } from './schema.js';

interface Wrapper<T> {
  value?: T | null;
}

function read<T>(w: Wrapper<T> | null | undefined, zero: T): T | undefined {
  if (w === null || w === undefined) return undefined;
  return w.value ?? zero;
}

export const getOptionalString = (w: nri.IOptionalString | null | undefined): string | undefined => read(w, '');
export const getOptionalInt = (w: nri.IOptionalInt | null | undefined): number | undefined => read(w, 0);
export const getOptionalInt32 = (w: nri.IOptionalInt32 | null | undefined): number | undefined => read(w, 0);
export const getOptionalInt64 = (w: nri.IOptionalInt64 | null | undefined): number | undefined => read(w, 0);
export const getOptionalUInt32 = (w: nri.IOptionalUInt32 | null | undefined): number | undefined => read(w, 0);
export const getOptionalUInt64 = (w: nri.IOptionalUInt64 | null | undefined): number | undefined => read(w, 0);
export const getOptionalBool = (w: nri.IOptionalBool | null | undefined): boolean | undefined => read(w, false);
export const getOptionalFileMode = (w: nri.IOptionalFileMode | null | undefined): number | undefined => read(w, 0);
export const getOptionalRepeatedString = (w: nri.IOptionalRepeatedString | null | undefined): string[] | undefined =>
  w === null || w === undefined ? undefined : [...(w.value ?? [])];

// Builders return undefined for undefined so that `field: optionalInt64(x)` leaves the
// field unset. The 64-bit ones reject values a double cannot hold exactly: silently
// sending a rounded memory limit is worse than failing.
function build<T>(value: T | undefined | null): { value: T } | undefined {
  return value === undefined || value === null ? undefined : { value };
}

function checkInteger(value: number | undefined | null, kind: string, min: number, max: number): void {
  if (value === undefined || value === null) return;
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new RangeError(`${kind} value ${value} is not an integer in [${min}, ${max}]`);
  }
}

export const optionalString = (v: string | undefined | null): nri.IOptionalString | undefined => build(v);
export const optionalBool = (v: boolean | undefined | null): nri.IOptionalBool | undefined => build(v);
export const optionalRepeatedString = (
  v: readonly string[] | undefined | null,
): nri.IOptionalRepeatedString | undefined => (v === undefined || v === null ? undefined : { value: [...v] });

export function optionalInt(v: number | undefined | null): nri.IOptionalInt | undefined {
  checkInteger(v, 'OptionalInt', Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
  return build(v);
}
export function optionalInt32(v: number | undefined | null): nri.IOptionalInt32 | undefined {
  checkInteger(v, 'OptionalInt32', -0x80000000, 0x7fffffff);
  return build(v);
}
export function optionalInt64(v: number | undefined | null): nri.IOptionalInt64 | undefined {
  checkInteger(v, 'OptionalInt64', Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
  return build(v);
}
export function optionalUInt32(v: number | undefined | null): nri.IOptionalUInt32 | undefined {
  checkInteger(v, 'OptionalUInt32', 0, 0xffffffff);
  return build(v);
}
export function optionalUInt64(v: number | undefined | null): nri.IOptionalUInt64 | undefined {
  checkInteger(v, 'OptionalUInt64', 0, Number.MAX_SAFE_INTEGER);
  return build(v);
}
export function optionalFileMode(v: number | undefined | null): nri.IOptionalFileMode | undefined {
  checkInteger(v, 'OptionalFileMode', 0, 0xffffffff);
  return build(v);
}
