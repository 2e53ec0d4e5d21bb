import { describe, expect, it } from 'vitest';
import { xmlText } from '../../src/output/index.js';

describe('xmlText', () => {
  it('writes the five special characters as entities', () => {
    expect(xmlText(`a<b>&"c'`)).toBe('a&lt;b&gt;&amp;&quot;c&apos;');
  });

  it('leaves out the control characters XML 1.0 cannot carry, and keeps tab, newline and carriage return', () => {
    expect(xmlText('\x1b[31mred\x1b[0m\x00\x07\x0b\x0c\x1f')).toBe('[31mred[0m');
    expect(xmlText('a\tb\nc\rd')).toBe('a\tb\nc\rd');
  });
});
