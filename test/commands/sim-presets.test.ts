// `nrictl sim --preset NAME` and `--preset all` as a real child process of the built
// CLI, with a pre-started plugin that subscribes to exactly one event as a Go plugin
// would (the SDK narrows its mask to what the runtime knows; this one does not).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { runCli } from './nri-cli.js';
import { rawPlugin } from './raw-plugin-script.js';

// In the test's own process; CI set, so the simulator never reads stdin.
async function sim(args: string[]) {
  const r = await runCli(['sim', ...args], { CI: '1' });
  return { code: r.code, stdout: r.stdout, stderr: r.stderr, lines: r.stdout.split('\n').filter(Boolean) };
}

let tmp: string;
let plugins: string;
let scenario: string;
let expectFile: string;
beforeAll(async () => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'simpresets-'));
  plugins = path.join(tmp, 'plugins');
  mkdirSync(plugins);
  writeFileSync(path.join(plugins, '10-m800'), await rawPlugin(), { mode: 0o755 }); // UPDATE_POD_SANDBOX
  scenario = path.join(tmp, 'scenario.yaml');
  writeFileSync(
    scenario,
    'pods:\n  - {id: pod0, name: web}\ncontainers: []\nsteps:\n  - update-pod: {id: pod0, resources: {cpu_shares: 512}}\n',
  );
  expectFile = path.join(tmp, 'expect.yaml');
  writeFileSync(expectFile, `scenario: ${scenario}\nexpect:\n  - after: update-pod pod0\n    result: succeeded\n`);
});

