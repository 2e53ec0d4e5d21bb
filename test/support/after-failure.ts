// What a test file that failed still owes: a test that timed out (on a busy machine, say)
// was abandoned mid-way, its `finally` never reached, the processes it started still
// running and the temporary directories it made still there. The run fails either way; it
// must not also leave them behind. So when a file ends with a failure (after-failure-setup.ts):
// - the processes this worker started that still run are ended (SIGTERM, so that a
//   simulator or a command removes its socket and directory as on a signal; then SIGKILL);
// - the temporary directories made during the file (every mkdtemp of this process, the
//   tests' and the commands' run in process alike) are removed, and written down for
//   scripts/run-tests.mjs, which removes them once more when vitest has ended: an abandoned
//   test can still be at work in this process after its file ended.
// A file that passed is left alone: what its tests leave behind is theirs to clean up, and
// run-tests fails the run, listing it.
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { fileURLToPath } from 'node:url';
// @ts-expect-error: a plain ES module script without type declarations
import { endProcesses } from '../../scripts/end-processes.mjs';

const made = new Set<string>();
const recorded = Symbol.for('nrictl.test.mkdtemp-recorded');

/** From now on, every mkdtemp of this process is noted for the file that runs (once per worker). */
export function noteTemporaryDirectories(): void {
  const g = globalThis as { [recorded]?: true };
  if (g[recorded]) return;
  g[recorded] = true;
  const sync = fs.mkdtempSync;
  fs.mkdtempSync = ((prefix: string, options?: fs.EncodingOption) => {
    const dir = sync(prefix, options);
    made.add(String(dir));
    return dir;
  }) as typeof fs.mkdtempSync;
  const promised = fs.promises.mkdtemp;
  fs.promises.mkdtemp = (async (prefix: string, options?: fs.EncodingOption) => {
    const dir = await promised(prefix, options);
    made.add(String(dir));
    return dir;
  }) as typeof fs.promises.mkdtemp;
  // `import { mkdtempSync } from 'node:fs'` and the bundle's require('node:fs') see these too.
  syncBuiltinESMExports();
}

/** The file passed: its directories are its own business. */
export function forgetFileDirectories(): void {
  made.clear();
}

/**
 * Removes the file's temporary directories that are still there, but the one this process
 * works in: a command run in process by an abandoned test may still hold it, lent as its
 * directory (test/support/cli-in-process.ts), and the next file would find no working
 * directory. Returns them all, for run-tests to remove once more at the end.
 */
export function removeFileDirectories(): string[] {
  const dirs = [...made];
  made.clear();
  const here = workingDirectory();
  for (const dir of dirs) {
    const real = fs.existsSync(dir) ? fs.realpathSync(dir) : dir;
    if (here === real || here.startsWith(`${real}/`)) continue;
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return dirs;
}

const REPO = fileURLToPath(new URL('../..', import.meta.url));

/**
 * This process's working directory. One that is gone (an abandoned run in process was lent
 * a directory its test's own clean-up then removed) is given back as vitest started the
 * worker, in the repository, so that the files after this one find theirs.
 */
function workingDirectory(): string {
  try {
    return fs.realpathSync(process.cwd());
  } catch {
    process.chdir(REPO);
    return fs.realpathSync(REPO);
  }
}

/** The pids of this process's descendants, parents before their children (Linux /proc). */
function descendants(of: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    // pid (comm) state ppid ...: comm may hold spaces and parentheses, so read after the last ')'.
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    children.set(ppid, [...(children.get(ppid) ?? []), Number(name)]);
  }
  const out: number[] = [];
  const walk = (pid: number): void => {
    for (const child of children.get(pid) ?? []) {
      out.push(child);
      walk(child);
    }
  };
  walk(of);
  return out;
}

/** Ends every process this worker started that still runs: SIGTERM, then SIGKILL for what still runs after `graceMs`. */
export async function endDescendants(graceMs = 10_000): Promise<void> {
  const pids = descendants(process.pid);
  if (pids.length > 0) await endProcesses(pids, graceMs);
}
