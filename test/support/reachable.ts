// A temporary directory other users can reach, for the tests about who may reach a
// socket and those that run nrictl as an ordinary user. The place is chosen once per run
// (reachable-setup.ts): TMPDIR, or, when TMPDIR is private, a directory of this run in a
// reachable place. When there is none, OTHERS_CANNOT_REACH says why, and the tests that
// need one are skipped with that reason in their names; the rest still run.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';

declare module 'vitest' {
  interface ProvidedContext {
    /** dir: where to make directories others can reach (instead: why TMPDIR is not that place); reason: there is none. */
    reachable: { dir: string; instead?: string } | { reason: string };
  }
}

const place = inject('reachable');

/** Why no directory other users can reach is to be had; undefined when one is. */
export const OTHERS_CANNOT_REACH: string | undefined = 'reason' in place ? place.reason : undefined;

/** For the name of a test that is skipped when OTHERS_CANNOT_REACH: the reason, printed with it. */
export const UNREACHABLE_NOTE = OTHERS_CANNOT_REACH ? ` (skipped: ${OTHERS_CANNOT_REACH})` : '';

if (OTHERS_CANNOT_REACH)
  console.warn(`tests that need a directory other users can reach are skipped: ${OTHERS_CANNOT_REACH}`);

/**
 * A fresh directory (0700, as mkdtemp makes it: the test opens it as it needs) in a place
 * other users can reach; in TMPDIR when there is no such place (the tests that need one
 * are skipped then). Removed by cleanup().
 */
export function reachableTempDir(prefix: string): { dir: string; cleanup(): void } {
  const base = 'dir' in place ? place.dir : os.tmpdir();
  const dir = mkdtempSync(path.join(base, prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
