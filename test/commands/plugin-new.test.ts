// `nrictl plugin new` on its own: what it writes, and what it refuses. The project's
// `npm install && npm test` from a packed tarball is in test/pack/plugin-author.test.ts.
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { assertBuilt, runCli, tempDir } from './nri-cli.js';

const dirs: Array<{ cleanup(): void }> = [];
afterEach(() => dirs.splice(0).forEach((d) => d.cleanup()));
function temp(): string {
  const t = tempDir('nrc-new-');
  dirs.push(t);
  return t.dir;
}

describe('nrictl plugin new', () => {
  assertBuilt('plugin/new');

  it('writes the whole project, depending on the nrictl spec given, and nothing else', async () => {
    const dir = join(temp(), 'demo');
    const r = await runCli(['plugin', 'new', 'demo', '--dir', dir, '--nrictl', 'file:/tmp/x.tgz']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('npm install && npm test');
    const files = (d: string, pre = ''): string[] =>
      readdirSync(d, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? files(join(d, e.name), `${pre}${e.name}/`) : [`${pre}${e.name}`],
      );
    expect(files(dir).sort()).toEqual([
      '.gitignore',
      'README.md',
      'package.json',
      'src/index.ts',
      'test/expect.yaml',
      'test/plugin.test.mjs',
      'test/scenario.yaml',
      'tsconfig.json',
    ]);
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    expect(pkg.dependencies).toEqual({ nrictl: 'file:/tmp/x.tgz' });
    expect(pkg.devDependencies.typescript).toBe(
      JSON.parse(readFileSync('package.json', 'utf8')).devDependencies.typescript,
    );
    expect(readFileSync(join(dir, 'src/index.ts'), 'utf8')).toContain("from 'nrictl/plugin'");
    // The user's umask, not mkdtemp's 0700.
    expect(statSync(dir).mode & 0o077).not.toBe(0);
    // Nothing staged left beside it.
    expect(readdirSync(join(dir, '..'))).toEqual(['demo']);
  });

  it('defaults to ^ the running version', async () => {
    const base = temp();
    const r = await runCli(['plugin', 'new', 'pinner', '--dir', join(base, 'pinner')]);
    expect(r.code, r.stderr).toBe(0);
    const version = JSON.parse(readFileSync('package.json', 'utf8')).version;
    expect(JSON.parse(readFileSync(join(base, 'pinner', 'package.json'), 'utf8')).dependencies.nrictl).toBe(
      `^${version}`,
    );
  });

  it('refuses a bad name and a non-empty directory with exit 2, writing nothing', async () => {
    const base = temp();
    const bad = await runCli(['plugin', 'new', 'Bad Name', '--dir', join(base, 'x')]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/plugin name "Bad Name": use lower-case letters/);
    expect(existsSync(join(base, 'x'))).toBe(false);

    mkdirSync(join(base, 'taken'));
    writeFileSync(join(base, 'taken', 'keep.txt'), 'mine');
    const taken = await runCli(['plugin', 'new', 'taken', '--dir', join(base, 'taken')]);
    expect(taken.code).toBe(2);
    expect(taken.stderr).toContain('already exists and is not empty');
    expect(readdirSync(join(base, 'taken'))).toEqual(['keep.txt']);
    expect(readdirSync(base).sort()).toEqual(['taken']);

    const idx = await runCli(['plugin', 'new', 'ok', '--dir', join(base, 'ok'), '--index', '7']);
    expect(idx.code).toBe(2);
    expect(idx.stderr).toContain('--index 7: expected two digits');
  });

  it('refuses a name that starts with an index, saying where the index goes, and writes nothing', async () => {
    const base = temp();
    const r = await runCli(['plugin', 'new', '10-demo', '--dir', join(base, 'x')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'Error: plugin name "10-demo" starts with an index: give the name alone ("demo") and the index with --index 10 (the bundle is named 10-demo)\n',
    );
    expect(readdirSync(base)).toEqual([]);
    // Digits that are no index are a name like any other.
    const ok = await runCli(['plugin', 'new', '9p', '--dir', join(base, '9p')]);
    expect(ok.code, ok.stderr).toBe(0);
  });

  it('a missing name is one line that says what NAME is, exit 2', async () => {
    const r = await runCli(['plugin', 'new']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      "Error: missing NAME, the plugin's name, such as demo: lower-case letters, digits, '.', '_' and '-', not starting with an index; it also names the npm package\n",
    );
  });

  it('-o json and -o yaml: what was written', async () => {
    const base = temp();
    const dir = join(base, 'demo');
    const r = await runCli(['plugin', 'new', 'demo', '--dir', dir, '--index', '20', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as { files: string[] };
    expect(doc).toMatchObject({ dir, name: 'demo', index: '20', nrictl: expect.stringMatching(/^\^\d/) });
    for (const f of doc.files) expect(existsSync(join(dir, f)), f).toBe(true);
    const y = await runCli(['plugin', 'new', 'other', '--dir', join(base, 'other'), '-o', 'yaml']);
    expect(y.code, y.stderr).toBe(0);
    expect(YAML.parse(y.stdout)).toMatchObject({ name: 'other', index: '10', files: doc.files });
  });
});
