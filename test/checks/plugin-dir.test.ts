import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkPluginDir, CheckPathError } from '../../src/checks/index.js';
import {
  codesOf,
  listenSocket,
  mkfifo,
  NOT_ROOT_HOW,
  notRootOwned,
  pluginAndConfDirs,
  tempDir,
  writeElf,
  writeScript,
} from './helpers.js';

let t: ReturnType<typeof tempDir>;
let plugins: string;
let conf: string;
beforeEach(() => {
  t = tempDir();
  ({ plugins, conf } = pluginAndConfDirs(t.dir));
});
afterEach(() => t.cleanup());

const check = (opts: Parameters<typeof checkPluginDir>[1] = {}) =>
  checkPluginDir(plugins, { confDir: conf, checkOwner: false, ...opts });
const at = (name: string) => join(plugins, name);

describe('checkPluginDir: one case per row of the runtime discovery table', () => {
  it('launches a well-named executable ELF and passes it NN-name.conf in preference to name.conf', () => {
    writeElf(at('10-alpha'));
    writeFileSync(join(conf, '10-alpha.conf'), 'a: 1\n');
    writeFileSync(join(conf, 'alpha.conf'), 'a: 2\n');
    const r = check();
    expect(codesOf(r.findings)).toEqual([]);
    expect(r.order.map((p) => [p.index, p.name, p.config, p.launches])).toEqual([
      ['10', 'alpha', join(conf, '10-alpha.conf'), true],
    ]);
    expect(r.discoveryFails).toBe(false);
  });

  it('falls back to name.conf, and notes that iSulad reads only NN-name.conf', () => {
    writeElf(at('10-alpha'));
    writeFileSync(join(conf, 'alpha.conf'), 'a: 2\n');
    const r = check();
    expect(r.order[0].config).toBe(join(conf, 'alpha.conf'));
    expect(codesOf(r.findings)).toEqual(['info:isulad-config-missing']);
    expect(codesOf(check({ runtime: 'isulad' }).findings)).toEqual(['warning:isulad-config-missing']);
  });

  it('skips a directory silently', () => {
    mkdirSync(at('10-dir'));
    expect(codesOf(check().findings)).toEqual(['info:directory-skipped']);
  });

  it('skips files without execute bits silently, warning when the name looks like a plugin', () => {
    writeElf(at('10-noexec'), 0o644);
    writeFileSync(at('README'), 'hi');
    const r = check();
    expect(codesOf(r.findings, at('10-noexec'))).toEqual(['warning:not-executable']);
    expect(codesOf(r.findings, at('README'))).toEqual(['info:ignored-entry']);
    expect(r.order).toEqual([]);
  });

  it('fails discovery for an executable with a bad name (Go); iSulad only skips it', () => {
    writeElf(at('10-good'));
    writeElf(at('plugin'));
    writeElf(at('1-short'));
    writeElf(at('ab-letters'));
    writeFileSync(join(conf, '10-good.conf'), '');
    const r = check();
    expect(codesOf(r.findings)).toEqual([
      'error:misnamed-executable',
      'error:misnamed-executable',
      'error:misnamed-executable',
    ]);
    expect(r.findings.find((f) => f.path === at('plugin'))!.message).toContain('idx-pluginname expected');
    expect(r.discoveryFails).toBe(true);
    const isulad = check({ runtime: 'isulad' });
    expect(codesOf(isulad.findings)).toEqual([
      'warning:misnamed-executable',
      'warning:misnamed-executable',
      'warning:misnamed-executable',
    ]);
    expect(isulad.discoveryFails).toBe(false);
  });

  it('counts a misnamed symlink as executable even when its target is not (lstat mode 0777)', () => {
    writeFileSync(join(t.dir, 'notes.txt'), 'x');
    symlinkSync(join(t.dir, 'notes.txt'), at('notes'));
    expect(codesOf(check().findings)).toEqual(['error:misnamed-executable']);
  });

  it('launches through a symlink to an executable and names the target', () => {
    writeElf(join(t.dir, 'bin'));
    symlinkSync(join(t.dir, 'bin'), at('20-linked'));
    const r = check();
    expect(codesOf(r.findings)).toEqual(['info:symlink']);
    expect(r.order[0]).toMatchObject({ name: 'linked', linkTarget: join(t.dir, 'bin'), launches: true });
  });

  it('reports a dangling symlink: exec fails (Go), skipped by iSulad', () => {
    symlinkSync(join(t.dir, 'missing'), at('20-gone'));
    const r = check();
    expect(codesOf(r.findings)).toEqual(['error:dangling-symlink']);
    expect(r.order[0].launches).toBe(false);
    expect(codesOf(check({ runtime: 'isulad' }).findings)).toEqual([
      'warning:dangling-symlink',
      'warning:isulad-config-missing',
    ]);
  });

  it('reports a symlink to a directory (not skipped by the Go runtime, which checks the entry itself)', () => {
    mkdirSync(join(t.dir, 'adir'));
    symlinkSync(join(t.dir, 'adir'), at('30-dirlink'));
    expect(codesOf(check().findings)).toEqual(['error:symlink-to-directory']);
  });

  it('reports a symlink to a file without execute bits', () => {
    writeElf(join(t.dir, 'plain'), 0o644);
    symlinkSync(join(t.dir, 'plain'), at('30-plain'));
    expect(codesOf(check().findings)).toEqual(['error:target-not-executable']);
  });

  it('reports fifos and sockets with execute bits, ignores them without', async () => {
    mkfifo(at('40-fifo'), 0o755);
    mkfifo(at('41-quiet'), 0o644);
    const server = await listenSocket(at('42-sock'));
    try {
      chmodSync(at('42-sock'), 0o755);
      const r = check();
      expect(codesOf(r.findings, at('40-fifo'))).toEqual(['error:not-a-regular-file']);
      expect(codesOf(r.findings, at('41-quiet'))).toEqual(['info:ignored-entry']);
      expect(codesOf(r.findings, at('42-sock'))).toEqual(['error:not-a-regular-file']);
    } finally {
      server.close();
    }
  });

  it('notes that iSulad requires the owner execute bit', () => {
    writeElf(at('50-groupexec'), 0o654);
    const r = check();
    expect(codesOf(r.findings)).toEqual(['info:isulad-needs-owner-execute']);
    expect(r.order[0].launches).toBe(true);
    expect(codesOf(check({ runtime: 'isulad' }).findings)).toContain('warning:isulad-needs-owner-execute');
  });

  it('fails discovery when NN-name.conf exists but cannot be read (a directory here)', () => {
    writeElf(at('60-cfg'));
    mkdirSync(join(conf, '60-cfg.conf'));
    const r = check();
    expect(codesOf(r.findings)).toEqual(['error:config-unreadable']);
    expect(r.discoveryFails).toBe(true);
  });

  it('checks that the file runs: scripts need an interpreter, other files an ELF header', () => {
    writeScript(at('70-sh'), '#!/bin/sh');
    writeScript(at('71-nointerp'), '#!/no/such/interpreter');
    writeScript(at('72-envmissing'), '#!/usr/bin/env no-such-command-xyz');
    writeFileSync(at('73-text'), 'just text\n', { mode: 0o755 });
    writeFileSync(at('74-empty'), '', { mode: 0o755 });
    writeFileSync(at('75-wasm'), Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 1]), { mode: 0o755 });
    const r = check();
    expect(codesOf(r.findings, at('70-sh'))).toEqual([]);
    expect(codesOf(r.findings, at('71-nointerp'))).toEqual(['error:missing-interpreter']);
    expect(codesOf(r.findings, at('72-envmissing'))).toEqual(['warning:interpreter-not-on-default-path']);
    expect(codesOf(r.findings, at('73-text'))).toEqual(['error:not-runnable']);
    expect(codesOf(r.findings, at('74-empty'))).toEqual(['error:not-runnable']);
    expect(codesOf(r.findings, at('75-wasm'))).toEqual(['warning:wasm-plugin']);
  });

  it('flags duplicate indexes and names and orders by index as a string sort', () => {
    writeElf(at('90-zeta'));
    writeElf(at('10-beta'));
    writeElf(at('10-alpha'));
    writeElf(at('05-beta'));
    const r = check();
    expect(codesOf(r.findings)).toEqual([
      'warning:duplicate-index',
      'warning:duplicate-index',
      'warning:duplicate-name',
      'warning:duplicate-name',
    ]);
    expect(r.order.map((p) => p.file)).toEqual(['05-beta', '10-alpha', '10-beta', '90-zeta']);
    expect(r.isuladOrder.map((p) => p.name)).toEqual(['alpha', 'beta', 'zeta']);
  });

  it('flags plugins and directories writable by group or others', () => {
    writeElf(at('10-open'), 0o777);
    chmodSync(plugins, 0o777);
    const r = check();
    expect(codesOf(r.findings)).toEqual(['error:plugin-dir-writable-by-others', 'error:plugin-writable-by-others']);
  });

  it(`flags a plugin and a directory not owned by root (${NOT_ROOT_HOW})`, () => {
    writeElf(at('10-mine'));
    notRootOwned(at('10-mine'), plugins);
    const r = checkPluginDir(plugins, { confDir: conf, checkOwner: true });
    // Per path: when not root, the temporary directories above are ours too and are flagged as parents.
    expect(codesOf(r.findings, plugins)).toEqual(['error:plugin-dir-not-root-owned']);
    expect(codesOf(r.findings, at('10-mine'))).toEqual(['error:plugin-not-root-owned']);
    expect(codesOf(check().findings)).toEqual([]);
  });

  it('throws CheckPathError for a missing directory', () => {
    expect(() => checkPluginDir(join(t.dir, 'nope'))).toThrow(CheckPathError);
  });
});
