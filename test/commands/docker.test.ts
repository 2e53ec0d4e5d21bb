// nrictl against Docker Engine: lint reads Docker's daemon.json as Docker's, and update
// and evict say before sending that Docker cannot apply them (Docker 29's NRI answers
// UpdateContainers with "not implemented"; moby daemon/internal/nri/nri.go).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../checks/helpers.js';
import { assertBuilt, demoState, nrictl as nrictlAsync, startRuntime, type SimHandle } from './nri-cli.js';
import { nrictl } from './nrictl.js';

const REDIS = 'c2c3d4e5f6a7';
const NOT_SENT =
  'Error: not sent: Docker Engine does not implement updates or evictions from plugins (it answers UpdateContainers with "not implemented"): use docker update, or docker stop, instead (--force sends it anyway)';

let sim: SimHandle;
let t: ReturnType<typeof tempDir>;
beforeAll(async () => {
  assertBuilt('update', 'evict', 'lint');
  t = tempDir('nridock-');
  sim = await startRuntime(await demoState(), {
    runtimeName: 'docker',
    runtimeVersion: '29.7.2',
    nriVersion: 'v0.12.1',
  });
});
afterAll(async () => {
  await sim?.stop();
  t?.cleanup();
});

describe('nrictl lint on Docker', () => {
  it("reads a daemon.json with nri-opts as Docker's, with no iSulad finding", async () => {
    const file = join(t.dir, 'daemon.json');
    writeFileSync(file, JSON.stringify({ 'log-driver': 'journald', 'nri-opts': { enable: true } }, null, 2));
    const r = await nrictl('lint', file, '-o', 'json');
    expect(r.code, r.stderr).toBe(0);
    const json = JSON.parse(r.stdout) as {
      findings: Array<{ code: string; message: string }>;
      runtimeConfigs: Array<{ format: string }>;
    };
    expect(json.runtimeConfigs.map((c) => c.format)).toEqual(['docker']);
    expect(json.findings.filter((f) => /iSulad|nri-support/.test(f.message))).toEqual([]);
    expect(json.findings.map((f) => f.code)).toContain('external-connections-disabled');
  });
});

describe('update and evict on Docker', () => {
  it('update refuses with exit 2 before sending, and says why', async () => {
    const before = sim.snapshot();
    const r = await nrictlAsync('update', REDIS, '--memory', '2Gi', '--yes', '--socket', sim.socketPath);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(NOT_SENT);
    expect(r.stdout).toMatch(/running on Docker Engine 29\.7\.2/);
    expect(sim.snapshot()).toEqual(before);
    expect(sim.of('updated')).toEqual([]);
  });

  it('evict refuses the same way', async () => {
    const r = await nrictlAsync('evict', REDIS, '--reason', 'r', '--yes', '--socket', sim.socketPath);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(NOT_SENT);
  });

  it('a dry run shows the request and says it would not be sent', async () => {
    const r = await nrictlAsync('update', REDIS, '--memory', '2Gi', '--dry-run', '--socket', sim.socketPath);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Warning: Docker Engine does not implement updates .*; only --force would send it\./);
  });
});
