// Set-up file (vitest.config.ts setupFiles): runs in every test file, whose last afterAll
// this is (after hooks run in reverse order). See after-failure.ts.
import { appendFileSync } from 'node:fs';
import { afterAll } from 'vitest';
import type { RunnerTask, RunnerTestFile, RunnerTestSuite } from 'vitest';
import {
  endDescendants,
  forgetFileDirectories,
  noteTemporaryDirectories,
  removeFileDirectories,
} from './after-failure.js';

noteTemporaryDirectories();

const failed = (task: RunnerTask): boolean =>
  task.result?.state === 'fail' || ('tasks' in task && task.tasks.some(failed));

// vitest hands a hook its fixtures first (a pattern it parses: none here), then the file.
// eslint-disable-next-line no-empty-pattern
afterAll(async ({}, suite: Readonly<RunnerTestSuite | RunnerTestFile>) => {
  if (!failed(suite)) return forgetFileDirectories();
  await endDescendants();
  const removed = removeFileDirectories();
  // scripts/run-tests.mjs removes them once more when vitest has ended.
  const owed = process.env.NRICTL_TEST_FAILED_FILES_DIRS;
  if (owed && removed.length > 0) appendFileSync(owed, removed.map((d) => `${d}\n`).join(''));
}, 30_000);
