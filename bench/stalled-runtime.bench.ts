// How long nrictl takes to end under a runtime that stops reading its answers (issue 20):
// update with --timeout 1s, 2s and 5s, counted from the moment the runtime stalled;
// logs and trace after a SIGTERM; logs against a peer that never answers RegisterPlugin
// and floods events meanwhile. The built CLI against test/commands/stalled-runtime.ts on
// real unix sockets. Prints; asserts nothing (test/commands/deadlines.test.ts holds the
// behaviour).
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stalledRuntime } from '../test/commands/stalled-runtime.js';

const root = process.env.NRICTL_BENCH_ROOT ?? join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = join(root, 'bin', 'run.js');
function run(
  args: string[],
  killAfterStall?: number,
): Promise<{ code: number | null; ms: number; stderr: string; stdoutLines: number; fromKill?: number }> {
  return new Promise((resolve) => {
    const t = Date.now();
    const c = spawn(process.execPath, [bin, ...args], {
      env: { ...process.env, NO_COLOR: '1', NODE_ENV: 'production' },
    });
    let err = '';
    let out = '';
    c.stderr.on('data', (d) => (err += d));
    c.stdout.on('data', (d) => (out += d));
    let killedAt = 0;
    if (killAfterStall !== undefined)
      setTimeout(() => {
        killedAt = Date.now();
        c.kill('SIGTERM');
      }, killAfterStall);
    c.on('close', (code) =>
      resolve({
        code,
        ms: Date.now() - t,
        stderr: err.trim().split('\n').slice(-1)[0],
        stdoutLines: out.split('\n').filter(Boolean).length,
        fromKill: killedAt ? Date.now() - killedAt : undefined,
      }),
    );
  });
}
for (const timeout of ['1s', '2s', '5s']) {
  const rt = await stalledRuntime('stops-reading');
  let stalledAt = 0;
  void rt.stalled.then(() => (stalledAt = Date.now()));
  const r = await run([
    'update',
    'c1aaaaaaaaaa',
    '--cpus',
    '0-1',
    '--yes',
    '--socket',
    rt.socketPath,
    '--timeout',
    timeout,
  ]);
  const late = Date.now() - stalledAt - Number(timeout.replace('s', '')) * 1000;
  console.log(
    `update --timeout ${timeout}: exit ${r.code} after ${r.ms} ms in all; ended ${late} ms after the deadline (counted from the end of Synchronize) (requests sent ${rt.sent()}): ${r.stderr.slice(0, 100)}`,
  );
  await rt.close();
}
for (const cmd of [['logs'], ['trace']]) {
  const rt = await stalledRuntime('stops-reading');
  const r = await run([...cmd, '--socket', rt.socketPath], 2000);
  console.log(
    `${cmd[0]}, SIGTERM 2 s after start: exit ${r.code}, ended ${r.fromKill} ms after the signal: ${r.stderr.slice(0, 150)}`,
  );
  await rt.close();
}
{
  const rt = await stalledRuntime('unregistered-flood');
  const r = await run(['logs', '--socket', rt.socketPath, '--timeout', '2s']);
  console.log(
    `logs vs a peer that never answers RegisterPlugin and sends 1000 events: exit ${r.code} after ${r.ms} ms, ${r.stdoutLines} lines on stdout: ${r.stderr.slice(0, 150)}`,
  );
  await rt.close();
}
