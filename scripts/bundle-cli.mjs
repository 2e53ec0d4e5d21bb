#!/usr/bin/env node
// Bundles the command line with esbuild from the TypeScript sources (a step of `npm run
// build`, beside tsc: scripts/build.mjs): oclif's core, the commands, the not-found hook
// and the dependencies they share, into ONE CommonJS file, dist/cli.cjs, that bin/run.js
// loads through V8's code cache (src/cli/code-cache.ts; the cache is written by
// scripts/write-code-cache.mjs).
//
// Why one CommonJS file: Node 20 caches compiled code for no ES module, and compiling
// was most of a start-up (a two-step `nrictl sim` spent ~90 of its ~145 ms above
// `node -e 0` loading modules). A script compiled with vm.Script can take V8's cached
// data, and one file is one read and one compile. Inside it, each command's code is
// initialised only when that command runs (esbuild's lazy module wrappers, reached
// through the getters of COMMANDS), as the separate files did before.
//
// package.json's oclif settings name what oclif loads in dist/cli.cjs: the commands
// (COMMANDS), the not-found hook and our help class. tsc's own output of the commands,
// the hook and src/cli/oclif.ts is removed (scripts/prune-dist.mjs): it would load a
// second, unbundled oclif.
// bin/dev.mjs runs from the TypeScript sources instead (it gives oclif the commands/
// directory).
// The rest of dist/src stays plain tsc output: the SDK exports (nrictl/plugin,
// nrictl/ttrpc) are libraries that plugin authors import and bundle themselves.
//
// Bundled in: everything the command line imports, except esbuild (a native binary,
// loaded only by `plugin bundle`) and @grpc/grpc-js (CRI's; a bundle of its own, below).
// Minified in whitespace only: a stack under --debug names real functions through the source map.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { OCLIF_PATCHES } from './oclif-patches.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// A native binary and its JavaScript, loaded by `plugin bundle` only; and what oclif's
// development mode (bin/dev.mjs) alone requires, from the unbundled oclif.
const NEVER_BUNDLED = new Set(['esbuild', 'typescript', 'ts-node', 'tsx']);
const builtins = new Set(builtinModules);

/** The command sources under commands/, without .ts: `sync/dump` is the command `sync:dump`. */
function commandFiles() {
  return readdirSync(join(root, 'commands'), { recursive: true })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
    .map((f) => f.replace(/\.ts$/, '').split(sep).join('/'))
    .sort();
}

// The bundle's entry: what package.json's oclif settings name in it. Each command is a
// getter, so that oclif, which reads only the command it runs, initialises only that
// command's code, not every command's when the file loads.
const entry = [
  "export { execute, run, NrictlHelp } from './src/cli/oclif.ts';",
  "export { default as commandNotFound } from './src/cli/hooks/command-not-found.ts';",
  'export const COMMANDS = {',
  ...commandFiles().map(
    (file) =>
      `  get ${JSON.stringify(file.replaceAll('/', ':'))}() { return require('./commands/${file}.ts').default; },`,
  ),
  '};',
].join('\n');

const patched = new Set();
const oclifPatches = {
  name: 'nrictl-oclif-patches',
  setup(b) {
    for (const file of new Set(OCLIF_PATCHES.map((p) => p.file))) {
      const patches = OCLIF_PATCHES.filter((p) => p.file === file);
      // By the end of the path: node_modules may be a symbolic link (npm pack's staging copy).
      const tail = file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
      b.onLoad({ filter: new RegExp(`(^|/)${tail}$`) }, (args) => {
        let text = readFileSync(args.path, 'utf8');
        const appended = new Set();
        for (const patch of patches) {
          const at = text.indexOf(patch.find);
          if (at < 0 || text.indexOf(patch.find, at + 1) >= 0) {
            throw new Error(
              `${file}: expected exactly one "${patch.find}"; oclif changed: review scripts/oclif-patches.mjs`,
            );
          }
          text = text.replace(patch.find, () => patch.replace);
          if (patch.append) appended.add(patch.append);
          patched.add(patch);
        }
        return { contents: text + [...appended].join(''), loader: 'js' };
      });
    }
  },
};

