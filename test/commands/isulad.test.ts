// nrictl against a runtime that behaves as real iSulad does (the simulator under the
// isulad-2.1.5 preset): nothing nrictl sends may take it down, it is named as iSulad, and
// update and evict refuse to send what crashes it unless told --force.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { nri } from '../../src/api/index.js';
import { RUNTIME_PRESETS } from '../../src/runtime/index.js';
import { assertBuilt, demoState, nrictl, startCli, startRuntime, type SimHandle } from './nri-cli.js';

const ISULAD = RUNTIME_PRESETS['isulad-2.1.5'];
const REDIS = 'c2c3d4e5f6a7';

let sim: SimHandle;
beforeAll(async () => {
  assertBuilt('update', 'evict', 'logs', 'trace');
  sim = await startRuntime(await demoState(), {
    runtimeName: ISULAD.runtimeName,
    runtimeVersion: ISULAD.runtimeVersion,
    nriVersion: ISULAD.nriVersion,
    quirks: ISULAD.quirks!,
  });
});
afterAll(() => sim?.stop());

const pod: nri.IPodSandbox = { id: 'podX', name: 'api-0', namespace: 'shop', uid: 'uX' };
const ctr: nri.IContainer = {
  id: 'ctrXaaaaaaaaaaaa',
  name: 'api',
  env: ['A=1'],
  linux: { resources: { memory: { limit: { value: 64 * 2 ** 20 } } } },
};

const drops = () => sim.of('dropped');
const crashes = () => sim.of('error').filter((e) => /this would (abort|crash) iSulad/.test(e.message));

describe('update and evict on iSulad', () => {
  it('update refuses with exit 2 and sends nothing: iSulad crashes on plugin-initiated updates', async () => {
    const before = sim.snapshot();
    const r = await nrictl('update', REDIS, '--memory', '2Gi', '--yes', '--socket', sim.socketPath);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(
      'Error: not sent: iSulad crashes on any update or eviction a plugin sends through NRI (it frees memory the request owns): use isula update or crictl update instead (--force sends it anyway)',
    );
    // "unknown": iSulad's Synchronize carries no container state (src/runtime/sim/sync.ts).
    expect(r.stdout).toMatch(
      /^Update shop\/redis-0\/redis \(c2c3d4e5f6a7\), unknown on iSulad \(reports v2 2\.0\.0-beta\.2\+unknown\) \(NRI v0\.6 or older\):/,
    );
    expect(sim.snapshot()).toEqual(before);
    expect(crashes()).toEqual([]);
  });

  it('evict refuses the same way', async () => {
    const r = await nrictl('evict', REDIS, '--reason', 'r', '--yes', '--socket', sim.socketPath);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/not sent: iSulad crashes on any update or eviction/);
    expect(crashes()).toEqual([]);
  });

  it('a dry run shows the request and says why it would not be sent', async () => {
    const r = await nrictl('update', REDIS, '--memory', '2Gi', '--dry-run', '--socket', sim.socketPath);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Warning: iSulad crashes on any update or eviction .*; only --force would send it\./);
    expect(r.stdout).toMatch(/Dry run: nothing was sent/);
    expect(crashes()).toEqual([]);
  });

  it('--force sends it, and the runtime goes down as iSulad would (exit 6)', async () => {
    const r = await nrictl('update', REDIS, '--memory', '2Gi', '--yes', '--force', '--socket', sim.socketPath);
    expect(r.stdout).toMatch(/Warning: iSulad crashes .*; sending anyway \(--force\)\./);
    expect(r.code, r.stderr).toBe(6);
    expect(crashes().map((e) => e.message)).toEqual([
      expect.stringMatching(/^this would crash iSulad: plugin 99-nrictl-update sent UpdateContainers \(1 update\)/),
    ]);
  });
});

describe('transient plugins on iSulad', () => {
  it('logs names iSulad, survives CreateContainer, and prints only what iSulad said about the container', async () => {
    const run = startCli(['logs', '--socket', sim.socketPath, '--plugin-name', 'isulad-logs']);
    await sim.synchronized('99-isulad-logs');
    await run.waitForStderr('registered with');
    const droppedBefore = drops().length;
    const crashedBefore = crashes().length;
    await sim.runtime.runPodSandbox(pod);
    expect((await sim.runtime.createContainer('podX', ctr)).ok).toBe(true);
    await sim.runtime.startContainer(ctr.id!);
    await sim.runtime.removeContainer(ctr.id!);
    await sim.runtime.removePodSandbox('podX');
    expect(drops().slice(droppedBefore)).toEqual([]);
    run.child.kill('SIGTERM');
    await run.exited;
    expect(run.stderr()).toMatch(/registered with iSulad \(reports v2 2\.0\.0-beta\.2\+unknown\) at /);
    const lines = run.stdout().trim().split('\n');
    const create = lines.find((l) => / CreateContainer /.test(l));
    // No id, no resources: iSulad sent neither, and nothing stands in for them.
    expect(create?.replace(/^\S+ /, '')).toBe('CreateContainer      shop/api-0 api');
    expect(lines.find((l) => / StartContainer /.test(l))).toMatch(/shop\/api-0 api ctrXaaaaaaaaa$/);
    expect(crashes().slice(crashedBefore)).toEqual([]);
  });
});
