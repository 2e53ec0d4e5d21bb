// The build of the sources (dist/, made by `npm run build`; `npm test` makes it first when it
// is missing or stale). For what a test starts as a separate program, such as a plugin
// executable in a plugin directory: plain node on the compiled modules starts in a tenth of
// the time tsx takes to compile the same sources again in every such process.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
// @ts-expect-error: a plain ES module script without type declarations
import { whyStale } from '../../scripts/build-stamp.mjs';
import { once } from './once.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The compiled module of `src/<rel>.ts`, as an absolute path, once the build is known to be current. */
export function builtSource(rel: string): string {
  assertFreshBuild();
  return path.join(REPO, 'dist', 'src', `${rel}.js`);
}

let checked = false;
/** Throws unless dist/ is the build of the sources as they are. */
export function assertFreshBuild(): void {
  if (checked) return;
  const stale = (whyStale as () => string | undefined)();
  if (stale) throw new Error(`dist/ is not the build of these sources (${stale}): run npm run build (npm test does)`);
  checked = true;
}

/** The entry points of the build that test plugins use, bundled into one (builtBundle). */
const BUNDLED = ['api/index', 'mux/index', 'ttrpc/index', 'plugin/index'];

/**
 * The build's SDK and the wire layers under it (api, mux, ttrpc) as one CommonJS file,
 * made once per run: `require()` it in a test's plugin executable. A plugin is most
 * often shipped so (`nrictl plugin bundle`), and one file starts in about half the CPU
 * time of the compiled modules loaded one by one: the preset tests alone launch some eighty.
 */
export function builtBundle(): Promise<string> {
  assertFreshBuild();
  return once('built-bundle', (dir) => {
    const outfile = path.join(dir, 'nrictl-sdk.cjs');
    // esbuild's own program, not its JavaScript API: the API's buildSync keeps a worker
    // thread for the rest of the process, its output piped into this process's stdout and
    // stderr, which the commands run in process here are held not to leave behind.
    const esbuild = createRequire(import.meta.url).resolve('esbuild/bin/esbuild');
    const args = ['--bundle', '--format=cjs', '--platform=node', '--target=node20', '--log-level=error'];
    const r = spawnSync(esbuild, [...args, `--outfile=${outfile}`], {
      cwd: REPO,
      input: BUNDLED.map((rel) => `export * from ${JSON.stringify(builtSource(rel))};`).join('\n'),
      encoding: 'utf8',
      timeout: 60_000,
    });
    if (r.status !== 0) throw new Error(`esbuild of the build's SDK failed (${r.status ?? r.signal}): ${r.stderr}`);
    return outfile;
  });
}
