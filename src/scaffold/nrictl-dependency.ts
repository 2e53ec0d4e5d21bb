// Where a new project gets nrictl from. By default, a copy of the nrictl that is running,
// packed into the project's own vendor/ and referenced as file:vendor/nrictl-VERSION.tgz:
// the project installs without nrictl on the npm registry, and every checkout of it
// builds against the same nrictl. --nrictl picks a registry version or a path instead.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { ScaffoldError } from './errors.js';

/** What package.json depends on, and where it comes from. */
export type NrictlDependency =
  | { from: 'vendored'; spec: string; file: string }
  | { from: 'path'; spec: string }
  | { from: 'registry'; spec: string };

/** Packing the package takes a few seconds; a stuck npm must not hold `plugin new` for ever. */
const PACK_TIMEOUT_MS = 120_000;
const PACK_OUTPUT_MAX = 4 * 1024 * 1024;
/** What a built package holds: the SDK entry point the project imports and the CLI its scripts run. */
const BUILT = ['dist/src/plugin/index.js', 'dist/cli.cjs', 'bin/run.js'];

/** A spec naming a file or directory rather than a registry version, range or tag. */
function localPath(spec: string): string | undefined {
  if (spec.startsWith('file:')) return spec.slice('file:'.length);
  if (/^(\.{1,2}(\/|$)|\/)/.test(spec) || /\.(tgz|tar\.gz)$/.test(spec)) return spec;
  return undefined;
}

/**
 * A path given on the command line is the user's, relative to where they ran the command;
 * package.json's file: is relative to the project: rewrite it so that `npm install`
 * in the project finds what the user meant.
 */
export function dependencyOnGiven(spec: string, projectDir: string, cwd = process.cwd()): NrictlDependency {
  const given = localPath(spec);
  if (given === undefined) return { from: 'registry', spec };
  const abs = path.resolve(cwd, given);
  if (!existsSync(abs))
    throw new ScaffoldError(
      `--nrictl ${spec}: ${abs} does not exist; give a packed nrictl (nrictl-VERSION.tgz) or nrictl's package directory, relative to the current directory, or a registry version`,
      'bad-spec',
    );
  const rel = path.relative(path.resolve(cwd, projectDir), abs) || '.';
  return { from: 'path', spec: `file:${rel}` };
}

/** Why `root` cannot be packed as it is, or undefined when it is a built package. */
function notBuilt(root: string): string | undefined {
  const missing = BUILT.filter((f) => !existsSync(path.join(root, f)));
  return missing.length === 0 ? undefined : `it is not built (no ${missing.join(', ')})`;
}

/**
 * `npm pack` of the running package's directory into `dest`, as it is: a checkout's
 * prepack script (a full rebuild) is not run, so the copy is exactly the nrictl that
 * runs now, and an installed package, which has no build tools, packs too. Offline.
 * Returns the tarball's file name.
 */
export async function packRunningNrictl(root: string, dest: string, signal?: AbortSignal): Promise<string> {
  const why = notBuilt(root);
  if (why !== undefined) throw packError(`could not copy nrictl from ${root}: ${why}; run \`npm run build\` there`);
  const before = new Set(existsSync(dest) ? readdirSync(dest) : []);
  const stdout = await new Promise<string>((resolve, reject) => {
    execFile(
      'npm',
      ['pack', '--ignore-scripts', '--json', '--no-audit', '--no-fund', '--pack-destination', dest],
      { cwd: root, timeout: PACK_TIMEOUT_MS, maxBuffer: PACK_OUTPUT_MAX, encoding: 'utf8', signal },
      (err, out, errOut) => {
        if (!err) return resolve(out);
        const e = err as NodeJS.ErrnoException & { killed?: boolean };
        const detail =
          e.code === 'ENOENT'
            ? 'npm is not on PATH'
            : e.killed
              ? `npm pack took longer than ${PACK_TIMEOUT_MS / 1000} s`
              : (errOut.trim().split('\n').filter(Boolean).at(-1) ?? e.message);
        reject(packError(`could not pack nrictl from ${root}: ${detail}`, err));
      },
    );
  });
  let file: unknown;
  try {
    file = (JSON.parse(stdout) as Array<{ filename?: unknown }>)[0]?.filename;
  } catch {
    // npm printed something other than its JSON report: look at what it wrote instead.
  }
  if (typeof file !== 'string') file = readdirSync(dest).find((f) => f.endsWith('.tgz') && !before.has(f));
  if (typeof file !== 'string' || !existsSync(path.join(dest, file)))
    throw packError(`could not pack nrictl from ${root}: npm pack wrote no tarball into ${dest}`);
  return file;
}

/** A failed copy says the way around it. */
function packError(message: string, cause?: unknown): ScaffoldError {
  return new ScaffoldError(
    `${message}; or give --nrictl SPEC (a registry version, or the path of a packed nrictl)`,
    'pack',
    cause === undefined ? undefined : { cause },
  );
}
