// The TypeScript example plugins (examples/plugins-ts), bundled by the built CLI and run
// under `nrictl sim --expect` with their own expectation files; and a deliberately wrong
// expectation, which must fail with a diff naming the plugin that set the value. The
// simulator runs in this process (runCli); the plugins it launches are processes of
// their own, as on a node. `plugin bundle` runs as a child: it starts esbuild's service.
import { spawn } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, BIN, cliEnv, runCli, tempDir } from '../commands/nri-cli.js';

const EXAMPLES = resolve('examples/plugins-ts');
let base: { dir: string; cleanup(): void };

function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [BIN, ...args], { env: cliEnv() });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((res) => child.on('close', (code) => res({ code, stdout, stderr })));
}

/** A plugin directory holding the example, bundled, as 10-NAME. */
const pluginDir = (name: string): string => join(base.dir, name);

beforeAll(async () => {
  assertBuilt('plugin/bundle', 'sim');
  base = tempDir('nrc-examples-');
  for (const name of ['cpu-pinner', 'env-injector', 'memory-limit-validator']) {
    mkdirSync(pluginDir(name));
    const r = await cli([
      'plugin',
      'bundle',
      join(EXAMPLES, name, 'index.ts'),
      '--out',
      join(pluginDir(name), `10-${name}`),
    ]);
    if (r.code !== 0) throw new Error(`bundling ${name}: ${r.stderr}`);
  }
}, 120_000);

afterAll(() => base?.cleanup());

