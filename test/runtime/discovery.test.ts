import { chmod, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { discoverPlugins } from '../../src/runtime/adaptation/adaptation-discover.js';
import { DiscoveryError } from '../../src/runtime/adaptation/errors.js';

let root: string;
let plugins: string;
let conf: string;

async function exe(name: string, mode = 0o755): Promise<void> {
  await writeFile(path.join(plugins, name), '#!/bin/sh\nexit 0\n');
  await chmod(path.join(plugins, name), mode);
}

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'nridisc-'));
  plugins = path.join(root, 'plugins');
  conf = path.join(root, 'conf.d');
  await mkdir(plugins);
  await mkdir(conf);
});
afterEach(() => rm(root, { recursive: true, force: true }));

describe('discoverPlugins', () => {
  it('finds executables named NN-name, sorted by index, skipping directories and non-executables', async () => {
    await exe('20-second');
    await exe('10-first');
    await exe('05-only-group-exec', 0o610);
    await exe('README', 0o644); // misnamed but not executable: skipped silently
    await exe('30-not-executable', 0o644);
    await mkdir(path.join(plugins, '40-a-directory'));
    await mkdir(path.join(plugins, 'no-index-dir'));
    const { plugins: found } = await discoverPlugins(plugins, conf);
    expect(found.map((p) => `${p.index}-${p.name}`)).toEqual(['05-only-group-exec', '10-first', '20-second']);
    expect(found[1]).toEqual({ index: '10', name: 'first', path: path.join(plugins, '10-first') });
  });

  it('keeps directory order for equal indices', async () => {
    await exe('10-b');
    await exe('10-a');
    expect((await discoverPlugins(plugins)).plugins.map((p) => p.name)).toEqual(['a', 'b']);
  });

  it('fails as a whole on one misnamed executable, naming it', async () => {
    await exe('10-good');
    await exe('logger');
    const err = await discoverPlugins(plugins, conf).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DiscoveryError);
    expect(err).toMatchObject({ reason: 'bad-name', file: path.join(plugins, 'logger'), pluginPath: plugins });
    expect((err as Error).message).toContain(`failed to discover plugins in ${plugins}`);
    expect((err as Error).message).toContain('idx-pluginname expected');
  });

  it('fails on a three-digit index too', async () => {
    await exe('100-logger');
    await expect(discoverPlugins(plugins)).rejects.toThrow(/must be 2 digits/);
  });

  it('takes symlinks by their own mode, as the Go runtime (lstat), even to a directory or nowhere', async () => {
    await mkdir(path.join(root, 'elsewhere'));
    await symlink(path.join(root, 'elsewhere'), path.join(plugins, '10-linked-dir'));
    await symlink(path.join(root, 'missing'), path.join(plugins, '20-dangling'));
    const { plugins: found } = await discoverPlugins(plugins);
    expect(found.map((p) => p.name)).toEqual(['linked-dir', 'dangling']);
    await symlink(path.join(root, 'missing'), path.join(plugins, 'bad-link'));
    await expect(discoverPlugins(plugins)).rejects.toThrow(DiscoveryError);
  });

  it('a missing plugin directory means no plugins', async () => {
    expect(await discoverPlugins(path.join(root, 'nope'), conf)).toEqual({ plugins: [] });
  });

  it('a plugin path that is a file fails discovery', async () => {
    await writeFile(path.join(root, 'file'), '');
    await expect(discoverPlugins(path.join(root, 'file'))).rejects.toMatchObject({ reason: 'read-dir' });
  });

  it('looks configuration up as NN-name.conf first, then name.conf', async () => {
    await exe('10-first');
    await exe('20-second');
    await exe('30-third');
    await writeFile(path.join(conf, '10-first.conf'), 'specific');
    await writeFile(path.join(conf, 'first.conf'), 'generic');
    await writeFile(path.join(conf, 'second.conf'), 'generic only');
    const { plugins: found } = await discoverPlugins(plugins, conf);
    expect(found[0]).toMatchObject({ config: 'specific', configPath: path.join(conf, '10-first.conf') });
    expect(found[1]).toMatchObject({ config: 'generic only', configPath: path.join(conf, 'second.conf') });
    expect(found[2].config).toBeUndefined();
    expect(found[2].configPath).toBeUndefined();
  });

  it('fails discovery when a configuration exists but cannot be read', async () => {
    await exe('10-first');
    // chmod 000 means nothing to root, which reads anything; a directory in the file's
    // place fails the read (EISDIR) for every user, and it is not "does not exist".
    await mkdir(path.join(conf, '10-first.conf'));
    await writeFile(path.join(conf, 'first.conf'), 'never reached');
    const err = await discoverPlugins(plugins, conf).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DiscoveryError);
    expect(err).toMatchObject({ reason: 'read-config', file: path.join(conf, '10-first.conf') });
    expect((err as Error).message).toMatch(/EISDIR/);
  });

  it.skipIf(process.getuid?.() === 0)(
    'fails discovery on an unreadable (chmod 000) configuration when not root',
    async () => {
      await exe('10-first');
      await writeFile(path.join(conf, 'first.conf'), 'secret');
      await chmod(path.join(conf, 'first.conf'), 0o000);
      await expect(discoverPlugins(plugins, conf)).rejects.toMatchObject({
        reason: 'read-config',
        file: path.join(conf, 'first.conf'),
      });
    },
  );
});
