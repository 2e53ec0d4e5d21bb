// Made once per test run, whichever test file asks first, in whichever worker: the others
// wait for it and get the same. For what is costly and the same for every file that needs
// it (the packed package, its installation). The first to ask makes it under a lock (an
// exclusive mkdir in the run's directory, once-setup.ts), then writes its result; a
// failure is kept too, so every file that needs the thing fails with the same reason
// rather than making it again.
import { existsSync, mkdirSync, readFileSync, renameSync, watch, writeFileSync } from 'node:fs';
import path from 'node:path';
import { inject } from 'vitest';

declare module 'vitest' {
  interface ProvidedContext {
    /** The run's directory for what is made once (once-setup.ts). */
    onceDir: string;
  }
}

type Outcome<T> = { ok: true; value: T } | { ok: false; error: string };

/** `make(dir)` runs once per run, in a fresh directory of its own; every caller gets its value. */
export async function once<T>(name: string, make: (dir: string) => T | Promise<T>): Promise<T> {
  const base = inject('onceDir');
  const dir = path.join(base, name);
  const result = path.join(base, `${name}.json`);
  let mine = true;
  try {
    mkdirSync(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    mine = false;
  }
  if (mine) {
    let outcome: Outcome<T>;
    try {
      outcome = { ok: true, value: await make(dir) };
    } catch (err) {
      outcome = { ok: false, error: (err as Error).stack ?? String(err) };
    }
    // Written whole, then renamed: a waiter never reads half of it.
    writeFileSync(`${result}.part`, JSON.stringify(outcome));
    renameSync(`${result}.part`, result);
  } else await appeared(base, result);
  const outcome = JSON.parse(readFileSync(result, 'utf8')) as Outcome<T>;
  if (!outcome.ok) throw new Error(`${name}, made once for the run by another test file, failed:\n${outcome.error}`);
  return outcome.value;
}

/** Resolves once `file` exists: on the directory's change events, and a check each second in case one is missed. */
function appeared(base: string, file: string): Promise<void> {
  return new Promise((resolve) => {
    const check = (): void => {
      if (!existsSync(file)) return;
      watcher.close();
      clearInterval(timer);
      resolve();
    };
    const watcher = watch(base, check);
    const timer = setInterval(check, 1000);
    check();
  });
}
