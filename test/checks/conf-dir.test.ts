import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkConfDir, CheckPathError } from '../../src/checks/index.js';
import { CONFIG_SIZE_MAX, TTRPC_MESSAGE_LIMIT } from '../../src/checks/conf-dir.js';
import { MESSAGE_LENGTH_MAX } from '../../src/ttrpc/frame.js';
import { codesOf, NOT_ROOT_HOW, notRootOwned, pluginAndConfDirs, tempDir, writeElf } from './helpers.js';

let t: ReturnType<typeof tempDir>;
let plugins: string;
let conf: string;
beforeEach(() => {
  t = tempDir();
  ({ plugins, conf } = pluginAndConfDirs(t.dir));
  writeElf(join(plugins, '10-alpha'));
  writeElf(join(plugins, '20-beta'));
});
afterEach(() => t.cleanup());

const c = (name: string) => join(conf, name);
const lint = (opts = {}) => checkConfDir(conf, plugins, { checkOwner: false, ...opts });

describe('checkConfDir', () => {
  it('maps files to plugins: NN-name.conf wins, name.conf is then shadowed; orphans and non-.conf files', () => {
    writeFileSync(c('10-alpha.conf'), 'a: 1\n');
    writeFileSync(c('alpha.conf'), 'a: 2\n');
    writeFileSync(c('beta.conf'), '{"b": 1}');
    writeFileSync(c('99-gone.conf'), 'x: 1\n');
    writeFileSync(c('notes.txt'), 'x');
    const r = lint();
    expect(codesOf(r.findings, c('10-alpha.conf'))).toEqual(['info:config-used']);
    expect(codesOf(r.findings, c('alpha.conf'))).toEqual(['warning:config-shadowed']);
    expect(codesOf(r.findings, c('beta.conf'))).toEqual(['info:config-used', 'info:isulad-ignores-unindexed-config']);
    expect(codesOf(r.findings, c('99-gone.conf'))).toEqual(['warning:config-orphan']);
    expect(codesOf(r.findings, c('notes.txt'))).toEqual(['info:not-a-conf-file']);
    expect(r.files.find((f) => f.file === 'beta.conf')!.usedBy).toEqual(['20-beta']);
    expect(codesOf(lint({ runtime: 'isulad' }).findings, c('beta.conf'))).toContain(
      'warning:isulad-ignores-unindexed-config',
    );
  });

  it('errors on an unreadable file a plugin uses (the runtime fails discovery)', () => {
    mkdirSync(c('10-alpha.conf'));
    expect(codesOf(lint().findings, c('10-alpha.conf'))).toEqual(['error:config-unreadable']);
  });

  it('warns on a dangling link (treated as absent: the runtime falls back to name.conf)', () => {
    symlinkSync(join(t.dir, 'missing'), c('10-alpha.conf'));
    writeFileSync(c('alpha.conf'), 'a: 1\n');
    const r = lint();
    expect(codesOf(r.findings, c('10-alpha.conf'))).toEqual(['warning:dangling-config-link']);
    expect(codesOf(r.findings, c('alpha.conf'))).toEqual(['info:config-used', 'info:isulad-ignores-unindexed-config']);
  });

  it('warns on text that is neither YAML nor JSON, and on files others can write', () => {
    writeFileSync(c('10-alpha.conf'), 'key: [unclosed\n');
    writeFileSync(c('20-beta.conf'), 'ok: true\n');
    chmodSync(c('20-beta.conf'), 0o666);
    const r = lint();
    expect(codesOf(r.findings, c('10-alpha.conf'))).toEqual(['info:config-used', 'warning:config-not-yaml']);
    expect(codesOf(r.findings, c('20-beta.conf'))).toEqual(['info:config-used', 'warning:config-writable-by-others']);
  });

  it('notes a missing plugin directory: every file is then an orphan', () => {
    writeFileSync(c('10-alpha.conf'), '');
    const r = checkConfDir(conf, join(t.dir, 'none'), { checkOwner: false });
    expect(codesOf(r.findings)).toEqual(['info:plugin-dir-missing', 'warning:config-orphan']);
  });

  it(`flags configuration not owned by root (${NOT_ROOT_HOW})`, () => {
    writeFileSync(c('10-alpha.conf'), '');
    notRootOwned(c('10-alpha.conf'));
    expect(codesOf(checkConfDir(conf, plugins, { checkOwner: true }).findings, c('10-alpha.conf'))).toEqual([
      'info:config-used',
      'warning:config-not-root-owned',
    ]);
    expect(codesOf(lint().findings, c('10-alpha.conf'))).toEqual(['info:config-used']);
  });

  it('throws CheckPathError for a missing directory', () => {
    expect(() => checkConfDir(join(t.dir, 'nope'), plugins)).toThrow(CheckPathError);
  });
});

describe('configuration syntax', () => {
  it('accepts JSON, flags broken JSON and YAML, and leaves files no plugin reads unparsed', () => {
    writeFileSync(c('10-alpha.conf'), '{"cpus": [0, 1], "mode": "strict"}\n');
    writeFileSync(c('20-beta.conf'), '{"cpus": [0, 1,\n');
    writeFileSync(c('orphan.conf'), 'key: [unclosed\n');
    const r = lint();
    expect(codesOf(r.findings, c('10-alpha.conf'))).toEqual(['info:config-used']);
    expect(codesOf(r.findings, c('20-beta.conf'))).toEqual(['info:config-used', 'warning:config-not-yaml']);
    expect(codesOf(r.findings, c('orphan.conf'))).toEqual(['warning:config-orphan']);
  });
});

describe('configuration size', () => {
  it('warns for a configuration a plugin can never receive: over what one ttrpc message carries', () => {
    writeFileSync(c('10-alpha.conf'), Buffer.alloc(CONFIG_SIZE_MAX + 1, 'a'));
    writeFileSync(c('20-beta.conf'), Buffer.alloc(CONFIG_SIZE_MAX, 'b'));
    writeFileSync(c('99-gone.conf'), Buffer.alloc(CONFIG_SIZE_MAX + 1, 'c'));
    const r = lint();
    expect(codesOf(r.findings, c('10-alpha.conf'))).toEqual(['warning:config-too-large']);
    expect(r.findings.find((f) => f.code === 'config-too-large')!.message).toContain(`${CONFIG_SIZE_MAX + 1} bytes`);
    expect(codesOf(r.findings, c('20-beta.conf'))).toEqual(['info:config-used']);
    expect(codesOf(r.findings, c('99-gone.conf'))).toEqual(['warning:config-orphan']); // never sent at all
  });

  it('takes the limit from ttrpc: 4 MiB for the whole message', () => {
    expect(TTRPC_MESSAGE_LIMIT).toBe(MESSAGE_LENGTH_MAX);
    expect(CONFIG_SIZE_MAX).toBeLessThan(MESSAGE_LENGTH_MAX);
  });
});
