import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  statSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, sep } from 'node:path';
import { packedOnce } from './packed.js';
import { fileURLToPath } from 'node:url';

// What a user gets: `npm pack`, `npm install -g` of the tarball into a prefix, then
// `nrictl` from a directory that is not the repository.
//
// The pack runs in a copy of the repository (without node_modules or .git; node_modules
// is a symlink), with the real prepack script: it builds dist/ and the oclif manifest
// (npm run build) unless the copied dist/ is the build of the sources, which must not
// happen in the working tree while other tests run from it. The install resolves the
// dependencies like any user's would, from the npm cache (warm after `npm ci`) or
// the registry. Both happen once per test run, shared with plugin-author.test.ts
// (packed.ts).

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const pkg = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  man: string[];
};

let work: string;
let stage: string;
let prefix: string;
let outside: string;
let tarball: string;
let packed: string[];
let env: NodeJS.ProcessEnv;

function run(cmd: string, args: string[], cwd: string, extraEnv: NodeJS.ProcessEnv = {}): SpawnSyncReturns<string> {
  const r = spawnSync(cmd, args, { cwd, env: { ...env, ...extraEnv }, encoding: 'utf8', timeout: 240_000 });
  if (r.error) throw r.error;
  return r;
}
function ok(r: SpawnSyncReturns<string>, what: string): SpawnSyncReturns<string> {
  if (r.status !== 0) throw new Error(`${what} exited ${r.status}:\n${r.stdout}\n${r.stderr}`);
  return r;
}
const nrictl = (...args: string[]): SpawnSyncReturns<string> => run(join(prefix, 'bin', 'nrictl'), args, outside);

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'nrictl-pack-'));
  outside = join(work, 'elsewhere');
  mkdirSync(outside);
  // Nothing from the developer's own set-up may leak in: no colour, no debug, a
  // private cache for the completion files, no update check of the oclif tool.
  env = { ...process.env, NO_COLOR: '1', XDG_CACHE_HOME: join(work, 'cache'), OCLIF_SKIP_NEW_VERSION_CHECK: 'true' };
  for (const k of Object.keys(env))
    if (k.startsWith('NRICTL_') || k.startsWith('NRI_') || k.startsWith('npm_') || k === 'NODE_ENV') delete env[k];

  // Packed (npm pack of a copy, with NODE_ENV=development as a developer's shell may
  // have: with it, or test as under vitest, oclif writes the TypeScript source paths into
  // the manifest, and the installed tool cannot load a command; the build pins production
  // whatever the packer's environment says, scripts/write-manifest.mjs) and installed with
  // npm install -g once per run (packed.ts). The tour below runs every command from it.
  ({ stage, tarball, prefix } = await packedOnce());
  expect(basename(tarball)).toBe(`${pkg.name}-${pkg.version}.tgz`);
  packed = ok(run('tar', ['-tzf', tarball], work), 'tar')
    .stdout.trim()
    .split('\n')
    .map((p) => p.replace(/^package\//, ''));
}, 300_000);

// A few hundred MB of installed packages: removing them takes a while on a loaded machine.
afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
}, 120_000);

