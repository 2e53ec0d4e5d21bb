// Global set-up (vitest.config.ts): a directory for this run where the test files share
// what is costly to make and the same for all of them (once.ts), such as the packed and
// installed package. Removed with everything in it when the run ends.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

export default function setup(project: TestProject): () => void {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'nrictl-once-'));
  project.provide('onceDir', dir);
  return () => rmSync(dir, { recursive: true, force: true });
}
