// Pre-started plugins for the simulator benches, written the way a TypeScript plugin
// reaches a node: plain JavaScript against the built SDK (what `nrictl plugin bundle`
// packs), run by node with no loader. Under tsx every plugin process would also carry a
// loader thread and its own costs, which no deployed plugin has.
import { existsSync } from 'node:fs';
import { chmod, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The build `npm run build` makes; a bench may point at another one (an older build) to compare. */
export const BUILT_DIST = path.join(REPO, 'dist');

/**
 * Writes an executable plugin file whose body may use `Stub` (imported from the built
 * SDK in `dist`) and top-level await. `npm run bench` builds first; run alone, build before.
 */
export async function writeChildPlugin(file: string, body: string, dist = BUILT_DIST): Promise<void> {
  const sdk = path.join(dist, 'src/plugin/index.js');
  if (!existsSync(sdk)) throw new Error(`${sdk} is missing: run \`npm run build\` first (npm run bench does)`);
  await writeFile(file, `#!${process.execPath}\nimport { Stub } from ${JSON.stringify(sdk)};\n${body}\n`);
  await chmod(file, 0o755);
}
