// Holds the layer map of docs/architecture.md: which layer may import which, and that an
// import from another layer goes through that layer's index.ts. Static and dynamic
// imports count alike (a lazy import is still a dependency); so do `import type` ones.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(dirname(new URL(import.meta.url).pathname), '..');

/**
 * Who may import whom: the table of docs/architecture.md, the one description of the
 * layers. A layer not listed for another may not import it at all; "types only" layers
 * may be named in `import type` (the views know the shapes of the results they show).
 */
const { ALLOWED, TYPES_ALLOWED } = layerTable(readFileSync(join(root, 'docs', 'architecture.md'), 'utf8'));

function layerTable(doc: string): {
  ALLOWED: Record<string, readonly string[]>;
  TYPES_ALLOWED: Record<string, readonly string[]>;
} {
  const block = /<!-- layers -->\n([\s\S]*?)<!-- \/layers -->/.exec(doc)?.[1] ?? '';
  const allowed: Record<string, string[]> = {};
  const types: Record<string, string[]> = {};
  const list = (cell: string) => (cell.trim() === '-' ? [] : cell.split(',').map((l) => l.trim()));
  for (const row of block.split('\n').slice(2)) {
    const cells = row.split('|').slice(1, -1);
    if (cells.length !== 4) continue;
    const layer = cells[0].trim();
    allowed[layer] = list(cells[2]);
    types[layer] = list(cells[3]);
  }
  return { ALLOWED: allowed, TYPES_ALLOWED: types };
}

/** Files that import nothing of this project and may be imported directly, so that light code need not load their layer's index. */
const LEAF_FILES = new Set([
  'src/api/plugin-name.ts',
  'src/api/socket-path.ts',
  'src/api/runtime-identity.ts',
  'src/api/release-version.ts',
  'src/api/short-id.ts',
  'src/api/schema-version.ts',
  'src/api/plugin-log.ts',
  'src/api/event-names.ts',
]);

/** Known direct imports, each with its reason; a new one needs a line here. */
const DIRECT_IMPORTS = new Set([
  // The simulator's data view converts with the protobuf classes: the views' index must not load them.
  'commands/sim.ts -> src/views/sim-event-data.ts',
  // The CRI bindings need protobufjs's process-wide settings, not the NRI bindings that api's index loads.
  'src/cri/schema.ts -> src/api/protobuf.ts',
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
  /** `import type` / `export type`: erased, loads nothing. */
  typeOnly: boolean;
}

function allImports(): Edge[] {
  const edges: Edge[] = [];
  for (const file of [...filesUnder('src'), ...filesUnder('commands')]) {
    const text = readFileSync(join(root, file), 'utf8');
    const statements =
      /^\s*(?:import|export)\s+(type\s+)?[^;]*?\bfrom\s+'(\.[^']+)'|\bimport\s*\(\s*'(\.[^']+)'|^\s*import\s+'(\.[^']+)'/gms;
    for (const m of text.matchAll(statements)) {
      const spec = m[2] ?? m[3] ?? m[4];
      const target = relative(root, resolve(root, dirname(file), spec)).replace(/\.js$/, '.ts');
      edges.push({ from: file, to: target, spec, typeOnly: m[1] !== undefined });
    }
  }
  return edges;
}

function crossLayerImports(): Edge[] {
  return allImports().filter((e) => layerOf(e.to) !== layerOf(e.from));
}

