// Holds the layer map of docs/contracts.md: which layer may import which, and that an
// import from another layer goes through that layer's index.ts. Static and dynamic
// imports count alike (a lazy import is still a dependency); so do `import type` ones.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(dirname(new URL(import.meta.url).pathname), '..');

/** Who may import whom. A layer not listed for another may not import it at all. */
const ALLOWED: Record<string, readonly string[]> = {
  units: [],
  api: [],
  ttrpc: [],
  mux: [],
  plugin: ['api', 'mux', 'ttrpc'],
  runtime: ['api', 'mux', 'ttrpc', 'checks', 'render', 'units'],
  checks: ['api', 'render', 'units'],
  render: ['api', 'units'],
  session: ['api', 'plugin', 'units', 'checks', 'runtime'],
  observe: ['api', 'render', 'session', 'units'],
  control: ['api', 'render', 'session', 'units'],
  cli: ['api', 'render', 'session', 'units'],
  // trace's probes register through the session's ProbeSet, as every connecting command does.
  trace: ['api', 'render', 'session', 'checks', 'units'],
  expect: ['api', 'runtime', 'checks', 'units'],
  bundle: ['render'],
  scaffold: [],
  commands: [
    'api',
    'units',
    'checks',
    'render',
    'runtime',
    'session',
    'observe',
    'control',
    'trace',
    'expect',
    'bundle',
    'scaffold',
    'cli',
  ],
};

/** Files that import nothing and may be imported directly, so that light code need not load their layer's index. */
const LEAF_FILES = new Set(['src/api/plugin-name.ts', 'src/api/socket-path.ts', 'src/api/runtime-identity.ts']);

/**
 * Known direct imports, each with its reason; a new one needs a line here. The checks'
 * table must not load render's index (and with it the YAML writer) at start-up.
 */
const DIRECT_IMPORTS = new Set([
  'src/checks/table.ts -> src/render/findings-layout.ts',
  'src/checks/table.ts -> src/render/output-width.ts',
]);

function filesUnder(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'gen' ? [] : filesUnder(rel);
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [rel] : [];
  });
}

function layerOf(file: string): string | undefined {
  if (file.startsWith('commands/')) return 'commands';
  const m = /^src\/([a-z]+)\//.exec(file);
  return m?.[1];
}

interface Edge {
  from: string;
  to: string;
  spec: string;
}

function crossLayerImports(): Edge[] {
  const edges: Edge[] = [];
  for (const file of [...filesUnder('src'), ...filesUnder('commands')]) {
    const text = readFileSync(join(root, file), 'utf8');
    for (const m of text.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|^\s*import\s+)'(\.[^']+)'/gm)) {
      const spec = m[1];
      const target = relative(root, resolve(root, dirname(file), spec)).replace(/\.js$/, '.ts');
      if (layerOf(target) !== layerOf(file)) edges.push({ from: file, to: target, spec });
    }
  }
  return edges;
}

describe('the layer map', () => {
  const edges = crossLayerImports();

  it('finds the imports it checks', () => {
    // The walk really parsed the sources: commands import the session and the CLI layer.
    expect(edges.some((e) => e.from === 'commands/logs.ts' && e.to === 'src/session/index.ts')).toBe(true);
    expect(edges.some((e) => e.from === 'src/observe/log-stream.ts' && e.to === 'src/session/index.ts')).toBe(true);
  });

  it('every layer imports only the layers it may', () => {
    const bad = edges
      .filter((e) => !(ALLOWED[layerOf(e.from)!] ?? []).includes(layerOf(e.to)!))
      .map((e) => `${e.from} -> ${e.to}`);
    expect(bad).toEqual([]);
  });

  it('an import from another layer goes through its index.ts', () => {
    const bad = edges
      .filter((e) => !/^src\/[a-z]+\/index\.ts$/.test(e.to) && !LEAF_FILES.has(e.to))
      .map((e) => `${e.from} -> ${e.to}`)
      .filter((e) => !DIRECT_IMPORTS.has(e));
    expect(bad).toEqual([]);
  });

  it('the leaf files import nothing', () => {
    for (const f of LEAF_FILES)
      expect({ f, imports: /^\s*import\s/m.test(readFileSync(join(root, f), 'utf8')) }).toEqual({ f, imports: false });
  });

  it('only the session layer connects: no other layer or command reaches the plugin SDK', () => {
    // trace's probes, too, register through the session (its ProbeSet).
    const importers = new Set(edges.filter((e) => e.to.startsWith('src/plugin/')).map((e) => layerOf(e.from)));
    expect([...importers]).toEqual(['session']);
  });

  it('no library layer knows the command line', () => {
    expect(
      edges.filter((e) => e.to.startsWith('src/cli/') && layerOf(e.from) !== 'commands').map((e) => e.from),
    ).toEqual([]);
  });
});