// Our sources load a few packages on first use, through createRequire(import.meta.url),
// which esbuild cannot follow. In the bundle they become plain require() calls, which it
// follows: the package is bundled (and in the code cache) and still initialised only
// when that line runs. tsc's output keeps createRequire.
const LAZY_REQUIRE = 'createRequire(import.meta.url)(';
const lazyRequires = {
  name: 'nrictl-lazy-requires',
  setup(b) {
    b.onLoad({ filter: /\/src\/.*\.ts$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      if (!text.includes(LAZY_REQUIRE)) return undefined;
      return { contents: text.replaceAll(LAZY_REQUIRE, 'require('), loader: 'ts' };
    });
  },
};

// gRPC (for CRI) is a bundle of its own, dist/grpc.cjs, with a code cache of its own
// (dist/grpc.code-cache): in this bundle it would cost every command's start-up ~3 ms
// for a megabyte of source and cache only CRI uses; outside any bundle, a CRI command's
// start would compile its ~60 files (~45 ms). In this bundle '@grpc/grpc-js' is a small
// module that loads that file when src/cri first asks for it: through the code cache, or
// with a plain require under --debug (source maps on), as bin/run.js loads this one.
// The build's training run of `sim --cri-socket` writes its cache (scripts/write-code-cache.mjs).
const GRPC_BUNDLE = 'grpc.cjs';
const GRPC_CACHE = 'grpc.code-cache';
const grpcOwnBundle = {
  name: 'nrictl-grpc-bundle',
  setup(b) {
    b.onResolve({ filter: /^@grpc\/grpc-js$/ }, () => ({ path: 'grpc-js', namespace: 'nrictl-grpc' }));
    b.onLoad({ filter: /.*/, namespace: 'nrictl-grpc' }, () => ({
      resolveDir: root,
      loader: 'js',
      contents: [
        "const path = require('node:path');",
        `const file = path.join(__dirname, ${JSON.stringify(GRPC_BUNDLE)});`,
        'if (process.sourceMapsEnabled) module.exports = require(file);',
        'else',
        "  module.exports = require('./src/cli/code-cache.ts').requireWithCodeCache(file, {",
        `    cacheFile: path.join(__dirname, ${JSON.stringify(GRPC_CACHE)}),`,
        "    writeAtExit: globalThis[Symbol.for('nrictl.train-code-cache')] === true,",
        '  }).exports;',
      ].join('\n'),
    }));
  },
};

/** Node's built-ins and the packages above stay requires; everything else is bundled. */
const externals = {
  name: 'nrictl-externals',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      const name = args.path.startsWith('@') ? args.path.split('/').slice(0, 2).join('/') : args.path.split('/')[0];
      if (args.path.startsWith('node:') || builtins.has(name) || NEVER_BUNDLED.has(name))
        return { path: args.path, external: true };
      return undefined;
    });
  },
};

