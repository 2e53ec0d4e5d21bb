// Global set-up (vitest.config.ts): where the tests that need a directory other users
// can reach make theirs. TMPDIR when others can reach it; else (a private TMPDIR) a
// directory made for this run in the first reachable one of FALLBACKS, mode 0711, which
// must be empty when the run ends: the teardown removes it then, and otherwise leaves it
// with what the tests left there, which scripts/run-tests.mjs lists, failing the run
// (it learns where from the file NRICTL_TEST_REACHABLE_RECORD names). With no reachable
// place at all, those tests are skipped and say why (reachable.ts).
import { chmodSync, mkdtempSync, readdirSync, rmdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { whyOthersCannotReach } from './reachable-place.js';

const FALLBACKS = ['/tmp', '/var/tmp', '/dev/shm'];

export default function setup(project: TestProject): (() => void) | undefined {
  const tmp = os.tmpdir();
  const why = whyOthersCannotReach(tmp);
  if (why === undefined) {
    project.provide('reachable', { dir: tmp });
    return undefined;
  }
  const base = FALLBACKS.find((d) => whyOthersCannotReach(d) === undefined);
  if (base === undefined) {
    project.provide('reachable', { reason: `${why}, and none of ${FALLBACKS.join(', ')} is reachable either` });
    return undefined;
  }
  const dir = mkdtempSync(path.join(base, 'nrictl-reach-'));
  chmodSync(dir, 0o711);
  const record = process.env.NRICTL_TEST_REACHABLE_RECORD;
  if (record) writeFileSync(record, JSON.stringify({ dir }));
  project.provide('reachable', { dir, instead: why });
  return () => {
    const left = readdirSync(dir);
    if (left.length === 0) rmdirSync(dir);
    else
      console.error(
        `the tests left ${left.length} entr${left.length === 1 ? 'y' : 'ies'} in ${dir}: ${left.join(', ')}`,
      );
  };
}
