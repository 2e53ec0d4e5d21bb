import chalk from 'chalk';
import { afterEach, describe, expect, it } from 'vitest';
import { fitProse, fitSpans, wrapText, wrapWords } from '../../src/output/wrap.js';

const level = chalk.level;
afterEach(() => {
  chalk.level = level;
});

const VERDICT = 'Verdict: healthy: the runtime answers on /tmp/nrisim-ZrMwg1/nri.sock (3 pods, 5 containers)';
const visible = (s: string): string => s.replace(/\x1b\[[0-9;]*m/g, '');

describe('wrapping prose for people', () => {
  it('breaks at spaces only: every word whole, every line within the width unless one word is longer', () => {
    for (const width of [10, 20, 40, 61, 80]) {
      const lines = fitProse(VERDICT, width).split('\n');
      expect(lines.join(' ')).toBe(VERDICT);
      for (const line of lines) expect(line.length <= width || !line.includes(' '), `${width}: ${line}`).toBe(true);
    }
    expect(fitProse(VERDICT, 80).split('\n')).toEqual([
      'Verdict: healthy: the runtime answers on /tmp/nrisim-ZrMwg1/nri.sock (3 pods, 5',
      'containers)',
    ]);
  });

  it('wraps nothing without a width (a pipe or a file)', () => {
    expect(fitProse(VERDICT, undefined)).toBe(VERDICT);
    expect(wrapText(VERDICT, undefined, '  fix: ', 7)).toEqual([`  fix: ${VERDICT}`]);
    expect(wrapWords(['a', 'b'], undefined)).toEqual([['a', 'b']]);
  });

  it('puts a lead before the first line and indents the others under its text', () => {
    expect(wrapText('chown root:root /opt/nri/plugins/10-logger', 30, '  fix: ', 7)).toEqual([
      '  fix: chown root:root',
      '       /opt/nri/plugins/10-logger',
    ]);
  });

  it('colours by spans, measuring only the visible text; a word may join two spans', () => {
    chalk.level = 1;
    const text = fitSpans(
      [
        { text: 'Plugin directory examples/plugins', paint: chalk.bold },
        { text: ' (configuration from /etc/nri/conf.d)', paint: chalk.dim },
        { text: '!', paint: chalk.red },
      ],
      40,
    );
    expect(text.split('\n').map(visible)).toEqual([
      'Plugin directory examples/plugins',
      '(configuration from /etc/nri/conf.d)!',
    ]);
    // One escape sequence per run of a colour, not per word.
    expect(text.split('\n')[0]).toBe(chalk.bold('Plugin directory examples/plugins'));
    expect(text.split('\n')[1]).toBe(chalk.dim('(configuration from /etc/nri/conf.d)') + chalk.red('!'));
    // Without a width, the spans as they are.
    expect(fitSpans([{ text: 'a b', paint: chalk.bold }, { text: ' c' }], undefined)).toBe(`${chalk.bold('a b')} c`);
  });
});
