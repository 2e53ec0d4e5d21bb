// Every command of the README's index answers --help, and its help opens with the summary
// the index shows (scripts/gen-readme.mjs takes it from the manifests: the summary, or the
// first line of the description when there is none, as oclif's help shows it).
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module script without type declarations
import { indexedCommands } from '../../scripts/gen-readme.mjs';
import { runCli } from './nri-cli.js';

const commands = (indexedCommands as () => Array<{ id: string; summary: string }>)();

describe('nrictl COMMAND --help', () => {
  it('covers the commands the README lists', () => {
    expect(commands.map((c) => c.id)).toEqual(
      expect.arrayContaining(['sim', 'sync dump', 'plugin new', 'autocomplete']),
    );
  });

  it.each(commands.map((c) => [c.id, c.summary] as const))(
    '%s: exit 0, opening with the summary the README shows',
    async (id, summary) => {
      const r = await runCli([...id.split(' '), '--help']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toBe('');
      expect(summary).not.toBe('');
      expect(r.stdout.split('\n\n')[0].replace(/\s+/g, ' ').trim()).toBe(summary);
      expect(r.stdout).toMatch(new RegExp(`^USAGE\\n {2}\\$ nrictl ${id}\\b`, 'm'));
    },
  );
});
