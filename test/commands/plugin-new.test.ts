// `nrictl plugin new` on its own: what it writes, and what it refuses. The project's
// `npm install && npm test` from a packed tarball is in test/pack/plugin-author.test.ts.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Ajv } from 'ajv';
import { afterEach, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { BIN, assertBuilt, runCli, tempDir } from './nri-cli.js';

/** The built CLI from another directory, where relative paths are the user's. */
function runIn(cwd: string, args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const dirs: Array<{ cleanup(): void }> = [];
afterEach(() => dirs.splice(0).forEach((d) => d.cleanup()));
function temp(): string {
  const t = tempDir('nrc-new-');
  dirs.push(t);
  return t.dir;
}

describe('nrictl plugin new', () => {
  assertBuilt('plugin/new');

  it('writes the whole project, depending on the nrictl path given (from the current directory), and nothing else', async () => {
    const base = temp();
    const dir = join(base, 'demo');
    writeFileSync(join(base, 'x.tgz'), '');
    const r = await runCli(['plugin', 'new', 'demo', '--dir', dir, '--nrictl', `file:${join(base, 'x.tgz')}`]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(
      `Created demo in ${dir}, depending on nrictl at ../x.tgz. Next:\n  cd ${dir} && npm install && npm test\n  npm run bundle    # build/10-demo; to deploy it, see README.md\n`,
    );
    const files = (d: string, pre = ''): string[] =>
      readdirSync(d, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? files(join(d, e.name), `${pre}${e.name}/`) : [`${pre}${e.name}`],
      );
    expect(files(dir).sort()).toEqual([
      '.dockerignore',
      '.gitignore',
      'Containerfile',
      'README.md',
      'deploy/daemonset.yaml',
      'package.json',
      'src/index.ts',
      'test/expect.yaml',
      'test/plugin.test.mjs',
      'test/scenario.yaml',
      'tsconfig.json',
    ]);
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    // package.json's file: is the project's, relative to it.
    expect(pkg.dependencies).toEqual({ nrictl: 'file:../x.tgz' });
    expect(pkg.devDependencies.typescript).toBe(
      JSON.parse(readFileSync('package.json', 'utf8')).devDependencies.typescript,
    );
    expect(readFileSync(join(dir, 'src/index.ts'), 'utf8')).toContain("from 'nrictl/plugin'");
    // The user's umask, not mkdtemp's 0700.
    expect(statSync(dir).mode & 0o077).not.toBe(0);
    // Nothing staged left beside it.
    expect(readdirSync(join(dir, '..')).sort()).toEqual(['demo', 'x.tgz']);
  });

  // One `plugin new` packs the running nrictl (npm pack, some 4 CPU-s): its report in
  // -o json, and -o yaml's of a project without a copy. The text report of a copy is held
  // exactly by test/pack/plugin-author.test.ts, and the README's tour shows it.
  it('by default depends on a packed copy of the running nrictl in its own vendor/, the build as it is; -o json and -o yaml say what was written', async () => {
    const base = temp();
    const dir = join(base, 'pinner');
    const r = await runCli(['plugin', 'new', 'pinner', '--dir', dir, '--index', '20', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const version = JSON.parse(readFileSync('package.json', 'utf8')).version;
    const tgz = `vendor/nrictl-${version}.tgz`;
    const doc = JSON.parse(r.stdout) as { files: string[]; nrictl: string };
    expect(doc).toMatchObject({ dir, name: 'pinner', index: '20', nrictl: `file:${tgz}`, nrictlFrom: 'vendored' });
    expect(doc.files).toContain(tgz);
    for (const f of doc.files) expect(existsSync(join(dir, f)), f).toBe(true);
    expect(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).dependencies.nrictl).toBe(`file:${tgz}`);
    // The checkout's own build, not rebuilt (no prepack ran): the same SDK bytes.
    const listed = spawnSync('tar', ['-tzf', join(dir, tgz)], { encoding: 'utf8' });
    expect(listed.status).toBe(0);
    const packed = listed.stdout.split('\n');
    for (const f of ['package/package.json', 'package/bin/run.js', 'package/dist/src/plugin/index.js'])
      expect(packed, f).toContain(f);
    const sdk = spawnSync('tar', ['-xzOf', join(dir, tgz), 'package/dist/src/plugin/stub.js'], {
      encoding: 'utf8',
    });
    expect(sdk.stdout).toBe(readFileSync('dist/src/plugin/stub.js', 'utf8'));
    expect(readFileSync(join(dir, 'README.md'), 'utf8')).toContain(`\`${tgz}\`: the nrictl this project`);

    const y = await runCli(['plugin', 'new', 'other', '--dir', join(base, 'other'), '-o', 'yaml', '--nrictl', '1.2.3']);
    expect(y.code, y.stderr).toBe(0);
    expect(YAML.parse(y.stdout)).toMatchObject({
      name: 'other',
      index: '10',
      nrictl: '1.2.3',
      nrictlFrom: 'registry',
      files: doc.files.filter((f) => !f.startsWith('vendor/')),
    });
  });

  it('--nrictl: a registry version as it is, a path made relative to the project, a missing path refused', async () => {
    const base = temp();
    const reg = await runCli(['plugin', 'new', 'reg', '--dir', join(base, 'reg'), '--nrictl', '^0.1.0']);
    expect(reg.code, reg.stderr).toBe(0);
    expect(reg.stdout).toContain('depending on nrictl ^0.1.0 from the npm registry. Next:');
    expect(JSON.parse(readFileSync(join(base, 'reg', 'package.json'), 'utf8')).dependencies.nrictl).toBe('^0.1.0');
    expect(existsSync(join(base, 'reg', 'vendor'))).toBe(false);

    // A relative path is the user's, from where they ran the command.
    mkdirSync(join(base, 'pkgs'));
    writeFileSync(join(base, 'pkgs', 'nrictl-9.9.9.tgz'), '');
    const rel = runIn(base, ['plugin', 'new', 'rel', '--dir', 'sub/rel', '--nrictl', './pkgs/nrictl-9.9.9.tgz']);
    expect(rel.code, rel.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(base, 'sub', 'rel', 'package.json'), 'utf8')).dependencies.nrictl).toBe(
      `file:${relative(join(base, 'sub', 'rel'), join(base, 'pkgs', 'nrictl-9.9.9.tgz'))}`,
    );

    const missing = runIn(base, ['plugin', 'new', 'gone', '--nrictl', './nope.tgz']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(
      `Error: --nrictl ./nope.tgz: ${join(base, 'nope.tgz')} does not exist; give a packed nrictl (nrictl-VERSION.tgz) or nrictl's package directory, relative to the current directory, or a registry version\n`,
    );
    expect(existsSync(join(base, 'gone'))).toBe(false);
  });

  it('holds a Containerfile and a DaemonSet that run the bundle as an external plugin on the NRI socket, and the plugin-directory route', async () => {
    const dir = join(temp(), 'demo');
    const r = await runCli(['plugin', 'new', 'demo', '--dir', dir, '--index', '20', '--nrictl', '^0.1.0']);
    expect(r.code, r.stderr).toBe(0);
    const containerfile = readFileSync(join(dir, 'Containerfile'), 'utf8');
    const lines = containerfile.split('\n').filter((l) => l.trim() && !l.startsWith('#'));
    expect(lines).toEqual([
      'FROM docker.io/library/node:20-slim',
      'COPY build/20-demo /usr/local/bin/20-demo',
      'ENTRYPOINT ["/usr/local/bin/20-demo", "--socket", "/var/run/nri/nri.sock"]',
    ]);
    // The build context is the bundle, not node_modules.
    expect(readFileSync(join(dir, '.dockerignore'), 'utf8')).toBe('*\n!build/\n');

    const ds = YAML.parse(readFileSync(join(dir, 'deploy', 'daemonset.yaml'), 'utf8'));
    const schema = JSON.parse(readFileSync('test/deploy/k8s-subset.schema.json', 'utf8')) as object;
    const validate = new Ajv({ allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true }).compile(
      schema,
    );
    expect(validate(ds) ? [] : validate.errors).toEqual([]);
    expect(ds.kind).toBe('DaemonSet');
    const pod = ds.spec.template.spec;
    expect(ds.spec.template.metadata.labels).toMatchObject(ds.spec.selector.matchLabels);
    expect(pod.tolerations).toContainEqual({ operator: 'Exists' });
    // The socket's directory from the host, mounted where the plugin dials it; nothing else of the host.
    expect(pod.volumes).toEqual([{ name: 'nri-socket-dir', hostPath: { path: '/var/run/nri', type: 'Directory' } }]);
    const [c] = pod.containers;
    expect(c.volumeMounts).toEqual([{ name: 'nri-socket-dir', mountPath: '/var/run/nri' }]);
    expect(c.image).toBe('demo:0.1.0');
    expect(c.securityContext).toMatchObject({
      privileged: false,
      allowPrivilegeEscalation: false,
      capabilities: { drop: ['ALL'] },
    });

    const readme = readFileSync(join(dir, 'README.md'), 'utf8');
    expect(readme).toContain('install -m 0755 -o root -g root build/20-demo /opt/nri/plugins/20-demo');
    expect(readme).toContain('/etc/nri/conf.d/20-demo.conf');
    expect(readme).toContain('/etc/nri/conf.d/demo.conf');
    expect(readme).toContain('systemctl restart containerd');
    expect(readme).toContain('kubectl apply -f deploy/daemonset.yaml');
    expect(readme).toContain('`node` 20.19 or newer');
    expect(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).engines).toEqual({ node: '>=20.19.0' });
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
    const ok = await runCli(['plugin', 'new', '9p', '--dir', join(base, '9p'), '--nrictl', '^0.1.0']);
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
});
