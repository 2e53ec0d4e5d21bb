import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OTHERS_CANNOT_REACH, UNREACHABLE_NOTE } from '../support/reachable.js';
import { demoState, runCli, startRuntime, type SimHandle } from './nri-cli.js';

// The NRI socket is as powerful as root: every connecting command says so when someone
// besides its owner can connect to it or replace it, and still does its job. The
// simulator's socket lives in a 0700 directory of its own; tests open that directory
// (0755) where others must be able to reach the socket, and it is made where they can
// (test/support/reachable.ts); without such a place, those tests are skipped, saying why.
let sim: SimHandle;
const reach = OTHERS_CANNOT_REACH !== undefined;

beforeEach(async () => {
  sim = await startRuntime(await demoState(), {}, { reachable: true });
});
afterEach(async () => {
  await sim.stop();
});

describe('connecting commands warn about a loosened NRI socket', () => {
  it("says nothing about the simulator's own 0600 socket in its 0700 directory", async () => {
    const r = await runCli(['sync', 'dump', '--socket', sim.socketPath]);
    expect(r.code).toBe(0);
    expect(r.stderr).not.toContain('Warning:');
  });

  it("says nothing about a runtime's 0755 socket (Go listens under umask 022): only root can write to it", async () => {
    chmodSync(sim.socketPath, 0o755);
    chmodSync(path.dirname(sim.socketPath), 0o755);
    const r = await runCli(['sync', 'dump', '--socket', sim.socketPath, '-o', 'json']);
    expect(r.code).toBe(0);
    expect(r.stderr).not.toContain('Warning:');
  });

  it('says nothing about a 0666 socket that nobody but root can reach (its directory is 0700)', async () => {
    chmodSync(sim.socketPath, 0o666);
    const r = await runCli(['sync', 'dump', '--socket', sim.socketPath, '-o', 'json']);
    expect(r.code).toBe(0);
    expect(r.stderr).not.toContain('Warning:');
  });

  it.skipIf(reach)(
    `warns, naming the socket and the fix, when group or others may connect${UNREACHABLE_NOTE}`,
    async () => {
      chmodSync(sim.socketPath, 0o666);
      chmodSync(path.dirname(sim.socketPath), 0o755);
      const r = await runCli(['sync', 'dump', '--socket', sim.socketPath, '-o', 'json']);
      expect(r.code).toBe(0);
      expect(r.stderr).toContain(`Warning: ${sim.socketPath}: mode`);
      expect(r.stderr).toContain(`fix: chmod 0600 ${sim.socketPath}`);
      expect(JSON.parse(r.stdout).containers.length).toBeGreaterThan(0);
    },
  );

  it.skipIf(reach)(
    `warns when others may replace the socket in its directory (update --dry-run too)${UNREACHABLE_NOTE}`,
    async () => {
      const dir = path.dirname(sim.socketPath);
      chmodSync(dir, 0o777);
      try {
        const r = await runCli([
          'update',
          '--socket',
          sim.socketPath,
          'shop/redis-0/redis',
          '--memory',
          '1Gi',
          '--dry-run',
        ]);
        expect(r.code).toBe(0);
        expect(r.stderr).toContain(`Warning: ${dir}: the socket's directory is writable by others`);
      } finally {
        chmodSync(dir, 0o700);
      }
    },
  );

  it('never warns about the embedded simulator, even in a temporary directory others can write', async () => {
    const shared = mkdtempSync(path.join(tmpdir(), 'nrishared-'));
    const tmp = path.join(shared, 'tmp');
    mkdirSync(tmp);
    chmodSync(shared, 0o755);
    chmodSync(tmp, 0o777);
    try {
      const r = await runCli(['sync', 'dump', '--sim', 'examples/demo.yaml', '-o', 'json'], { TMPDIR: tmp });
      expect(r.code).toBe(0);
      expect(r.stderr).not.toContain('Warning:');
      const logs = await runCli(['logs', '--sim', 'examples/demo.yaml', '-o', 'json'], { TMPDIR: tmp });
      expect(logs.code).toBe(0);
      expect(logs.stderr).not.toContain('Warning:');
    } finally {
      rmSync(shared, { recursive: true, force: true });
    }
  });
});
