// Scenarios shipped with nrictl, by name: `--sim demo` works from any directory after a
// global install, where the relative path examples/demo.yaml would not.
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Name -> file under the package's examples/ directory. */
export const BUILTIN_SCENARIOS: Readonly<Record<string, string>> = { demo: 'demo.yaml' };

/**
 * The directory of nrictl's package.json: from src/runtime in a checkout and from
 * dist/src/runtime in a build or an install alike.
 */
function packageRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`no package.json above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
}

/**
 * What to read for a scenario argument: an existing file always wins (a file of
 * your own named "demo" is not shadowed); otherwise a built-in name becomes the
 * packaged file; anything else is returned as it is, for the reader to report.
 * A directory is no scenario: the project `nrictl plugin new demo` made beside you
 * does not hide the built-in demo.
 */
export function resolveScenarioPath(nameOrPath: string): string {
  const file = BUILTIN_SCENARIOS[nameOrPath];
  if (file === undefined) return nameOrPath;
  const mine = statSync(nameOrPath, { throwIfNoEntry: false });
  if (mine !== undefined && !mine.isDirectory()) return nameOrPath;
  return path.join(packageRoot(), 'examples', file);
}
