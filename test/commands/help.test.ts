// Every command answers --help, and its help opens with the summary that the README's
// command index takes from the manifests (scripts/gen-readme.mjs): the summary, or the
// first line of the description when there is none, as oclif's help shows it. oclif's
// own help command is not in the index (its summary is a template).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './nri-cli.js';
// @ts-expect-error: a plain ES module script without type declarations
import { OCLIF_OWN_COMMANDS } from '../../scripts/oclif-own-commands.mjs';

interface Command {
  id: string;
  hidden?: boolean;
  summary?: string;
  description?: string;
}

const manifest = (file: string): Command[] =>
  Object.values((JSON.parse(readFileSync(file, 'utf8')) as { commands: Record<string, Command> }).commands);
const commands = [
  ...manifest('oclif.manifest.json'),
  ...manifest(
    join(dirname(createRequire(import.meta.url).resolve('@oclif/plugin-autocomplete')), '..', 'oclif.manifest.json'),
  ),
].filter((c) => !c.hidden && !(OCLIF_OWN_COMMANDS as Set<string>).has(c.id));

describe('nrictl COMMAND --help', () => {
  it('covers the commands the README lists', () => {
    expect(commands.map((c) => c.id)).toEqual(
      expect.arrayContaining(['sim', 'sync:dump', 'plugin:new', 'autocomplete']),
    );
  });

  it.each(commands.map((c) => [c.id.replace(/:/g, ' '), c] as const))(
    '%s: exit 0, opening with its summary',
    async (id, c) => {
      const r = await runCli([...id.split(' '), '--help']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toBe('');
      const opening = r.stdout.split('\n\n')[0].replace(/\s+/g, ' ').trim();
      const summary = (c.summary ?? c.description?.split('\n')[0] ?? '').replace(/\s+/g, ' ').trim();
      expect(summary).not.toBe('');
      expect(opening).toBe(summary);
      expect(r.stdout).toMatch(new RegExp(`^USAGE\\n {2}\\$ nrictl ${id}\\b`, 'm'));
    },
  );
});
