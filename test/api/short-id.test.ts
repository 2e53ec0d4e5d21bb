// The one short form of an id, which the tables, prompts, plans and doctor's findings share.
import { describe, expect, it } from 'vitest';
import { shortId } from '../../src/api/index.js';

describe('shortId', () => {
  const id = '3f2a9c1d0b7e4aa1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f6071829';
  const table: Array<[string | null | undefined, string]> = [
    [id, '3f2a9c1d0b7e4'], // a 64-hex container id, as crictl prints it
    ['3f2a9c1d0b7e4a', '3f2a9c1d0b7e4'], // 14 characters: cut
    ['3f2a9c1d0b7e4', '3f2a9c1d0b7e4'], // exactly 13: whole
    ['abc', 'abc'], // shorter: whole (the simulator's ids, a test's)
    ['', ''],
    [undefined, ''],
    [null, ''],
  ];
  it.each(table)('%j -> %j', (input, short) => {
    expect(shortId(input)).toBe(short);
  });
});
