import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// Follows the static imports (not `await import()`) of a module through the sources and
// returns every file and package it loads at start-up.
function staticGraph(entry: string): Set<string> {
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
      if (spec.startsWith('.')) walk(resolve(dirname(file), spec.replace(/\.js$/, '.ts')));
      else seen.add(spec);
    }
  };
  walk(resolve(entry));
  return seen;
}

const root = join(dirname(new URL(import.meta.url).pathname), '..', '..');

describe('what the offline checks load', () => {
  it('src/checks does not load the protobuf bindings', () => {
    const graph = staticGraph(join(root, 'src/checks/index.ts'));
    expect(
      [...graph].filter(
        (f) => f.endsWith('/src/api/schema.ts') || f.endsWith('/src/api/index.ts') || f.startsWith('protobufjs'),
      ),
    ).toEqual([]);
    expect(graph.has(join(root, 'src/api/plugin-name.ts'))).toBe(true);
  });

  it.each(['src/api/plugin-name.ts', 'src/api/socket-path.ts'])('%s imports nothing', (file) => {
    expect([...staticGraph(join(root, file))]).toEqual([join(root, file)]);
  });

  it('the plugin-dir and conf-dir checks do not load a YAML or TOML parser up front', () => {
    for (const entry of ['src/checks/plugin-dir.ts', 'src/checks/conf-dir.ts']) {
      const graph = staticGraph(join(root, entry));
      expect([...graph].filter((f) => f === 'yaml' || f === 'smol-toml')).toEqual([]);
    }
  });
});