// Our code and some packages read import.meta.url, which a CommonJS file does not have:
// each gets the bundle's own URL (dist/cli.cjs; createRequire from there finds
// node_modules as before).
// Strict, as every part of it was as an ES module (our code, and oclif's inside the ES
// module chunks it was bundled into before); esbuild writes no "use strict" for them.
// A script compiled by vm.Script, as src/cli/code-cache.ts does, cannot import() without
// an experimental flag, so the bundle's dynamic imports (oclif loading an ES module,
// esbuild for `plugin bundle`) go through `__nrictlImport`: the loader passes one from an
// ES module; under a plain require() the bundle's own import() serves.
const banner = [
  '"use strict";',
  'const __nrictlUrl = require("node:url").pathToFileURL(__filename).href;',
  'const __nrictlImportFrom = typeof __nrictlImport === "function" ? __nrictlImport : (specifier) => import(specifier);',
].join('\n');
const DYNAMIC_IMPORT = /\bawait import\(/g;

const BUNDLE = join(root, 'dist', 'cli.cjs');
rmSync(join(root, 'dist', 'chunks'), { recursive: true, force: true });
for (const f of [BUNDLE, `${BUNDLE}.map`, join(root, 'dist', 'cli.code-cache')]) rmSync(f, { force: true });

const result = await build({
  absWorkingDir: root,
  stdin: { contents: entry, resolveDir: root, sourcefile: 'cli-entry.js', loader: 'js' },
  outfile: BUNDLE,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  banner: { js: banner },
  define: { 'import.meta.url': '__nrictlUrl' },
  plugins: [grpcOwnBundle, externals, oclifPatches, lazyRequires],
  logLevel: 'warning',
  sourcemap: 'linked',
  sourcesContent: false,
  // Without comments and indentation: a third less to read at every start (4.7 -> 3.2 MB,
  // ~1.5 ms), names unchanged (no identifier minifying); --debug maps stack traces back.
  minifyWhitespace: true,
});
if (result.errors.length > 0) process.exit(1);
for (const patch of OCLIF_PATCHES) {
  if (!patched.has(patch))
    throw new Error(`${patch.file} was not bundled, so not patched: review scripts/oclif-patches.mjs`);
}

// A mark of this build at the end of the bundle: the code cache written for it carries
// the same mark, so a cache left from another build is never fed to V8 (which checks
// only the source's length).
const text = readFileSync(BUNDLE, 'utf8');
const imports = text.match(DYNAMIC_IMPORT)?.length ?? 0;
if (imports === 0) throw new Error('dist/cli.cjs: no `await import(` found; review the dynamic import rewrite');
markBundle(BUNDLE, text.replace(DYNAMIC_IMPORT, 'await __nrictlImportFrom('));

// gRPC's own bundle (see grpcOwnBundle above). grpc-js requires @grpc/proto-loader only
// inside its channelz and ORCA services, which nrictl never serves: left out.
const GRPC_FILE = join(root, 'dist', GRPC_BUNDLE);
for (const f of [GRPC_FILE, `${GRPC_FILE}.map`, join(root, 'dist', GRPC_CACHE)]) rmSync(f, { force: true });
const grpc = await build({
  absWorkingDir: root,
  entryPoints: [createRequire(join(root, 'package.json')).resolve('@grpc/grpc-js')],
  outfile: GRPC_FILE,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  banner: { js: '"use strict";' },
  external: ['@grpc/proto-loader'],
  logLevel: 'warning',
  sourcemap: 'linked',
  sourcesContent: false,
  minifyWhitespace: true,
});
if (grpc.errors.length > 0) process.exit(1);
markBundle(GRPC_FILE, readFileSync(GRPC_FILE, 'utf8'));

/**
 * Writes `text` to `file` as pure ASCII with the build's mark on its last line. ASCII, so
 * that the loader reads it as Latin-1, a copy, instead of decoding UTF-8 (11 ms for the
 * CLI's bundle): esbuild writes ASCII except in comments and in a regular expression or
 * two, where a \u escape means the same.
 */
function markBundle(file, text) {
  const ascii = text.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  const built = Buffer.from(ascii, 'latin1');
  const mark = createHash('sha256').update(built).digest('hex').slice(0, 32);
  writeFileSync(file, Buffer.concat([built, Buffer.from(`\n//# nrictl-build=${mark}\n`)]));
}

// The loader bin/run.js requires to load dist/cli.cjs with its code cache
// (src/cli/code-cache.ts), as CommonJS: bin/run.js is CommonJS, so that a start needs
// no ES module loader (bin/run.js says why).
const LOADER = join(root, 'dist', 'code-cache.cjs');
const loader = await build({
  absWorkingDir: root,
  entryPoints: [join(root, 'src', 'cli', 'code-cache.ts')],
  outfile: LOADER,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  logLevel: 'warning',
});
if (loader.errors.length > 0) process.exit(1);
