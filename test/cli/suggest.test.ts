import { describe, expect, it } from 'vitest';
import { closestName, editDistance } from '../../src/cli/suggest.js';
import { oneLineParseError } from '../../src/cli/parse-errors.js';

describe('closestName', () => {
  const flags = ['socket', 'cpus', 'cpu-limit', 'cpu-quota', 'memory', 'mems', 'yes', 'sim', 'no-color', 'color'];
  it.each([
    ['sokcet', 'socket'],
    ['cpu', 'cpus'],
    ['memroy', 'memory'],
    ['mem', 'mems'],
    ['no-colr', 'no-color'],
  ])('%s -> %s', (typed, want) => expect(closestName(typed, flags)).toBe(want));
  it('suggests nothing for a name far from every candidate, or for a single letter', () => {
    expect(closestName('frobnicate', flags)).toBeUndefined();
    expect(closestName('x', flags)).toBeUndefined();
  });
  it('counts a swap of neighbours as one edit', () => {
    expect(editDistance('sokcet', 'socket')).toBe(1);
    expect(editDistance('updat', 'update')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
  });
  it('finds commands with spaces in their names', () => {
    expect(closestName('updat', ['doctor', 'update', 'sync dump', 'sim'])).toBe('update');
    expect(closestName('sync dum', ['doctor', 'update', 'sync dump', 'sim'])).toBe('sync dump');
  });
});

describe('oneLineParseError', () => {
  it('keeps the reason oclif puts on its second line', () => {
    const err = new Error(
      'Parsing --buffer \n\tExpected an integer greater than or equal to 1 but received: 0\nSee more help with --help',
    );
    expect(oneLineParseError(err, {})).toBe('--buffer: Expected an integer greater than or equal to 1 but received: 0');
  });
  it('adds the closest long flag to an unknown one', () => {
    const err = Object.assign(new Error('Nonexistent flag: --sokcet\nSee more help with --help'), {
      flags: ['--sokcet'],
    });
    expect(oneLineParseError(err, { socket: { type: 'option' }, sim: { type: 'option' } })).toBe(
      'Nonexistent flag: --sokcet (did you mean --socket?)',
    );
  });
  it('counts --no-X of a negatable boolean as a flag', () => {
    const err = Object.assign(new Error('Nonexistent flag: --no-colr'), { flags: ['--no-colr'] });
    expect(oneLineParseError(err, { color: { type: 'boolean', allowNo: true } })).toMatch(/did you mean --no-color\?/);
  });
});
