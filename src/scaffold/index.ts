// `nrictl plugin new`: writes a plugin project. The whole project is written into a
// hidden sibling directory first and renamed into place, so an interrupted run leaves
// no half-made project under the name asked for.
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rename, rm, rmdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ScaffoldError } from './errors.js';
import { dependencyOnGiven, packRunningNrictl, type NrictlDependency } from './nrictl-dependency.js';
import type { ProjectSpec } from './project-spec.js';
import { projectFiles } from './templates.js';

export type { ProjectSpec } from './project-spec.js';
export { ScaffoldError } from './errors.js';

/** What `plugin new` asks for. */
export interface NewProject extends Omit<ProjectSpec, 'nrictlSpec'> {
  /** --nrictl: a registry version, range or tag, or a path (from the current directory). */
  nrictl?: string;
  /** The package directory of the nrictl that runs: packed into vendor/ when `nrictl` is not given. */
  running: string;
  signal?: AbortSignal;
}

/** npm package names and NRI plugin names both accept this; upper case is refused by npm. */
const NAME = /^[a-z0-9][a-z0-9._-]{0,62}$/;
/** What a runtime reads as the index of a plugin file name (NN-name). */
const INDEX_PREFIX = /^(\d\d)-(.*)$/;

function checkProjectName(name: string): void {
  if (!NAME.test(name)) {
    throw new ScaffoldError(
      `plugin name "${name}": use lower-case letters, digits, '.', '_' and '-', starting with a letter or digit (it names the npm package and the plugin)`,
      'bad-name',
    );
  }
  // The index is the project's own setting: its bundle is named index-name, so a name
  // that starts with one would be built as 10-10-demo and register as "10-demo".
  const indexed = INDEX_PREFIX.exec(name);
  if (indexed) {
    const [, index, rest] = indexed;
    const alone = rest === '' ? 'the name alone' : `the name alone ("${rest}")`;
    const bundle = rest === '' ? '' : ` (the bundle is named ${index}-${rest})`;
    throw new ScaffoldError(
      `plugin name "${name}" starts with an index: give ${alone} and the index with --index ${index}${bundle}`,
      'bad-name',
    );
  }
}

/** What createProject wrote. */
export interface CreatedProject {
  /** The directory, as given. */
  dir: string;
  name: string;
  index: string;
  /** What package.json depends on for nrictl. */
  nrictl: string;
  /** Where that is: a copy in vendor/, a path, or the npm registry. */
  nrictlFrom: NrictlDependency['from'];
  /** The files written, relative to dir. */
  files: string[];
}

/** Writes the project into `dir` (which must not exist, or be empty). */
export async function createProject(dir: string, opts: NewProject): Promise<CreatedProject> {
  checkProjectName(opts.name);
  const given = opts.nrictl === undefined ? undefined : dependencyOnGiven(opts.nrictl, dir);
  const entries = await readdir(dir).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return undefined;
    throw new ScaffoldError(`${dir}: ${err.code ?? err.message}; pick another directory with --dir`, 'exists', {
      cause: err,
    });
  });
  if (entries !== undefined && entries.length > 0) {
    throw new ScaffoldError(
      `${dir} already exists and is not empty; pick another name or --dir, or remove it`,
      'exists',
    );
  }
  const parent = path.dirname(path.resolve(dir));
  let stage: string | undefined;
  let dependency = given;
  let files: Array<{ path: string; content: string }>;
  try {
    await mkdir(parent, { recursive: true });
    // Not mkdtemp: its 0700 would stick to the project; this one gets the user's umask.
    stage = path.join(parent, `.${path.basename(dir)}-new-${randomBytes(4).toString('hex')}`);
    await mkdir(stage);
    if (dependency === undefined) {
      await mkdir(path.join(stage, 'vendor'));
      const file = await packRunningNrictl(opts.running, path.join(stage, 'vendor'), opts.signal);
      dependency = { from: 'vendored', spec: `file:vendor/${file}`, file: `vendor/${file}` };
    }
    files = projectFiles({
      name: opts.name,
      index: opts.index,
      typescriptVersion: opts.typescriptVersion,
      typesNodeVersion: opts.typesNodeVersion,
      nrictlSpec: dependency.spec,
    });
    for (const f of files) {
      await mkdir(path.join(stage, path.dirname(f.path)), { recursive: true });
      await writeFile(path.join(stage, f.path), f.content, { flag: 'wx' });
    }
    if (entries !== undefined) await rmdir(dir); // empty, checked above
    await rename(stage, dir);
    stage = undefined;
  } catch (err) {
    if (err instanceof ScaffoldError) throw err;
    const e = err as NodeJS.ErrnoException;
    throw new ScaffoldError(`could not write the project at ${dir}: ${e.code ?? e.message}`, 'write', { cause: err });
  } finally {
    if (stage !== undefined) await rm(stage, { recursive: true, force: true });
  }
  return {
    dir,
    name: opts.name,
    index: opts.index,
    nrictl: dependency.spec,
    nrictlFrom: dependency.from,
    files: [...(dependency.from === 'vendored' ? [dependency.file] : []), ...files.map((f) => f.path)],
  };
}
