import { spawnSync } from 'node:child_process';
import { BIN, cliEnv } from './nri-cli.js';

// The built command in a child process, waited for: for the one-shot commands that read
// files and print (lint, validate), where an async child would buy nothing.
export function nrictl(...args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', env: cliEnv() });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
