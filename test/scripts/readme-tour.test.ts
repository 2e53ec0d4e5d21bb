// The README's tour promises that every command in it runs as printed from the top of
// a checkout. The generator runs them from the installed package and captures them;
// test/pack/pack.test.ts runs its check there (it fails when the text is stale or a
// command exits otherwise than its entry says).
// This test holds the printed text to the generator: the README shows exactly the
// generator's commands with their exit statuses, and names only paths the repository ships.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  BACKGROUND_SUFFIX,
  TOUR,
  shellWord,
  // @ts-expect-error: a plain ES module script without type declarations
} from '../../scripts/gen-readme.mjs';

type TourEntry = { args: string[]; exit: number; cwd?: string; background?: string[] };
const tour = TOUR as Record<string, TourEntry[]>;
const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const readme = readFileSync(join(repo, 'README.md'), 'utf8');

/**
 * Each `$ nrictl ...` line of the README's tour blocks, with the exit status shown under
 * it; a command started in the background (`... > /dev/null &`) as its own line.
 */
function printedTour(): Array<{ line: string; exit: number }> {
  const out: Array<{ line: string; exit: number }> = [];
  for (const [, block] of readme.matchAll(/<!-- tour:[\w-]+ -->\n([\s\S]*?)<!-- \/tour:[\w-]+ -->/g)) {
    for (const [, shown] of block.matchAll(/^```console\n([\s\S]*?)^```$/gm)) {
      let current: { line: string; body: string[] } | undefined;
      const commands: Array<{ line: string; body: string[] }> = [];
      for (const l of shown.split('\n')) {
        if (l.startsWith('$ ')) commands.push((current = { line: l.slice(2), body: [] }));
        else current?.body.push(l);
      }
      for (const c of commands.filter((c) => c.line.startsWith('nrictl '))) {
        const status = /^\[exit status (\d+)\]$/m.exec(c.body.join('\n'));
        out.push({ line: c.line, exit: status ? Number(status[1]) : 0 });
      }
    }
  }
  return out;
}

const entries = Object.values(tour).flat();
const commandLine = (e: TourEntry) => `nrictl ${e.args.map(shellWord).join(' ')}`;
/** What the README shows for every entry: its background command first, where it has one (exit 0 as it stops). */
const shownLines = (e: TourEntry) => [
  ...(e.background
    ? [{ line: `nrictl ${e.background.map(shellWord).join(' ')}${BACKGROUND_SUFFIX as string}`, exit: 0 }]
    : []),
  { line: commandLine(e), exit: e.exit },
];

describe('the README tour', () => {
  it('prints exactly the commands the generator runs, with the exit status each must have', () => {
    const byLine = (a: { line: string }, b: { line: string }) => a.line.localeCompare(b.line);
    expect(printedTour().sort(byLine)).toEqual(entries.flatMap(shownLines).sort(byLine));
  });

  it('names only paths the repository ships', () => {
    const paths = entries.flatMap((e) => [...e.args, ...(e.background ?? [])].filter((a) => a.startsWith('examples/')));
    expect(paths.length).toBeGreaterThan(0);
    for (const p of paths) expect(existsSync(join(repo, p)), p).toBe(true);
  });
});
