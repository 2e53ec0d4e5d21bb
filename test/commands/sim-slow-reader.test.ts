// A reader slower than the simulator: the simulated runtime waits for it (its events are
// the run's result), so a small --buffer loses nothing and memory stays bounded; what no
// step paces is dropped and counted instead (test/output/bounded-queue.test.ts).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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

// Plugin output under --plugin-output json goes to stderr, beside the events: a stalled
// stderr must not make the simulator hold every line in memory (Node buffers a stalled
// pipe without bound). It holds --buffer lines, drops the rest, and says how many.
it('a stalled stderr under --plugin-output json drops plugin lines past --buffer and says how many', async () => {
  const plugins = path.join(dir, 'plugins');
  mkdirSync(plugins, { recursive: true });
  const chatty = path.join(plugins, '10-chatty');
  // Never registers: it only writes (20,000 lines, ~400 KB), until the registration timeout stops it.
  writeFileSync(chatty, '#!/bin/sh\nseq 1 20000 | sed "s/^/a line of plugin output number /"\nexec sleep 30\n');
  chmodSync(chatty, 0o755);
  const empty = path.join(dir, 'empty.yaml');
  writeFileSync(empty, 'pods: []\n');
  const argv = [BIN, 'sim', empty, '--plugin-dir', plugins, '--plugin-output', 'json', '--buffer', '4'];
  const child = spawn(process.execPath, [...argv, '--registration-timeout', '2s', '-o', 'json'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: cliEnv({ CI: '1' }),
  });
  child.stdout.resume();
  child.stderr.pause();
  await sleep(1500);
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stderr.resume();
  const [code] = (await once(child, 'close')) as [number | null];

  expect(code, stderr.slice(-2000)).toBe(0);
  const lines = stderr.trimEnd().split('\n');
  const shown = lines.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { type: string; line: string });
  expect(shown.every((r) => r.type === 'plugin-output')).toBe(true);
  const dropped = lines
    .map((l) => /(\d+) plugin output lines? dropped: stderr could not keep up/.exec(l))
    .reduce((n, m) => n + (m ? Number(m[1]) : 0), 0);
  expect(dropped, 'a stalled stderr cannot have taken 20,000 lines').toBeGreaterThan(0);
  expect(shown.length + dropped).toBeLessThanOrEqual(20_000);
  // Every line shown is whole, in the plugin's order.
  const numbers = shown.map((r) => Number(/number (\d+)$/.exec(r.line)?.[1]));
  expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
}, 60_000);
