import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chmod, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AtomicWriteError, writeFileAtomic } from '../../src/output/atomic-write.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'nrictl-aw-'));
});
afterEach(async () => {
  await chmod(dir, 0o700).catch(() => {});
  await rm(dir, { recursive: true, force: true });
});

describe('writeFileAtomic', () => {
  it('writes strings, bytes and chunk streams, leaving no temporary file', async () => {
    const target = join(dir, 'dump.json');
    await writeFileAtomic(target, '{"a":1}\n');
    expect(await readFile(target, 'utf8')).toBe('{"a":1}\n');
    await writeFileAtomic(target, Buffer.from('bytes'));
    expect(await readFile(target, 'utf8')).toBe('bytes');
    async function* parts() {
      yield 'one,';
      yield Buffer.from('two,');
      yield 'three';
    }
    await writeFileAtomic(target, parts());
    expect(await readFile(target, 'utf8')).toBe('one,two,three');
    expect(await readdir(dir)).toEqual(['dump.json']);
  });
  it('keeps the old content and removes the temp file when producing the content fails', async () => {
    const target = join(dir, 'state.yaml');
    await writeFile(target, 'old\n');
    async function* failing() {
      yield 'half of the new';
      throw new Error('renderer broke');
    }
    const err = await writeFileAtomic(target, failing()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AtomicWriteError);
    expect((err as Error).message).toContain(target);
    expect((err as Error).message).toContain('renderer broke');
    expect(await readFile(target, 'utf8')).toBe('old\n');
    expect(await readdir(dir)).toEqual(['state.yaml']);
  });
  it('fails cleanly when the directory cannot be written', async () => {
    if (process.getuid?.() === 0) {
      // root ignores directory permissions; a missing directory fails the same way
      const err = await writeFileAtomic(join(dir, 'missing', 'x'), 'data').catch((e: unknown) => e);
      expect(err).toBeInstanceOf(AtomicWriteError);
      expect((err as Error).message).toMatch(/create temporary file.*ENOENT/);
      return;
    }
    await chmod(dir, 0o500);
    const err = await writeFileAtomic(join(dir, 'x'), 'data').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AtomicWriteError);
    expect((err as Error).message).toMatch(/EACCES/);
  });
  it('keeps the mode of the file it replaces', async () => {
    const target = join(dir, 'secret.json');
    await writeFile(target, 'x');
    await chmod(target, 0o600);
    await writeFileAtomic(target, 'y');
    expect((await stat(target)).mode & 0o777).toBe(0o600);
    await writeFileAtomic(join(dir, 'exec'), 'z', { mode: 0o640 });
    expect((await stat(join(dir, 'exec'))).mode & 0o777).toBe(0o640);
  });
  it('readers never see a partial file while a large one is written', async () => {
    const target = join(dir, 'big.txt');
    const old = 'o'.repeat(1000);
    await writeFile(target, old);
    const next = 'n'.repeat(4 << 20);
    let reads = 0;
    let done = false;
    const writing = writeFileAtomic(
      target,
      (function* () {
        for (let i = 0; i < 64; i++) yield next.slice(i * 65536, (i + 1) * 65536);
      })(),
    ).finally(() => {
      done = true;
    });
    while (!done) {
      const seen = await readFile(target, 'utf8');
      expect(seen === old || seen === next).toBe(true);
      reads++;
    }
    await writing;
    expect(reads).toBeGreaterThan(0);
    expect(await readFile(target, 'utf8')).toBe(next);
  });
});

describe('writeFileAtomic through symlinks', () => {
  it('writes the end of a chain of links, beside it, and leaves the links as they were', async () => {
    const { mkdir, symlink, lstat, readlink } = await import('node:fs/promises');
    await mkdir(join(dir, 'data'));
    const target = join(dir, 'data', 'state.json');
    await writeFile(target, 'old');
    await symlink('data/state.json', join(dir, 'hop.json'));
    await symlink(join(dir, 'hop.json'), join(dir, 'link.json'));
    await writeFileAtomic(join(dir, 'link.json'), 'new');
    expect(await readFile(target, 'utf8')).toBe('new');
    expect((await lstat(join(dir, 'link.json'))).isSymbolicLink()).toBe(true);
    expect(await readlink(join(dir, 'hop.json'))).toBe('data/state.json');
    expect((await readdir(join(dir, 'data'))).sort()).toEqual(['state.json']);
  });
  it('refuses a loop of links with one line and writes nothing', async () => {
    const { symlink } = await import('node:fs/promises');
    await symlink('b', join(dir, 'a'));
    await symlink('a', join(dir, 'b'));
    const err = await writeFileAtomic(join(dir, 'a'), 'x').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AtomicWriteError);
    expect((err as Error).message).toMatch(/could not write .*\/a \(follow symlink\): .*ELOOP/);
    expect((await readdir(dir)).sort()).toEqual(['a', 'b']);
  });
});
