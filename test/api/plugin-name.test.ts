import { describe, expect, it } from 'vitest';
import {
  PluginNameError,
  checkExternalName,
  checkPluginIndex,
  isValidExternalName,
  parsePluginName,
} from '../../src/api/index.js';

describe('parsePluginName (Go ParsePluginName, v0.6.1 and newest)', () => {
  const accepted: Array<[string, string, string]> = [
    ['10-logger', '10', 'logger'],
    ['00-a', '00', 'a'],
    ['99-device-injector', '99', 'device-injector'], // split at the first dash only
    ['10-', '10', ''], // the runtime does not require a name after the dash
    ['10--x', '10', '-x'],
    ['05-name with spaces.sh', '05', 'name with spaces.sh'],
    ['42-ünïcode', '42', 'ünïcode'], // the name part is not checked at all
  ];
  it.each(accepted)('accepts %j', (input, index, name) => {
    expect(parsePluginName(input)).toEqual({ index, name });
  });

  const rejected: Array<[string, string, RegExp]> = [
    ['logger', 'no-index-separator', /^invalid plugin name "logger", idx-pluginname expected$/],
    ['', 'no-index-separator', /idx-pluginname expected/],
    ['1-logger', 'index-length', /^invalid plugin index "1", must be 2 digits$/],
    ['100-logger', 'index-length', /must be 2 digits/],
    ['-logger', 'index-length', /invalid plugin index "", must be 2 digits/],
    ['ab-logger', 'index-not-digits', /^invalid plugin index "ab" \(not \[0-9\]\[0-9\]\)$/],
    ['1a-logger', 'index-not-digits', /not \[0-9\]\[0-9\]/],
    [' 1-logger', 'index-not-digits', /not \[0-9\]\[0-9\]/],
    // Go counts bytes: "é" is two bytes, so it fails the digit test, not the length test.
    ['é-logger', 'index-not-digits', /not \[0-9\]\[0-9\]/],
    // A non-ASCII digit (Arabic-Indic three, 2 bytes) is still not [0-9].
    ['٣-logger', 'index-not-digits', /not \[0-9\]\[0-9\]/],
    ['１２-logger', 'index-length', /must be 2 digits/], // fullwidth digits: 6 bytes
  ];
  it.each(rejected)('rejects %j (%s)', (input, reason, message) => {
    let caught: unknown;
    try {
      parsePluginName(input);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(PluginNameError);
    expect((caught as PluginNameError).reason).toBe(reason);
    expect((caught as PluginNameError).message).toMatch(message);
  });

  it('applies the same index rule to registered indices', () => {
    expect(() => checkPluginIndex('07')).not.toThrow();
    expect(() => checkPluginIndex('7')).toThrow(PluginNameError);
  });
});

describe('external plugin names (v0.12 rule [a-zA-Z0-9_.+-])', () => {
  it.each(['logger', 'device-injector', 'a_b.c+d', 'X', '0', '-'])('accepts %j', (name) => {
    expect(isValidExternalName(name)).toBe(true);
    expect(() => checkExternalName(name)).not.toThrow();
  });
  it.each(['', 'with space', 'a/b', 'ünï', 'tab\t', 'semi;colon', 'new\nline'])('rejects %j', (name) => {
    expect(isValidExternalName(name)).toBe(false);
    expect(() => checkExternalName(name)).toThrow(PluginNameError);
  });
  it('names the offending character like the runtime', () => {
    expect(() => checkExternalName('a/b')).toThrow(`invalid plugin name "a/b": contains invalid character '/'`);
    expect(() => checkExternalName('')).toThrow('invalid plugin name: name is empty');
  });
});
