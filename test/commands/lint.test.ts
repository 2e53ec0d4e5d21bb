import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
  it('lints a configuration directory against --plugin-path', () => {
    const r = nrictl('lint', conf, '--plugin-path', plugins, '-o', 'json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).findings.map((f: { code: string }) => f.code)).toEqual(['config-used']);
    writeFileSync(join(conf, 'orphan.conf'), 'y: 2\n');
    const strict = nrictl('lint', conf, '--plugin-path', plugins, '--strict');
    expect(strict.code).toBe(3);
    expect(strict.stdout).toContain('config-orphan');
  });

  it('lints a CRI-O file and suggests the key that was meant', () => {
    const file = join(t.dir, 'crio.conf');
    writeFileSync(file, '[crio.nri]\nenabled_nri = true\n');
    const r = nrictl('lint', file);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('did you mean "enable_nri"');
  });

  it('exits 1 on errors in iSulad daemon.json', () => {
    const file = join(t.dir, 'daemon.json');
    writeFileSync(file, JSON.stringify({ 'nri-support': true }));
    const r = nrictl('lint', file, '-o', 'json');
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).findings.filter((f: { severity: string }) => f.severity === 'error').map((f: { code: string }) => f.code)).toEqual(['cri-v1-required']);
  });

  it('exits 2 with one line for a path that does not exist', () => {
    const r = nrictl('lint', join(t.dir, 'nope'));
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });
});
