import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { tempDir, writeElf } from '../checks/helpers.js';
import { nrictl } from './nrictl.js';

let t: ReturnType<typeof tempDir>;
let plugins: string;
let conf: string;
beforeAll(() => {
  t = tempDir('nrilc-');
  plugins = join(t.dir, 'plugins');
  conf = join(t.dir, 'conf.d');
  mkdirSync(plugins);
  mkdirSync(conf);
  writeElf(join(plugins, '10-a'));
  writeFileSync(join(conf, '10-a.conf'), 'x: 1\n');
});
afterAll(() => t.cleanup());

describe('nrictl lint', () => {
  it('lints a configuration directory against --plugin-dir', async () => {
    const r = await nrictl('lint', conf, '--plugin-dir', plugins, '-o', 'json');
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout).findings.map((f: { code: string }) => f.code)).toEqual(['config-used']);
    writeFileSync(join(conf, 'orphan.conf'), 'y: 2\n');
    const strict = await nrictl('lint', conf, '--plugin-dir', plugins, '--strict');
    expect(strict.code).toBe(3);
    expect(strict.stdout).toContain('config-orphan');
  });

  it('the old --plugin-path still works this release, with a one-line warning', async () => {
    const old = await nrictl('lint', conf, '--plugin-path', plugins, '-o', 'json');
    const now = await nrictl('lint', conf, '--plugin-dir', plugins, '-o', 'json');
    expect(old.code).toBe(now.code);
    expect(old.stdout).toBe(now.stdout);
    expect(old.stderr.trim().split('\n')).toEqual([
      'Warning: --plugin-path is deprecated: use --plugin-dir (the old name goes away in the next release)',
    ]);
  });

  it('lints several runtime configs at once (CRI-O and its drop-in), as YAML', async () => {
    const dir = join(t.dir, 'crio');
    mkdirSync(join(dir, 'crio.conf.d'), { recursive: true });
    writeFileSync(join(dir, 'crio.conf'), '[crio.nri]\nenable_nri = false\n');
    writeFileSync(join(dir, 'crio.conf.d', '10-nri.conf'), '[crio.nri]\nenable_nri = true\n');
    const r = await nrictl('lint', join(dir, 'crio.conf'), join(dir, 'crio.conf.d', '10-nri.conf'), '-o', 'yaml');
    expect(r.code).toBe(0);
    const doc = YAML.parse(r.stdout) as { runtimeConfigs: Array<{ file: string; settings: { enabled: boolean } }> };
    expect(doc.runtimeConfigs.map((c) => c.file)).toEqual([
      join(dir, 'crio.conf'),
      join(dir, 'crio.conf.d', '10-nri.conf'),
    ]);
    // The drop-in wins, as in CRI-O.
    expect(doc.runtimeConfigs.at(-1)!.settings.enabled).toBe(true);
  });

  it('lints a CRI-O file and suggests the key that was meant', async () => {
    const file = join(t.dir, 'crio.conf');
    writeFileSync(file, '[crio.nri]\nenabled_nri = true\n');
    const r = await nrictl('lint', file);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('did you mean "enable_nri"');
  });

  it('exits 1 on errors in iSulad daemon.json', async () => {
    const file = join(t.dir, 'daemon.json');
    writeFileSync(file, JSON.stringify({ 'nri-support': true }));
    const r = await nrictl('lint', file, '-o', 'json');
    expect(r.code).toBe(1);
    expect(
      JSON.parse(r.stdout)
        .findings.filter((f: { severity: string }) => f.severity === 'error')
        .map((f: { code: string }) => f.code),
    ).toEqual(['cri-v1-required']);
  });

  it('exits 2 with one line for a path that does not exist', async () => {
    const r = await nrictl('lint', join(t.dir, 'nope'));
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([`Error: ${join(t.dir, 'nope')} does not exist`]);
    const two = await nrictl('lint', join(t.dir, 'nope'), join(t.dir, 'nope2'));
    expect(two.code).toBe(2);
    expect(two.stderr.trim().split('\n')).toEqual([`Error: runtime config ${join(t.dir, 'nope')} does not exist`]);
  });

  it('a JSON syntax error stays on its row: no line break of the file inside a table cell', async () => {
    const file = join(t.dir, 'daemon.json');
    writeFileSync(file, '{\n  "nri-support": true,\n  "a": }\n');
    const r = await nrictl('lint', file);
    expect(r.code).toBe(1);
    const rows = r.stdout.split('\n').filter((l) => l.startsWith('│'));
    // The file's text must not appear, cut into cell lines of its own.
    expect(rows.some((l) => /│\s*"a": }/.test(l))).toBe(false);
    expect(r.stdout).toContain("Unexpected token '}'");
  });

  it('containerd: disable = "false" is one finding (wrong-type), and an invalid timeout is shown as written', async () => {
    const file = join(t.dir, 'config.toml');
    writeFileSync(
      file,
      'version = 2\n[plugins."io.containerd.nri.v1.nri"]\n  disable = "false"\n  plugin_request_timeout = "5x"\n',
    );
    const r = await nrictl('lint', file, '-o', 'json');
    expect(r.code).toBe(1);
    const json = JSON.parse(r.stdout) as {
      findings: Array<{ code: string; message: string }>;
      runtimeConfigs: Array<{ settings: { requestTimeoutMs: number | null; invalid: Record<string, string> } }>;
    };
    expect(json.findings.map((f) => f.code).sort()).toEqual(['nri-settings', 'wrong-type', 'wrong-type']);
    expect(json.runtimeConfigs[0].settings).toMatchObject({
      requestTimeoutMs: null,
      invalid: { enabled: '"false"', requestTimeoutMs: '"5x"' },
    });
    expect(json.findings.find((f) => f.code === 'nri-settings')!.message).toContain('request timeout invalid ("5x")');
  });
});

// Without a path, lint looks at this machine's /etc: only meaningful where no runtime is
// configured (as on a build machine or in CI).
const NODE_HAS_NRI_FILES = [
  '/etc/nri/conf.d',
  '/etc/containerd/config.toml',
  '/etc/crio',
  '/etc/isulad/daemon.json',
  '/etc/docker/daemon.json',
].some((p) => existsSync(p));
describe.skipIf(NODE_HAS_NRI_FILES)(
  `nrictl lint without a path${NODE_HAS_NRI_FILES ? ': skipped, this machine has NRI or runtime configuration in /etc' : ''}`,
  () => {
    it('a node without /etc/nri/conf.d: a conf-dir-missing note and exit 0, as doctor says', async () => {
      const r = await nrictl('lint', '-o', 'json');
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout).findings).toEqual([
        expect.objectContaining({ severity: 'info', path: '/etc/nri/conf.d', code: 'conf-dir-missing' }),
      ]);
      const table = await nrictl('lint', '--strict');
      expect(table.code).toBe(0);
      expect(table.stdout).toContain('Configuration directory /etc/nri/conf.d');
      expect(table.stdout).toContain('0 errors, 0 warnings, 1 note');
    });
  },
);
