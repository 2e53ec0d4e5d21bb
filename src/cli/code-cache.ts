// Loads the bundled command line (dist/cli.cjs) with V8's code cache, so that a start-up
// does not compile what the last build's training runs already compiled
// (scripts/write-code-cache.mjs). Node 20 has no compile cache of its own.
//
// The module is put in require's cache under its own path before it runs: oclif loads the
// same file by path for the commands, the hook and the help class (package.json names it
// for each), and gets this instance: one oclif in the process.
//
// The wrapper is CommonJS's own plus `__nrictlImport`: a script compiled by vm.Script cannot
// import() without an experimental flag, so the bundle's dynamic imports come here, to a
// module Node loaded (dist/code-cache.cjs, built from this file), which can
// (scripts/bundle-cli.mjs rewrites them).
//
// A cache is used only when it carries the bundle's build mark: V8 itself checks only the
// source's length, its own version and its flags, and rejects a cache on a mismatch of
// those (we then compile as if there were none). Under --debug, the plain require() is
// used, so that Node reads the bundle's source map for stack traces.
import { readFileSync, realpathSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import path from 'node:path';
import vm from 'node:vm';

interface NodeModule {
  exports: unknown;
  filename: string;
  paths: string[];
  loaded: boolean;
}
interface ModuleInternals {
  new (id: string, parent?: unknown): NodeModule;
  _cache: Record<string, NodeModule>;
  _nodeModulePaths(dir: string): string[];
}
const NodeModuleClass = Module as unknown as ModuleInternals;

const WRAPPER_START = '(function (exports, require, module, __filename, __dirname, __nrictlImport) { ';
const WRAPPER_END = '\n})';
const importHere = (specifier: string): Promise<unknown> => import(specifier);

/** The build mark scripts/bundle-cli.mjs puts on the bundle's last line. */
function buildMark(source: string): string | undefined {
  return /\/\/# nrictl-build=([0-9a-f]+)\n$/.exec(source.slice(-96))?.[1];
}

export interface CodeCacheOptions {
  /** Where the cache is read from, and written to with `writeAtExit`. */
  cacheFile: string;
  /**
   * Write the cache at exit: what the cache held plus what this run compiled. The build's
   * training runs (scripts/write-code-cache.mjs) add up this way, one after the other.
   */
  writeAtExit?: boolean;
}

/** The cached data after the cache's mark, when that mark is the bundle's. */
function cachedDataFor(mark: string | undefined, cache: Buffer | undefined): Buffer | undefined {
  if (mark === undefined || cache === undefined) return undefined;
  const header = Buffer.from(`${mark}\n`);
  return cache.subarray(0, header.length).equals(header) ? cache.subarray(header.length) : undefined;
}

function readOrUndefined(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

export interface LoadedBundle {
  exports: unknown;
  /**
   * What became of the cache: V8 took it (`used`), V8 turned it down (`rejected`: another
   * Node, other V8 flags, a damaged file), or there was none for this build (`none`).
   */
  codeCache: 'used' | 'rejected' | 'none';
}

/** Requires `file` (a CommonJS bundle), compiled with the code cache where one fits. */
export function requireWithCodeCache(file: string, opts: CodeCacheOptions): LoadedBundle {
  file = realpathSync(file);
  // ASCII (scripts/bundle-cli.mjs makes it so): read as Latin-1, a plain copy.
  const source = readFileSync(file, 'latin1');
  const mark = buildMark(source);
  const cachedData = cachedDataFor(mark, readOrUndefined(opts.cacheFile));
  const script = new vm.Script(WRAPPER_START + source + WRAPPER_END, {
    filename: file,
    ...(cachedData ? { cachedData } : {}),
  });
  const mod = new NodeModuleClass(file);
  mod.filename = file;
  mod.paths = NodeModuleClass._nodeModulePaths(path.dirname(file));
  NodeModuleClass._cache[file] = mod;
  if (opts.writeAtExit && mark !== undefined) {
    process.once('exit', () => {
      writeFileSync(opts.cacheFile, Buffer.concat([Buffer.from(`${mark}\n`), script.createCachedData()]));
    });
  }
  const wrapper = script.runInThisContext() as (
    exports: unknown,
    require: NodeRequire,
    module: NodeModule,
    filename: string,
    dirname: string,
    importer: typeof importHere,
  ) => void;
  try {
    wrapper.call(mod.exports, mod.exports, createRequire(file), mod, file, path.dirname(file), importHere);
  } catch (err) {
    delete NodeModuleClass._cache[file];
    throw err;
  }
  mod.loaded = true;
  return { exports: mod.exports, codeCache: !cachedData ? 'none' : script.cachedDataRejected ? 'rejected' : 'used' };
}
