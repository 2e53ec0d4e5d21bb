// The build of the sources (dist/, made by `npm run build`; `npm test` makes it first when it
// is missing or stale). For what a test starts as a separate program, such as a plugin
// executable in a plugin directory: plain node on the compiled modules starts in a tenth of
// the time tsx takes to compile the same sources again in every such process.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
// @ts-expect-error: a plain ES module script without type declarations
import { whyStale } from '../../scripts/build-stamp.mjs';

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
