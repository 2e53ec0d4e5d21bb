// Packs the repository the way a user gets it: the pack runs in a copy (node_modules
// symlinked, no .git) with the real prepack/postpack scripts, so the working tree's dist/
// is never rebuilt under other running tests. The copy takes dist/ along: prepack builds
// only when dist/ is not the build of the sources (its build stamp), as for a publisher
// who just built, and `npm test` has just made it so; otherwise it builds in the copy. Packed and installed once per test
// run (packedOnce), for every test file that needs the package as users get it.
import { spawnSync, type SpawnSyncOptions, type SpawnSyncReturns } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { once } from '../support/once.js';
import { fileURLToPath } from 'node:url';

export const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const NOT_COPIED = new Set(['node_modules', '.git']);

/** The environment of a user who never set anything of ours. */
export function cleanEnv(work: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NO_COLOR: '1',
    XDG_CACHE_HOME: join(work, 'cache'),
    OCLIF_SKIP_NEW_VERSION_CHECK: 'true',
  };
  for (const k of Object.keys(env))
    if (k.startsWith('NRICTL_') || k.startsWith('NRI_') || k.startsWith('npm_') || k === 'NODE_ENV' || k === 'CI')
      delete env[k];
  return env;
}

export function run(
  cmd: string,
  args: string[],
  opts: SpawnSyncOptions & { cwd: string; env: NodeJS.ProcessEnv },
): SpawnSyncReturns<string> {
  const r = spawnSync(cmd, args, { encoding: 'utf8', timeout: 240_000, ...opts }) as SpawnSyncReturns<string>;
  if (r.error) throw r.error;
  return r;
}

export function ok(r: SpawnSyncReturns<string>, what: string): SpawnSyncReturns<string> {
  if (r.status !== 0) throw new Error(`${what} exited ${r.status}:\n${r.stdout}\n${r.stderr}`);
  return r;
}

/** Packs into work/out and returns the tarball's path. */
export function packTarball(work: string, env: NodeJS.ProcessEnv): string {
  const stage = join(work, 'stage');
  cpSync(repo, stage, {
    recursive: true,
    filter: (src) => src === repo || !NOT_COPIED.has(src.slice(repo.length + 1).split('/')[0]),
  });
  symlinkSync(join(repo, 'node_modules'), join(stage, 'node_modules'));
  const out = join(work, 'out');
  mkdirSync(out);
  ok(
    run('npm', ['pack', '--pack-destination', out, '--no-audit', '--no-fund'], {
      cwd: stage,
      env: { ...env, NODE_ENV: 'development' },
    }),
    'npm pack',
  );
  const tgz = readdirSync(out).filter((f) => f.endsWith('.tgz'));
  if (tgz.length !== 1) throw new Error(`npm pack made ${tgz.join(', ') || 'nothing'}`);
  return join(out, tgz[0]);
}

export interface Packed {
  /** The copy of the repository that was packed (its prepack wrote the manifest there). */
  stage: string;
  tarball: string;
  /** A prefix the tarball was installed into with `npm install -g`: prefix/bin/nrictl. */
  prefix: string;
}

/**
 * The package packed, and installed with `npm install -g` into an empty prefix: made once
 * per test run, shared by the test files that need it. Read only: nobody writes there.
 */
export function packedOnce(): Promise<Packed> {
  return once('packed', (dir) => {
    const env = cleanEnv(dir);
    const tarball = packTarball(dir, env);
    const prefix = join(dir, 'prefix');
    ok(
      run('npm', ['install', '-g', '--prefix', prefix, '--no-audit', '--no-fund', '--prefer-offline', tarball], {
        cwd: dir,
        env,
      }),
      'npm install -g',
    );
    return { stage: join(dir, 'stage'), tarball, prefix };
  });
}
