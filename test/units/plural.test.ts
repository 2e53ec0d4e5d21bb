import { describe, expect, it } from 'vitest';
import { plural } from '../../src/units/index.js';

describe('plural', () => {
  it('gives the noun an s unless there is exactly one', () => {
    expect([0, 1, 2].map((n) => plural(n, 'check'))).toEqual(['0 checks', '1 check', '2 checks']);
  });
});
