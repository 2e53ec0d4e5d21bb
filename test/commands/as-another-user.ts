// The built CLI run as an ordinary user (nobody, uid 65534), from a test that runs as
// root: setpriv drops to that uid and gid with no supplementary groups.
//
// The user must be able to read the CLI's own files. A checkout under a directory others
// cannot enter (a `mktemp -d` one is 0700) would make every run fail with EACCES before
// nrictl starts, and the test would be about the checkout, not nrictl. So when the
// user cannot start the CLI where it is, its runtime files (bin/, dist/, package.json
// and the production dependencies, about 17 MB) are copied once to a directory the user
// can read. Both that copy and the user's home are made where others can reach them
// (test/support/reachable.ts): under a private TMPDIR the user could reach neither.
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, rmSync } from 'node:fs';
import path from 'node:path';
import { OTHERS_CANNOT_REACH, reachableTempDir } from '../support/reachable.js';

export const NOBODY = 65534;
export const AS_ROOT = process.getuid?.() === 0;
export const HAS_SETPRIV = spawnSync('setpriv', ['--version']).status === 0;
export const CANNOT_SWITCH_USER = !AS_ROOT
  ? 'running as another user needs root (setpriv): run the tests as root'
  : !HAS_SETPRIV
    ? 'setpriv (util-linux) is not installed'
    : OTHERS_CANNOT_REACH;

let installed: { dir: string; home: string } | undefined;

function asNobody(args: string[], cwd: string, home: string) {
  return spawnSync('setpriv', [`--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', process.execPath, ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, HOME: home, NODE_ENV: 'production', NO_COLOR: '1', CI: '1' },
  });
}

/** Where the user runs the CLI from: the checkout itself when it can, else a readable copy. */
function install(): { dir: string; home: string } {
  if (installed) return installed;
  const home = reachableTempDir('nrihome-').dir;
  chmodSync(home, 0o777);
  const repo = path.resolve('.');
  if (asNobody(['bin/run.js', '--version'], repo, home).status === 0) {
    installed = { dir: repo, home };
    return installed;
  }
  const dir = reachableTempDir('nricli-').dir;
  chmodSync(dir, 0o755);
  for (const p of ['bin', 'dist', 'package.json']) cpSync(path.join(repo, p), path.join(dir, p), { recursive: true });
  const deps = spawnSync('npm', ['ls', '--omit=dev', '--all', '--parseable'], { cwd: repo, encoding: 'utf8' });
  for (const abs of deps.stdout.split('\n').slice(1).filter(Boolean)) {
    cpSync(abs, path.join(dir, path.relative(repo, abs)), { recursive: true });
  }
  const check = asNobody(['bin/run.js', '--version'], dir, home);
  if (check.status !== 0) {
    for (const d of [dir, home]) rmSync(d, { recursive: true, force: true });
    throw new Error(`uid ${NOBODY} cannot run a readable copy of the CLI either: ${check.stderr}`);
  }
  installed = { dir, home };
  return installed;
}

/** Runs `nrictl ...args` as uid/gid 65534. */
export function nrictlAsNobody(...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const { dir, home } = install();
  const r = asNobody([path.join(dir, 'bin/run.js'), ...args], dir, home);
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Runs `node --input-type=module -e CODE` as uid/gid 65534, where the CLI's files are (`./dist/...` imports them). */
export function nodeEvalAsNobody(code: string): { code: number | null; stdout: string; stderr: string } {
  const { dir, home } = install();
  const r = asNobody(['--input-type=module', '-e', code], dir, home);
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Removes the copy and the home directory (call from afterAll). */
export function cleanupAsNobody(): void {
  if (!installed) return;
  if (installed.dir !== path.resolve('.')) rmSync(installed.dir, { recursive: true, force: true });
  rmSync(installed.home, { recursive: true, force: true });
  installed = undefined;
}
