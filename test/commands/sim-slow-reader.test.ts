// A reader slower than the simulator: the simulated runtime waits for it (its events are
// the run's result), so a small --buffer loses nothing and memory stays bounded; what no
// step paces is dropped and counted instead (test/render/bounded-queue.test.ts).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { assertBuilt, BIN, cliEnv } from './nri-cli.js';

const STEPS = 1000;
let dir: string;
beforeAll(() => {
  assertBuilt('sim');
  dir = mkdtempSync(path.join(os.tmpdir(), 'nrictl-slow-reader-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('a paused reader holds the script back; once it reads, every event is there, in order, none dropped', async () => {
  const steps = Array.from({ length: STEPS / 2 }, (_, i) => [
    `  - create: {id: c${i}, pod: pod0, name: c${i}}`,
    `  - remove: c${i}`,
  ]).flat();
  const scenario = path.join(dir, 'many-steps.yaml');
  writeFileSync(scenario, ['pods:', '  - {id: pod0, name: web, namespace: shop}', 'steps:', ...steps, ''].join('\n'));

  const child = spawn(process.execPath, [BIN, 'sim', scenario, '--buffer', '4', '-o', 'json'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: cliEnv({ CI: '1' }),
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  // Nothing is read for a while: the pipe fills (some 100 KB of events are on their way)
  // and the simulator's four-record queue with it.
  child.stdout.pause();
  await sleep(1500);
  expect(child.exitCode, 'the simulator finished without its reader').toBe(null);
  let stdout = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stdout.resume();
  // 'close': the process has exited and its output has been read to the end.
  const [code] = (await once(child, 'close')) as [number | null];

  expect(code, stderr).toBe(0);
  expect(stderr).not.toMatch(/dropped/);
  const records = stdout
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as { type: string; event?: string; container?: string; steps?: number; failed?: number });
  const created = records.filter((r) => r.type === 'state-changed' && r.event === 'CreateContainer');
  const removed = records.filter((r) => r.type === 'state-changed' && r.event === 'RemoveContainer');
  expect(created.map((r) => r.container)).toEqual(Array.from({ length: STEPS / 2 }, (_, i) => `c${i}`));
  expect(removed).toHaveLength(STEPS / 2);
  expect(records.at(-1)).toMatchObject({ type: 'script-done', steps: STEPS, failed: 0 });
}, 60_000);
