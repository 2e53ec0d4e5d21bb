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
    for (const m of text.matchAll(/^\s*(?:import|export)\s+(?!type\b)[^'";]*?from\s+'([^']+)'|^\s*import\s+'([^']+)'/gm)) {
      const spec = (m[1] ?? m[2])!;
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
    expect([...graph].filter((f) => f.endsWith('/src/api/schema.ts') || f.endsWith('/src/api/index.ts') || f.startsWith('protobufjs'))).toEqual([]);
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

  it('validate, lint and doctor load no library layer before run()', () => {
    for (const cmd of ['validate', 'lint', 'doctor']) {
      const graph = [...staticGraph(join(root, `commands/${cmd}.ts`))];
      const heavy = graph.filter((f) => /\/src\/(api|plugin|runtime|observe|ttrpc|mux)\//.test(f) || ['yaml', 'smol-toml', 'protobufjs', 'cli-table3'].includes(f) || f.endsWith('/src/checks/index.ts'));
      expect({ cmd, heavy }).toEqual({ cmd, heavy: [] });
    }
  });

  it('logs, sync dump, sim, update and evict load only flag definitions and light helpers before run()', () => {
    // Files of the heavy layers that import nothing heavy themselves, kept static on purpose.
    const light = ['src/observe/cli-flags.ts', 'src/observe/defaults.ts', 'src/observe/sim.ts', 'src/runtime/presets.ts', 'src/api/socket-path.ts'].map((f) => join(root, f));
    for (const cmd of ['logs', 'sync/dump', 'sim', 'update', 'evict']) {
      const graph = [...staticGraph(join(root, `commands/${cmd}.ts`))];
      const heavy = graph.filter(
        (f) =>
          (/\/src\/(api|plugin|runtime|observe|ttrpc|mux|control)\//.test(f) && !light.includes(f) && !f.endsWith('/src/control/cli-flags.ts')) ||
          ['yaml', 'smol-toml', 'cli-table3', '@inquirer/prompts'].includes(f) ||
          f.startsWith('protobufjs') ||
          /\/src\/[a-z]+\/index\.ts$/.test(f) ||
          /\/src\/render\/(format|state-table|nri-view|event-line)\.ts$/.test(f),
      );
      expect({ cmd, heavy }).toEqual({ cmd, heavy: [] });
      expect(graph.length).toBeGreaterThan(3); // the walk did follow the command's imports
    }
  });
});
