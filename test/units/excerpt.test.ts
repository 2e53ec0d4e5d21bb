// Quotes in messages are bounded, and the part of a quote that names the problem survives
// the cut: a value keeps its start, a key its start and end, a path of keys its last key.
import { describe, expect, it } from 'vitest';
import { excerpt, excerptKey, excerptPath } from '../../src/units/index.js';

describe('excerpt (values)', () => {
  it('keeps a short value whole and cuts a long one at its end, escaping control characters', () => {
    expect(excerpt('5x')).toBe('5x');
    expect(excerpt('a'.repeat(100))).toBe(`${'a'.repeat(60)}…`);
    expect(excerpt('a\nb\u0000')).toBe('a\\nb\\u0000');
  });
});

describe('excerptKey', () => {
  it('keeps a key of up to max characters whole', () => {
    const key = `plugin_${'r'.repeat(45)}_timeout`;
    expect(key).toHaveLength(60);
    expect(excerptKey(key)).toBe(key);
  });

  it('cuts a longer key in its middle, so both its start and its end stay, max characters in all', () => {
    const shown = excerptKey(`nri_plugin_${'x'.repeat(10_000)}_request_timeout`);
    expect(shown).toHaveLength(60);
    expect(shown.startsWith('nri_plugin_')).toBe(true);
    expect(shown.endsWith('_request_timeout')).toBe(true);
    expect(shown).toContain('…');
    expect(excerptKey('abcdefghij', 5)).toBe('ab…ij');
  });
});

describe('excerptPath', () => {
  const cri = ['plugins', '"io.containerd.grpc.v1.cri"'];

  it('keeps a path whole when it fits', () => {
    expect(excerptPath([...cri, 'plugin_registration_timeout'])).toBe(
      'plugins."io.containerd.grpc.v1.cri".plugin_registration_timeout',
    );
  });

  it('a long table name is cut in its middle; the key at the end stays whole', () => {
    const table = `"${'gpu-'.repeat(40)}handler"`;
    const shown = excerptPath([...cri, 'containerd', 'runtimes', table, 'options', 'plugin_request_timeout']);
    expect(shown).toHaveLength(120);
    expect(shown.startsWith('plugins."io.containerd.grpc.v1.cri".containerd')).toBe(true);
    expect(shown.endsWith('handler".options.plugin_request_timeout')).toBe(true);
    expect(shown.split('…')).toHaveLength(2);
  });

  it('a pathological key is itself cut in its middle, and the whole stays bounded', () => {
    const key = `a_${'k'.repeat(100_000)}_timeout`;
    const shown = excerptPath([...cri, key]);
    expect(shown).toHaveLength(120);
    expect(shown.startsWith('plugins…')).toBe(true);
    expect(shown.endsWith('k_timeout')).toBe(true);
    expect(shown).toContain('.a_kkk');
    // One part only: a key.
    expect(excerptPath([key])).toBe(excerptKey(key, 120));
  });
});
