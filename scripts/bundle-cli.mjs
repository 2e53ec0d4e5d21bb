#!/usr/bin/env node
// Bundles the command line with esbuild, after tsc (step of `npm run build`): oclif's
// core, the commands and the not-found hook, as ES modules sharing chunks.
//
// Why: @oclif/core is some 80 CommonJS files with a dozen small dependencies; finding,
// reading and compiling them one by one was most of a start-up (`nrictl --version`
// took 2.3x the time of `node -e 0`). One bundled copy of oclif loads in a few files.
//
// What it writes over tsc's output (the same paths, so package.json's oclif settings,
// the manifest and bin/dev.js, which maps dist/ back to the TypeScript sources, keep
// working unchanged):
// - dist/commands/**.js: one entry per command, so running a command loads only its own
//   code; what commands share goes into dist/chunks/;
// - dist/src/cli/hooks/command-not-found.js (package.json oclif.hooks);
// - dist/src/cli/oclif.js: the oclif that bin/run.js starts, with our help class
//   (package.json oclif.helpClass). Commands and hook import the same chunk, so there is
//   one oclif in the process, not one per bundle. An entry that imported another part
//   of oclif than they do would split its chunk in two, and every start-up would load
//   one file more.
// The rest of dist/src stays plain tsc output: the SDK exports (nrictl/plugin,
// nrictl/ttrpc) are libraries that plugin authors import and bundle themselves.
//
// Only @oclif/core and what it requires are bundled in; our other dependencies stay
// imports of node_modules (one copy each, resolved by Node as before), and what a
// command imports lazily (`await import(...)` of a layer) stays lazy in its own chunk.
// Not minified: a stack under --debug names real functions, and esbuild keeps a
// `// src/...` comment above each source file it inlines.
import { build } from 'esbuild';
import { readFileSync, readdirSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { OCLIF_PATCHES } from './oclif-patches.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// oclif's core, and its help command, which would otherwise load a second, unbundled core.
const BUNDLED_PACKAGES = /^@oclif\/(core|plugin-help)(\/|$)/;
// Required only by oclif's development mode (bin/dev.js), which uses the unbundled oclif.
const NEVER_BUNDLED = new Set(['typescript', 'ts-node', 'tsx']);
const builtins = new Set(builtinModules);

function commandEntries(dir) {
  return readdirSync(join(root, dir), { recursive: true })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
    .map((f) => join(dir, f));
}

const entries = {};
for (const file of [...commandEntries('commands'), 'src/cli/hooks/command-not-found.ts', 'src/cli/oclif.ts']) {
  entries[file.replace(/\.ts$/, '')] = join(root, file);
}

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

/** Bare imports from our code stay imports, except oclif's core; inside a bundled package, all is bundled. */
const externals = {
  name: 'nrictl-externals',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      const name = args.path.startsWith('@') ? args.path.split('/').slice(0, 2).join('/') : args.path.split('/')[0];
      if (args.path.startsWith('node:') || builtins.has(name) || NEVER_BUNDLED.has(name))
        return { path: args.path, external: true };
      const fromOurCode = !relative(root, args.importer).split('/').includes('node_modules');
      if (fromOurCode && !BUNDLED_PACKAGES.test(args.path)) return { path: args.path, external: true };
      return undefined;
    });
  },
};

// The bundled CommonJS of oclif calls require() for Node's built-ins and uses __dirname;
// in an ES module neither exists, so each output file gets its own.
const banner = [
  "import { createRequire as __nrictlRequire } from 'node:module';",
  "import { fileURLToPath as __nrictlPath } from 'node:url';",
  'const require = __nrictlRequire(import.meta.url);',
  'const __filename = __nrictlPath(import.meta.url);',
  "const __dirname = __nrictlPath(new URL('.', import.meta.url));",
].join('\n');

for (const out of Object.keys(entries)) rmSync(join(root, 'dist', `${out}.js`), { force: true });
rmSync(join(root, 'dist', 'chunks'), { recursive: true, force: true });

const result = await build({
  absWorkingDir: root,
  entryPoints: entries,
  outdir: join(root, 'dist'),
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  banner: { js: banner },
  plugins: [externals, oclifPatches],
  logLevel: 'warning',
  metafile: true,
  sourcemap: 'linked',
  sourcesContent: false,
});
if (result.errors.length > 0) process.exit(1);
for (const patch of OCLIF_PATCHES) {
  if (!patched.has(patch))
    throw new Error(`${patch.file} was not bundled, so not patched: review scripts/oclif-patches.mjs`);
}
