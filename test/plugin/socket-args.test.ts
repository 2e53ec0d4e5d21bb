import { describe, expect, it } from 'vitest';
import { socketPathFromArgs } from '../../src/plugin/index.js';

describe('socketPathFromArgs', () => {
  it('reads --socket PATH and --socket=PATH', () => {
    expect(socketPathFromArgs(['--socket', '/run/x.sock'])).toBe('/run/x.sock');
    expect(socketPathFromArgs(['-v', '--socket=/run/y.sock'])).toBe('/run/y.sock');
  });
  it('is undefined without the flag, with an empty value, and after --', () => {
    expect(socketPathFromArgs([])).toBeUndefined();
    expect(socketPathFromArgs(['--socket'])).toBeUndefined();
    expect(socketPathFromArgs(['--socket='])).toBeUndefined();
    expect(socketPathFromArgs(['--', '--socket', '/run/z.sock'])).toBeUndefined();
  });
});
