import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

// Follows the static imports (not `await import()`) of a module through the sources and
// returns every file and package it loads at start-up.
export function staticGraph(entry: string): Set<string> {
  const seen = new Set<string>();
  const walk = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    if (!file.startsWith('/')) return; // a package
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(
      /^\s*(?:import|export)\s+(?!type\b)[^'";]*?from\s+'([^']+)'|^\s*import\s+'([^']+)'/gm,
    )) {
      const spec = m[1] ?? m[2];
      if (spec.startsWith('node:')) continue;
      if (!spec.startsWith('.')) seen.add(spec);
      else {
        // A source is written .ts and imported .js; the generated bindings are .js.
        const ts = resolve(dirname(file), spec.replace(/\.js$/, '.ts'));
        walk(existsSync(ts) ? ts : resolve(dirname(file), spec));
      }
    }
  };
  walk(resolve(entry));
  return seen;
}
