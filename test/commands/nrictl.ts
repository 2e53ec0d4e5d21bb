import { spawnSync } from 'node:child_process';

// The real command in a child process, from the sources (see run-from-source.ts).
export function nrictl(...args: string[]) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'test/commands/run-from-source.ts', ...args], {
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