/** The circles of a graph (Tarjan's strongly connected components of two or more files, or one that imports itself). */
function circles(edges: Edge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const e of edges) next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do component.push((w = stack.pop()!));
    while (w !== v);
    if (component.length > 1 || (next.get(v) ?? []).includes(v)) found.push(component.sort());
  };
  for (const v of next.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe('the layer map', () => {
  const edges = crossLayerImports();

  it('docs/architecture.md has one row for each folder of src/, and commands', () => {
    const folders = readdirSync(join(root, 'src'), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
    expect(Object.keys(ALLOWED).sort()).toEqual([...folders, 'commands'].sort());
    for (const [layer, may] of Object.entries(ALLOWED))
      for (const other of [...may, ...TYPES_ALLOWED[layer]])
        expect(ALLOWED, `${layer} names ${other}`).toHaveProperty(other);
  });

  it('finds the imports it checks', () => {
    // The walk really parsed the sources: commands import the session and the CLI layer.
    expect(edges.some((e) => e.from === 'commands/logs.ts' && e.to === 'src/session/index.ts')).toBe(true);
    expect(edges.some((e) => e.from === 'src/observe/log-stream.ts' && e.to === 'src/session/index.ts')).toBe(true);
    // ... and tells a type-only import (a view's) from one that loads the module.
    expect(edges.find((e) => e.from === 'src/views/findings.ts' && e.to === 'src/checks/index.ts')).toMatchObject({
      typeOnly: true,
    });
    expect(edges.find((e) => e.from === 'commands/validate.ts' && e.to === 'src/checks/index.ts')).toMatchObject({
      typeOnly: false,
    });
  });

  it('every layer imports only the layers it may', () => {
    const bad = edges
      .filter((e) => !(ALLOWED[layerOf(e.from)!] ?? []).includes(layerOf(e.to)!))
      .filter((e) => !(e.typeOnly && (TYPES_ALLOWED[layerOf(e.from)!] ?? []).includes(layerOf(e.to)!)))
      .map((e) => `${e.from} -> ${e.to}`);
    expect(bad).toEqual([]);
  });

  it('no file imports itself back, through any number of files, type-only imports included', () => {
    expect(
      circles([
        { from: 'a', to: 'b', spec: '', typeOnly: true },
        { from: 'b', to: 'a', spec: '', typeOnly: false },
      ]),
    ).toEqual([['a', 'b']]);
    expect(circles(allImports())).toEqual([]);
  });

  it('an import from another layer goes through its index.ts', () => {
    const bad = edges
      .filter((e) => !/^src\/[a-z]+\/index\.ts$/.test(e.to) && !LEAF_FILES.has(e.to))
      .map((e) => `${e.from} -> ${e.to}`)
      .filter((e) => !DIRECT_IMPORTS.has(e));
    expect(bad).toEqual([]);
  });

  it("the leaf files import nothing of this project (Node's own modules load nothing of a layer)", () => {
    for (const f of LEAF_FILES)
      expect({ f, imports: /^\s*import\s[^;]*from\s+'(?!node:)/m.test(readFileSync(join(root, f), 'utf8')) }).toEqual({
        f,
        imports: false,
      });
  });

  it('only the session layer connects: no other layer or command reaches the plugin SDK', () => {
    // trace's probes, too, register through the session (its ProbeSet).
    const importers = new Set(edges.filter((e) => e.to.startsWith('src/plugin/')).map((e) => layerOf(e.from)));
    expect([...importers]).toEqual(['session']);
  });

  it("the runtime's two parts: the adaptation knows nothing of the simulated runtime built on it", () => {
    // src/runtime/adaptation is the port of containerd/nri pkg/adaptation; src/runtime/sim
    // embeds it as a container runtime does. The adaptation may use the layer's shared
    // event vocabulary (src/runtime/events.ts) and nothing else outside its folder.
    const inside = [...filesUnder('src/runtime/adaptation')];
    expect(inside.length).toBeGreaterThan(5);
    const bad: string[] = [];
    for (const file of inside) {
      const text = readFileSync(join(root, file), 'utf8');
      for (const m of text.matchAll(/\bfrom\s+'(\.[^']+)'|\bimport\s*\(\s*'(\.[^']+)'/g)) {
        const target = relative(root, resolve(root, dirname(file), m[1] ?? m[2])).replace(/\.js$/, '.ts');
        if (
          target.startsWith('src/runtime/') &&
          !target.startsWith('src/runtime/adaptation/') &&
          target !== 'src/runtime/events.ts'
        )
          bad.push(`${file} -> ${target}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('no library layer knows the command line', () => {
    expect(
      edges.filter((e) => e.to.startsWith('src/cli/') && layerOf(e.from) !== 'commands').map((e) => e.from),
    ).toEqual([]);
  });
});
