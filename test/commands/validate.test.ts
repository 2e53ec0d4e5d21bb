import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir, writeElf } from '../checks/helpers.js';
import { nrictl } from './nrictl.js';

let t: ReturnType<typeof tempDir>;
let plugins: string;
let conf: string;
beforeAll(() => {
  t = tempDir('nrivc-');
  plugins = join(t.dir, 'plugins');
  conf = join(t.dir, 'conf.d');
  mkdirSync(plugins);
  mkdirSync(conf);
  writeElf(join(plugins, '20-b'));
  writeElf(join(plugins, '10-a'));
  writeFileSync(join(conf, '10-a.conf'), 'x: 1\n');
});
afterAll(() => t.cleanup());

describe('nrictl validate', () => {
  it('prints the invocation order and exits 0 on a clean directory', async () => {
    const r = await nrictl('validate', plugins, '--conf-dir', conf);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/1\. 10-a\s+config: .*10-a\.conf/);
    expect(r.stdout).toMatch(/2\. 20-b\s+config: no configuration/);
  });

  it('exits 1 with a misnamed executable and reports it as JSON', async () => {
    const dir = join(t.dir, 'bad');
    mkdirSync(dir);
    writeElf(join(dir, 'plugin'));
    symlinkSync('/nonexistent', join(dir, '30-gone'));
    const r = await nrictl('validate', dir, '--conf-dir', conf, '-o', 'json');
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout);
    expect(out.findings.map((f: { code: string }) => f.code).sort()).toEqual([
      'dangling-symlink',
      'misnamed-executable',
    ]);
    expect(out.discoveryFails).toBe(true);
  });

  it('exits 3 for warnings only under --strict, 0 without', async () => {
    const dir = join(t.dir, 'warn');
    mkdirSync(dir);
    writeElf(join(dir, '10-x'), 0o644);
    expect((await nrictl('validate', dir, '--conf-dir', conf)).code).toBe(0);
    expect((await nrictl('validate', dir, '--conf-dir', conf, '--strict')).code).toBe(3);
  });

  it('takes the plugin path from --runtime-config', async () => {
    const cfg = join(t.dir, 'config.toml');
    writeFileSync(
      cfg,
      `version = 2\n[plugins."io.containerd.nri.v1.nri"]\n  plugin_path = "${plugins}"\n  plugin_config_path = "${conf}"\n`,
    );
    const r = await nrictl('validate', '--runtime-config', cfg, '-o', 'json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).order.map((p: { file: string }) => p.file)).toEqual(['10-a', '20-b']);
  });

  it('exits 2 with one line for a directory that does not exist', async () => {
    const r = await nrictl('validate', join(t.dir, 'missing'));
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('does not exist');
  });
});