describe('npm pack', () => {
  it('ships the built commands with their code cache, the oclif manifest, the entry point, the man pages and the examples', () => {
    for (const f of [
      'package.json',
      'bin/run.js',
      'bin/package.json',
      'oclif.manifest.json',
      'dist/cli.cjs',
      'dist/cli.code-cache',
      'dist/grpc.cjs',
      'dist/grpc.code-cache',
      'dist/code-cache.cjs',
      'examples/demo.yaml',
      'man/nrictl.1',
      'README.md',
    ]) {
      expect(packed, f).toContain(f);
    }
    for (const page of pkg.man) expect(packed, page).toContain(page.replace(/^\.\//, ''));
  });

  it('ships no tests, no TypeScript sources (but the example plugins), no benchmarks, no development entry point', () => {
    const unwanted = packed.filter(
      (p) =>
        /^(test|bench|src|commands|scripts|deploy|docs)\//.test(p) ||
        (p.endsWith('.ts') && !p.endsWith('.d.ts') && !p.startsWith('examples/plugins-ts/')) ||
        p === 'bin/dev.mjs',
    );
    expect(unwanted).toEqual([]);
  });

  it('ships every example file the README tour names, and the example plugins whole', async () => {
    // @ts-expect-error: a plain ES module script without type declarations
    const { TOUR } = (await import('../../scripts/gen-readme.mjs')) as {
      TOUR: Record<string, Array<{ args: string[] }>>;
    };
    const named = Object.values(TOUR)
      .flat()
      .flatMap((e) => e.args.filter((a) => a.startsWith('examples/')));
    expect(named).toContain('examples/plugins-ts/cpu-pinner/index.ts');
    for (const p of named)
      expect(
        packed.some((f) => f === p || f.startsWith(`${p}/`)),
        p,
      ).toBe(true);
    for (const example of readdirSync(join(repo, 'examples', 'plugins-ts'), { recursive: true, withFileTypes: true }))
      if (example.isFile()) {
        const rel = join(example.parentPath, example.name).slice(repo.length + 1);
        expect(packed, rel).toContain(rel);
      }
  });

  it('packs the manifest the build wrote next to dist/ (no pack-time step to forget)', () => {
    const packedManifest = ok(run('tar', ['-xzOf', tarball, 'package/oclif.manifest.json'], work), 'tar').stdout;
    expect(readFileSync(join(stage, 'oclif.manifest.json'), 'utf8')).toBe(packedManifest);
  });

  it('has a manifest that lists every command the package contains', () => {
    const manifest = JSON.parse(
      ok(run('tar', ['-xzOf', tarball, 'package/oclif.manifest.json'], work), 'tar').stdout,
    ) as { version: string; commands: Record<string, { relativePath?: string[] }> };
    expect(manifest.version).toBe(pkg.version);
    // Every command of the sources, commands/**.ts, is in the manifest.
    const sources = readdirSync(join(repo, 'commands'), { recursive: true })
      .map(String)
      .filter((f) => f.endsWith('.ts'))
      .map((f) => f.slice(0, -3).split(sep).join(':'));
    expect(
      Object.keys(manifest.commands)
        .filter((id) => sources.includes(id))
        .sort(),
    ).toEqual(sources.sort());
    // The installed package has only dist/: a manifest pointing at sources breaks every command.
    const notBuilt = Object.entries(manifest.commands)
      .filter(([, c]) => c.relativePath && c.relativePath[0] !== 'dist')
      .map(([id, c]) => `${id}: ${c.relativePath!.join('/')}`);
    expect(notBuilt).toEqual([]);
  });
});

describe('nrictl installed with npm install -g, run from another directory', () => {
  it('--version prints name, version and platform', () => {
    const r = ok(nrictl('--version'), 'nrictl --version');
    expect(r.stdout).toMatch(
      new RegExp(`^nrictl/${pkg.version.replace(/\./g, '\\.')} ${process.platform}-${process.arch} node-v\\d+`),
    );
  });

  it('help lists the commands and topics', () => {
    const r = ok(nrictl('help'), 'nrictl help');
    expect(r.stdout).toContain('$ nrictl [COMMAND]');
    for (const cmd of ['logs', 'validate', 'lint', 'sim', 'autocomplete', 'sync'])
      expect(r.stdout).toMatch(new RegExp(`^  ${cmd}\\s+\\S`, 'm'));
  });

  it('help for a command shows its real examples, with the binary name filled in', () => {
    const r = ok(nrictl('help', 'logs'), 'nrictl help logs');
    expect(r.stdout).toContain('EXAMPLES');
    expect(r.stdout).toContain('$ nrictl logs --sim demo');
    expect(r.stdout).not.toContain('<%=');
  });

  it('validate passes a well-named plugin directory and fails a misnamed executable with exit 1', () => {
    const dir = mkdtempSync(join(work, 'plugins-'));
    writeFileSync(join(dir, '10-logger'), '#!/bin/sh\nexit 0\n');
    chmodSync(join(dir, '10-logger'), 0o755);
    const good = nrictl('validate', dir);
    expect(good.status, good.stderr).toBe(0);
    expect(good.stdout).toContain(`Plugin directory ${dir}`);
    expect(good.stdout).toMatch(/1\.\s+10-logger/);

    writeFileSync(join(dir, 'logger'), '#!/bin/sh\nexit 0\n');
    chmodSync(join(dir, 'logger'), 0o755);
    const bad = nrictl('validate', dir, '-o', 'json');
    expect(bad.status).toBe(1);
    expect(bad.stdout).toContain('misnamed-executable');
  });

  it('--sim demo finds the packaged scenario from any directory', () => {
    const r = ok(nrictl('sync', 'dump', '--sim', 'demo', '-o', 'json'), 'nrictl sync dump --sim demo');
    const doc = JSON.parse(r.stdout) as { pods: unknown[]; containers: unknown[] };
    expect([doc.pods.length, doc.containers.length]).toEqual([3, 5]);
  });

  it("prints what the README shows: its tour, run as printed from the installed package's directory, and every generated block", async () => {
    // The generator's own check (scripts/gen-readme.mjs --check), on this installation
    // rather than one of its own: every tour command with the exit status its entry says,
    // the plugin commands one after another in the package's directory, the output as
    // printed, the command index from the manifests. So CI packs and runs the tour once.
    // @ts-expect-error: a plain ES module script without type declarations
    const { readmeFromInstalled, staleness } = (await import('../../scripts/gen-readme.mjs')) as {
      readmeFromInstalled: (
        installed: string,
        env: NodeJS.ProcessEnv,
      ) => Promise<{ text: string; original: string; problems: string[] }>;
      staleness: (original: string, text: string) => string;
    };
    const installed = join(prefix, 'lib', 'node_modules', pkg.name);
    expect(statSync(join(installed, 'examples', 'plugins', '10-logger')).mode & 0o111).toBe(0o111);
    const { text, original, problems } = await readmeFromInstalled(installed, {
      XDG_CACHE_HOME: env.XDG_CACHE_HOME,
      OCLIF_SKIP_NEW_VERSION_CHECK: 'true',
    });
    expect(problems).toEqual([]);
    if (text !== original) expect.fail(staleness(original, text));
    // The tour's plugin commands wrote their bundle where they ran.
    expect(existsSync(join(installed, 'build', '10-cpu-pinner'))).toBe(true);
  }, 180_000);

  it('installs the man pages where man finds them', () => {
    for (const page of pkg.man) {
      const name = page.split('/').pop()!;
      expect(existsSync(join(prefix, 'share', 'man', 'man1', name)), name).toBe(true);
    }
  });

  it('sets up bash completion that completes commands, topics and flags', () => {
    const r = ok(nrictl('autocomplete', 'bash'), 'nrictl autocomplete bash');
    expect(r.stdout).toContain('nrictl autocomplete script bash');
    const fn = join(work, 'cache', 'nrictl', 'autocomplete', 'functions', 'bash', 'nrictl.bash');
    expect(existsSync(fn)).toBe(true);
    const complete = (...words: string[]): string => {
      const script = `source ${fn}; COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; COMP_LINE='${words.join(' ')}'; _nrictl_autocomplete; echo "\${COMPREPLY[*]}"`;
      return ok(run('bash', ['-c', script], outside), 'bash completion').stdout.trim();
    };
    expect(complete('nrictl', 'lo')).toBe('logs');
    expect(complete('nrictl', 'logs', '--ev')).toBe('--events');
    expect(complete('nrictl', 'sync', 'd')).toBe('dump');
  });

  it('sets up zsh completion', () => {
    const r = ok(nrictl('autocomplete', 'zsh'), 'nrictl autocomplete zsh');
    expect(r.stdout).toContain('nrictl autocomplete script zsh');
    const fn = readFileSync(join(work, 'cache', 'nrictl', 'autocomplete', 'functions', 'zsh', '_nrictl'), 'utf8');
    expect(fn).toMatch(/^#compdef nrictl/);
    expect(fn).toContain('logs');
  });
});
