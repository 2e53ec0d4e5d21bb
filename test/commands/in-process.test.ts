// The harness that runs the built CLI in the test's own process (test/support/cli-in-process.ts):
// a run sees what it was lent, and the worker gets back what it had.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runInProcess } from '../support/cli-in-process.js';
import { cliEnv } from './nri-cli.js';

const repo = path.resolve(import.meta.dirname, '../..');
const elsewhere = mkdtempSync(path.join(os.tmpdir(), 'nrc-inproc-'));
afterAll(() => rmSync(elsewhere, { recursive: true, force: true }));

describe('a run in process', () => {
  it('reads relative paths from the directory it was given, and the worker keeps its own', async () => {
    const cwd = process.cwd();
    const here = await runInProcess(['validate', 'examples/plugins', '-o', 'json'], { env: cliEnv(), cwd: repo });
    const there = await runInProcess(['validate', 'examples/plugins'], { env: cliEnv(), cwd: elsewhere });
    expect(JSON.parse(here.stdout).dir).toBe('examples/plugins');
    expect(there.code).toBe(2);
    expect(there.stderr).toMatch(/examples\/plugins/);
    expect(process.cwd()).toBe(cwd);
  });

  it('sees the environment it was given; the worker keeps its own, and its exit code', async () => {
    const before = { ...process.env };
    process.exitCode = undefined;
    const r = await runInProcess(['sync', 'dump'], {
      env: cliEnv({ NRI_SOCKET_PATH: path.join(elsewhere, 'nothing.sock') }),
    });
    // The socket the environment named, as a child would have used it.
    expect(r.code).toBe(4);
    expect(r.stderr).toContain(path.join(elsewhere, 'nothing.sock'));
    expect(process.env).toEqual(before);
    expect(process.exitCode).toBeUndefined();
  });

  it('takes turns: runs asked for together each get their own output', async () => {
    const [json, yaml] = await Promise.all([
      runInProcess(['version', '-o', 'json'], { env: cliEnv() }),
      runInProcess(['version', '-o', 'yaml'], { env: cliEnv() }),
    ]);
    expect(JSON.parse(json.stdout)).toHaveProperty('nrictl');
    expect(yaml.stdout).toMatch(/^nrictl: /m);
    expect(yaml.stdout).not.toContain('{');
  });

  it('refuses FORCE_COLOR, which only a process of its own can honour', async () => {
    await expect(runInProcess(['version'], { env: cliEnv({ FORCE_COLOR: '1' }) })).rejects.toThrow(/child process/);
  });
});
