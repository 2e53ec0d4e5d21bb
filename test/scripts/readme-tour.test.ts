// The README's tour promises that every command in it runs as printed from the top of
// a checkout. The generator captures them (and CI's check:readme fails when the text
// is stale); this test holds the printed commands to that promise with the built CLI:
// the README shows exactly the generator's commands, each runs from the checkout, its
// paths exist in the repository, and it exits as the README says.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module script without type declarations
import { ENV, SCRATCH, TOUR, shellWord } from '../../scripts/gen-readme.mjs';

type TourEntry = { args: string[]; exit: number; cwd?: string };
const tour = TOUR as Record<string, TourEntry[]>;
const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const readme = readFileSync(join(repo, 'README.md'), 'utf8');

/** Each `$ nrictl ...` line of the README's tour blocks, with the exit status shown under it. */
function printedTour(): Array<{ line: string; exit: number }> {
  const out: Array<{ line: string; exit: number }> = [];
  for (const [, block] of readme.matchAll(/<!-- tour:[\w-]+ -->\n([\s\S]*?)<!-- \/tour:[\w-]+ -->/g)) {
    for (const [, line, body] of block.matchAll(/^\$ (nrictl .*)\n([\s\S]*?)^```$/gm)) {
      const status = /\[exit status (\d+)\]\n$/.exec(body);
      out.push({ line: line, exit: status ? Number(status[1]) : 0 });
    }
  }
  return out;
}

const entries = Object.values(tour).flat();
const commandLine = (e: TourEntry) => `nrictl ${e.args.map(shellWord).join(' ')}`;

describe('the README tour', () => {
  it('prints exactly the commands the generator runs, with the exit status each must have', () => {
    const byLine = (a: { line: string }, b: { line: string }) => a.line.localeCompare(b.line);
    expect(printedTour().sort(byLine)).toEqual(
      entries.map((e) => ({ line: commandLine(e), exit: e.exit })).sort(byLine),
    );
  });

  it('names only paths the repository ships', () => {
    const paths = entries.flatMap((e) => e.args.filter((a) => a.startsWith('examples/')));
    expect(paths.length).toBeGreaterThan(0);
    for (const p of paths) expect(existsSync(join(repo, p)), p).toBe(true);
  });

  // The plugin commands write a project or a bundle, and the sim --expect runs test that
  // bundle: the generator runs them in a scratch directory (test/commands/plugin-*.test.ts
  // and test/examples cover them), not in the checkout.
  it.concurrent.each(entries.filter((e) => e.cwd !== SCRATCH).map((e) => [commandLine(e), e] as const))(
    '%s runs as printed from the checkout',
    async (_, e) => {
      const r = spawnSync(process.execPath, [join(repo, 'bin', 'run.js'), ...e.args], {
        cwd: repo,
        env: ENV,
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(r.signal, r.stderr).toBeNull();
      expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(e.exit);
    },
  );
});
