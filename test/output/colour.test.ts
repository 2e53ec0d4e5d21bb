import { afterEach, describe, expect, it } from 'vitest';
import chalk from 'chalk';
import { applyColourPolicy } from '../../src/cli/base-command.js';
import {
  colourEnabled,
  severityColour,
  stripColour,
  withoutColour,
  withoutColourEach,
} from '../../src/output/colour.js';

const level = chalk.level;
const noColor = process.env.NO_COLOR;
afterEach(() => {
  chalk.level = level;
  if (noColor === undefined) delete process.env.NO_COLOR;
  else process.env.NO_COLOR = noColor;
});

describe('colour', () => {
  it('follows the policy the CLI applies to chalk', () => {
    chalk.level = 1;
    expect(colourEnabled()).toBe(true);
    expect(severityColour('error', 'boom')).toContain('\x1b[');
    applyColourPolicy(false);
    expect(colourEnabled()).toBe(false);
    expect(severityColour('error', 'boom')).toBe('boom');
  });
  it('honours NO_COLOR through the policy', () => {
    chalk.level = 2;
    process.env.NO_COLOR = '1';
    applyColourPolicy(undefined);
    expect(severityColour('warning', 'w')).toBe('w');
  });
  it('withoutColour turns colours off inside and restores them after', () => {
    chalk.level = 1;
    expect(withoutColour(() => severityColour('ok', 'fine'))).toBe('fine');
    expect(severityColour('ok', 'fine')).not.toBe('fine');
    expect(stripColour(severityColour('ok', 'fine'))).toBe('fine');
  });
  it('withoutColourEach makes each piece uncoloured, and colours what runs between the pieces', () => {
    chalk.level = 1;
    function* pieces(): Generator<string> {
      yield severityColour('ok', 'a');
      yield severityColour('error', 'b');
    }
    const between: string[] = [];
    const out: string[] = [];
    for (const piece of withoutColourEach(pieces)) {
      out.push(piece);
      between.push(severityColour('ok', 'x'));
    }
    expect(out).toEqual(['a', 'b']);
    expect(between.every((s) => s !== 'x' && stripColour(s) === 'x')).toBe(true);
  });
});