describe('example plugins pass their expectation files', () => {
  it('cpu-pinner: pins what the pod annotation asks, leaves the rest, fails a bad cpuset', async () => {
    const r = await runCli([
      'sim',
      '--plugin-dir',
      pluginDir('cpu-pinner'),
      '--expect',
      join(EXAMPLES, 'cpu-pinner', 'expect.yaml'),
    ]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('expectations: 5 passed, 0 failed');
  }, 60_000);

  it('env-injector: injects what its conf.d file says, in the namespaces it names', async () => {
    const r = await runCli([
      'sim',
      '--plugin-dir',
      pluginDir('env-injector'),
      '--conf-dir',
      join(EXAMPLES, 'env-injector', 'conf.d'),
      '--expect',
      join(EXAMPLES, 'env-injector', 'expect.yaml'),
    ]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('expectations: 3 passed, 0 failed');
  }, 60_000);

  it('env-injector without its configuration fails the same expectations (the file is really read)', async () => {
    const r = await runCli([
      'sim',
      '--plugin-dir',
      pluginDir('env-injector'),
      '--expect',
      join(EXAMPLES, 'env-injector', 'expect.yaml'),
    ]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(
      'env.TZ: expected "UTC", actual "Europe/Paris" (not set by any plugin: from the scenario)',
    );
  }, 60_000);

  it('memory-limit-validator: a container without a memory limit is refused (NRI v0.10+)', async () => {
    const r = await runCli([
      'sim',
      '--plugin-dir',
      pluginDir('memory-limit-validator'),
      '--expect',
      join(EXAMPLES, 'memory-limit-validator', 'expect.yaml'),
      '-o',
      'json',
    ]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const events = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; plugin?: string; container?: string; ok?: boolean });
    expect(events.find((e) => e.type === 'rejected')).toMatchObject({
      plugin: '10-memory-limit-validator',
      container: 'ctr-unlimited',
    });
    expect(events.filter((e) => e.type === 'expectation').every((e) => e.ok)).toBe(true);
  }, 60_000);

  it('memory-limit-validator on a v0.9 runtime (no validation): the expectation of a refusal fails', async () => {
    const r = await runCli([
      'sim',
      '--nri-version',
      'v0.9.0',
      '--plugin-dir',
      pluginDir('memory-limit-validator'),
      '--expect',
      join(EXAMPLES, 'memory-limit-validator', 'expect.yaml'),
    ]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('step: expected failed, actual succeeded');
  }, 60_000);
});

describe('a deliberately wrong expectation', () => {
  it("cpu-pinner's expect-wrong.yaml (shown in the README) fails, naming the plugin or the scenario behind each actual value", async () => {
    const r = await runCli([
      'sim',
      '--plugin-dir',
      pluginDir('cpu-pinner'),
      '--expect',
      join(EXAMPLES, 'cpu-pinner', 'expect-wrong.yaml'),
    ]);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    const report = r.stdout.slice(r.stdout.indexOf('FAIL after step'));
    expect(report).toBe(
      [
        'FAIL after step 1 (create ctr-batch): container ctr-batch resources',
        '  resources.cpus: expected "2-4", actual "2-3" (set by 10-cpu-pinner)',
        'FAIL after step 2 (create ctr-web): container ctr-web resources',
        '  resources.cpus: expected "4,6", actual "0-7" (not set by any plugin: from the scenario)',
        'expectations: 0 passed, 2 failed',
        '',
      ].join('\n'),
    );
  }, 60_000);

  it('fails with exit 1 and a diff naming the plugin that set the actual value, in text and JUnit', async () => {
    const wrong = join(base.dir, 'wrong.yaml');
    writeFileSync(
      wrong,
      `scenario: ${join(EXAMPLES, 'env-injector', 'scenario.yaml')}\nexpect:\n  - after: create ctr-checkout\n    env: {TZ: Europe/Berlin}\n    annotations: {example.com/injected-by: someone-else}\n  - after: 2\n    result: failed\n`,
    );
    const args = [
      'sim',
      '--plugin-dir',
      pluginDir('env-injector'),
      '--conf-dir',
      join(EXAMPLES, 'env-injector', 'conf.d'),
      '--expect',
      wrong,
    ];
    const r = await runCli(args);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('FAIL after step 1 (create ctr-checkout): container ctr-checkout env, annotations');
    expect(r.stdout).toContain('  env.TZ: expected "Europe/Berlin", actual "UTC" (set by 10-env-injector)');
    expect(r.stdout).toContain(
      '  annotations.example.com/injected-by: expected "someone-else", actual "env-injector" (set by 10-env-injector)',
    );
    expect(r.stdout).toContain('FAIL after step 2 (create ctr-dns): step failed');
    expect(r.stdout).toContain('expectations: 0 passed, 2 failed');
    expect(r.stderr).toContain('2 expectation(s) of');

    const j = await runCli([...args, '-o', 'junit']);
    expect(j.code).toBe(1);
    expect(j.stdout.startsWith('<?xml')).toBe(true);
    expect(j.stdout).toContain('<testsuites tests="2" failures="2">');
    expect(j.stdout).toContain(
      'env.TZ: expected &quot;Europe/Berlin&quot;, actual &quot;UTC&quot; (set by 10-env-injector)',
    );
  }, 60_000);

  it('a conflict between two named plugins is an expectation that can hold, and one that fails names who conflicted', async () => {
    const two = join(base.dir, 'two');
    mkdirSync(two);
    for (const n of ['10-env-injector', '20-env-injector'])
      copyFileSync(join(pluginDir('env-injector'), '10-env-injector'), join(two, n));
    for (const n of ['10-env-injector', '20-env-injector']) chmodSync(join(two, n), 0o755);
    const file = join(base.dir, 'conflict.yaml');
    const scenario = join(EXAMPLES, 'env-injector', 'scenario.yaml');
    writeFileSync(
      file,
      `scenario: ${scenario}\nexpect:\n  - after: create ctr-checkout\n    result: failed\n    conflict: [20-env-injector, 10-env-injector]\n`,
    );
    const conf = ['--conf-dir', join(EXAMPLES, 'env-injector', 'conf.d')];
    const r = await runCli(['sim', '--plugin-dir', two, ...conf, '--expect', file]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain(
      'PASS after step 1 (create ctr-checkout): conflict between 10-env-injector and 20-env-injector',
    );

    writeFileSync(
      file,
      `scenario: ${scenario}\nexpect:\n  - after: create ctr-checkout\n    conflict: [10-env-injector, 30-other]\n`,
    );
    const bad = await runCli(['sim', '--plugin-dir', two, ...conf, '--expect', file]);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain(
      'conflict: expected between 10-env-injector and 30-other, actual between 10-env-injector and 20-env-injector',
    );
  }, 60_000);
});