/** What containerd 1.7.0-1.7.25 log as they exit over 10-m800 (pkg/cri/cri.go:117 around NRI v0.4's Start error). */
const CONTAINERD_17_FATAL =
  'level=fatal msg="Failed to run CRI service" error="failed to set up NRI for CRI service: failed to start NRI interface: invalid plugin events: 0x800"';
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe.concurrent('nrictl sim --preset', () => {
  it('crio-1.32 refuses a plugin subscribing to UpdatePodSandbox with the runtime’s own words', async ({ expect }) => {
    const r = await sim([scenario, '--preset', 'crio-1.32', '--plugin-dir', plugins, '--calls']);
    expect(r.stdout).toMatch(/10-m800: failed to start pre-installed plugin 10-m800: invalid plugin events: 0x800\n/);
    expect(r.stdout).not.toMatch(/invoke\s+UpdatePodSandbox/);
  });

  it('containerd-1.7.13 does not come up: one line in its own words, exit 1, nothing of the scenario runs', async ({
    expect,
  }) => {
    const r = await sim([scenario, '--preset', 'containerd-1.7.13', '--plugin-dir', plugins]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'Error: containerd v1.7.13 exits at start-up: pre-started plugin 10-m800 failed to start, which NRI v0.4.0 makes fatal (from v0.7.0 it is skipped): ' +
        `fix it or keep it out of the plugin directory; it logs ${CONTAINERD_17_FATAL}\n`,
    );
    expect(r.stdout).not.toMatch(/state\s+UpdatePodSandbox|script done/);
  });

  it('containerd-1.7.34 (NRI v0.8.0) skips the plugin and runs the scenario', async ({ expect }) => {
    const r = await sim([scenario, '--preset', 'containerd-1.7.34', '--plugin-dir', plugins]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/10-m800: failed to start pre-installed plugin 10-m800: invalid plugin events: 0x800\n/);
    expect(r.stdout).toMatch(/script done: 1 steps, 0 failed/);
  });

  it('--expect on containerd-1.7.25 ends with the same one-line failure, exit 1', async ({ expect }) => {
    const r = await sim(['--expect', expectFile, '--preset', 'containerd-1.7.25', '--plugin-dir', plugins]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^Error: containerd v1\.7\.25 exits at start-up: pre-started plugin 10-m800 failed to start/,
    );
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('isulad-2.1.5 skips the plugin with iSulad’s own words', async ({ expect }) => {
    const r = await sim([scenario, '--preset', 'isulad-2.1.5', '--plugin-dir', plugins]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /10-m800: Invalid plugin events: 2048; Failed to configure nri plugin m800; Failed to start plugin m800 ready\n/,
    );
  });

  it('containerd-2.3 accepts it and sends it UpdatePodSandbox', async ({ expect }) => {
    const r = await sim([scenario, '--preset', 'containerd-2.3', '--plugin-dir', plugins, '--calls']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/registered\s+10-m800 pre-started, events UpdatePodSandbox/);
    expect(r.stdout).toMatch(/invoke\s+UpdatePodSandbox\s+-> 10-m800/);
    expect(r.stdout).not.toMatch(/invalid plugin events/);
  });

  it('all: one result per release line, every record tagged with its preset, exit 1 when any fails', async ({
    expect,
  }) => {
    const r = await sim([scenario, '--preset', 'all', '--plugin-dir', plugins, '-o', 'json']);
    expect(r.code).toBe(1);
    const objects = r.lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    const results = objects.filter((o) => o.type === 'preset-result');
    const verdicts = Object.fromEntries(results.map((o) => [o.preset, o.ok]));
    expect(verdicts).toEqual({
      'containerd-1.7.0': false,
      'containerd-1.7.13': false,
      'containerd-1.7.25': false,
      'containerd-1.7.34': false,
      'containerd-2.0': false,
      'containerd-2.1': false,
      'containerd-2.2.0': true,
      'containerd-2.2.1': true,
      'containerd-2.3': true,
      'crio-1.32': false,
      'crio-1.33': true,
      'crio-1.34': true,
      'crio-1.35': true,
      'crio-1.36': true,
      'docker-29': true,
      'isulad-2.1.5': false,
    });
    const crio132 = results.find((o) => o.preset === 'crio-1.32');
    expect(crio132?.refused).toEqual([
      { plugin: '10-m800', message: 'failed to start pre-installed plugin 10-m800: invalid plugin events: 0x800' },
    ]);
    expect(crio132?.startFailure).toBeUndefined();
    // NRI v0.3.0-v0.6.1: the runtime itself does not come up; nothing of the scenario ran.
    for (const preset of ['containerd-1.7.0', 'containerd-1.7.13', 'containerd-1.7.25']) {
      const p = results.find((o) => o.preset === preset);
      expect(p?.startFailure).toMatchObject({ plugin: '10-m800', log: CONTAINERD_17_FATAL });
      expect(p?.script).toBeUndefined();
    }
    expect(results.find((o) => o.preset === 'containerd-1.7.34')?.startFailure).toBeUndefined();
    expect(results.find((o) => o.preset === 'isulad-2.1.5')?.refused).toEqual([
      {
        plugin: '10-m800',
        message: 'Invalid plugin events: 2048; Failed to configure nri plugin m800; Failed to start plugin m800 ready',
      },
    ]);
    // Every record before the results names its preset.
    const records = objects.filter((o) => o.type !== 'preset-result');
    expect(records.length).toBeGreaterThan(16);
    expect(records.every((o) => typeof o.preset === 'string')).toBe(true);
    expect(r.stderr).toMatch(/^Error: 8 preset\(s\) failed: containerd-1\.7\.0, /m);
    // One simulation after another on one stop signal: none leaves its listener behind.
    expect(r.stderr).not.toMatch(/MaxListenersExceededWarning/);
  }, 120_000);

  it('all --expect: one result per preset, the ones whose runtime did not start said so', async ({ expect }) => {
    const r = await sim(['--expect', expectFile, '--preset', 'all', '--plugin-dir', plugins]);
    expect(r.code).toBe(1);
    const rows = Object.fromEntries(
      r.stdout
        .split('\n')
        .filter((l) => /^(containerd|crio|docker|isulad)-\S+\s+\S/.test(l))
        .map((l) => [l.split(/\s+/)[0], l]),
    );
    expect(Object.keys(rows)).toHaveLength(16);
    for (const preset of ['containerd-1.7.0', 'containerd-1.7.13', 'containerd-1.7.25'])
      expect(rows[preset]).toMatch(
        /NO START\s+runtime did not start \(10-m800\): level=fatal msg="Failed to run CRI service"/,
      );
    expect(rows['containerd-1.7.34']).toMatch(/FAILED\s+1\/1 expectations hold; 10-m800 refused: /);
    expect(rows['containerd-2.3']).toMatch(/ok\s+1\/1 expectations hold$/);
  }, 120_000);

  it('all: refuses flags that would override each preset', async ({ expect }) => {
    const r = await sim([scenario, '--preset', 'all', '--nri-version', 'v0.12.0']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^Error: --nri-version: not with preset all: every preset sets its own runtime/m);
  });
});
