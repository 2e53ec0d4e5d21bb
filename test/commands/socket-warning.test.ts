import { chmodSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { demoState, runCli, startRuntime, type SimHandle } from './nri-cli.js';

// The NRI socket is as powerful as root: every connecting command says so when the
// socket's permissions were loosened, and still does its job.
let sim: SimHandle;

beforeEach(async () => {
  sim = await startRuntime(await demoState());
});
afterEach(async () => {
  await sim.stop();
});

describe('connecting commands warn about a loosened NRI socket', () => {
  it('says nothing about the simulator\'s own 0600 socket in its 0700 directory', async () => {
    const r = await runCli(['sync', 'dump', '--socket', sim.socketPath]);
    expect(r.code).toBe(0);
    expect(r.stderr).not.toContain('Warning:');
  });

  it('warns, naming the socket and the fix, when group or others may connect', async () => {
    chmodSync(sim.socketPath, 0o666);
    const r = await runCli(['sync', 'dump', '--socket', sim.socketPath, '-o', 'json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`Warning: ${sim.socketPath}: mode`);
    expect(r.stderr).toContain(`fix: chmod 0600 ${sim.socketPath}`);
    expect(JSON.parse(r.stdout).containers.length).toBeGreaterThan(0);
  });

  it('warns when others may replace the socket in its directory (update --dry-run too)', async () => {
    const dir = path.dirname(sim.socketPath);
    chmodSync(dir, 0o777);
    try {
      const r = await runCli(['update', '--socket', sim.socketPath, 'shop/redis-0/redis', '--memory', '1Gi', '--dry-run']);
      expect(r.code).toBe(0);
      expect(r.stderr).toContain(`Warning: ${dir}: the socket's directory is writable by group or others`);
    } finally {
      chmodSync(dir, 0o700);
    }
  });
});
