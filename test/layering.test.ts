// Holds the layer map of docs/contracts.md: which layer may import which, and that an
// import from another layer goes through that layer's index.ts. Static and dynamic
// imports count alike (a lazy import is still a dependency); so do `import type` ones.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(dirname(new URL(import.meta.url).pathname), '..');

/** Who may import whom. A layer not listed for another may not import it at all. */
const ALLOWED: Record<string, readonly string[]> = {
  // ttrpc and mux stand alone (they could ship on their own): they spell the error kinds out,
  // and share only framing, the length-prefix decoder and Go's buffer size, which imports nothing.
  framing: [],
  ttrpc: ['framing'],
  mux: ['framing'],
  errors: [],
  units: ['errors'],
  api: ['errors'],
  plugin: ['api', 'mux', 'ttrpc', 'errors'],
  // The simulator judges expectations (src/expect: the file and the judging, which know no runtime).
  runtime: ['api', 'mux', 'ttrpc', 'checks', 'render', 'units', 'expect', 'errors'],
  checks: ['api', 'render', 'units', 'errors'],
  render: ['api', 'units', 'errors'],
  session: ['api', 'plugin', 'units', 'checks', 'runtime', 'errors'],
  observe: ['api', 'render', 'session', 'units', 'errors'],
  control: ['api', 'render', 'session', 'units', 'errors'],
  cli: ['api', 'render', 'session', 'units', 'errors'],
  // trace's probes register through the session's ProbeSet, as every connecting command does.
  trace: ['api', 'render', 'session', 'checks', 'units', 'errors'],
  // doctor below the command line: the offline checks, the runtime's answer through the
  // session, the plugins' latency through the tracer; no layer below may reach all three.
  diagnose: ['api', 'checks', 'session', 'trace', 'errors'],
  expect: ['api', 'checks', 'units', 'errors'],
  bundle: ['api', 'render', 'errors'],
  scaffold: ['errors'],
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
    'diagnose',
    'expect',
    'bundle',
    'scaffold',
    'cli',
    'errors',
  ],
};

/**
 * Type-only imports a layer may make beyond ALLOWED: render's views know the shapes of
 * the results they show, and nothing of those layers is loaded for it.
 */
const TYPES_ALLOWED: Record<string, readonly string[]> = {
  // sim's prompt and options know the simulator's shapes; the simulator loads with the command.
  cli: ['runtime'],
  render: [
    'checks',
    'session',
    'runtime',
    'observe',
    'control',
    'trace',
    'expect',
    'scaffold',
    'bundle',
    'plugin',
    'diagnose',
  ],
};

/** Files that import nothing and may be imported directly, so that light code need not load their layer's index. */
const LEAF_FILES = new Set([
  'src/api/plugin-name.ts',
  'src/api/socket-path.ts',
  'src/api/runtime-identity.ts',
  'src/api/schema-version.ts',
]);

/**
 * Known direct imports, each with its reason; a new one needs a line here. The checks'
 * table must not load render's index (and with it the YAML writer) at start-up.
 */
const DIRECT_IMPORTS = new Set([
  'src/checks/table.ts -> src/render/findings-layout.ts',
  'src/checks/table.ts -> src/render/output-width.ts',
  // The simulator's data view converts with the protobuf classes: render's index must not load them.
  'commands/sim.ts -> src/render/views/sim-event-data.ts',
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

function crossLayerImports(): Edge[] {
  const edges: Edge[] = [];
  for (const file of [...filesUnder('src'), ...filesUnder('commands')]) {
    const text = readFileSync(join(root, file), 'utf8');
    const statements =
      /^\s*(?:import|export)\s+(type\s+)?[^;]*?\bfrom\s+'(\.[^']+)'|\bimport\s*\(\s*'(\.[^']+)'|^\s*import\s+'(\.[^']+)'/gms;
    for (const m of text.matchAll(statements)) {
      const spec = m[2] ?? m[3] ?? m[4];
      const target = relative(root, resolve(root, dirname(file), spec)).replace(/\.js$/, '.ts');
      if (layerOf(target) !== layerOf(file)) edges.push({ from: file, to: target, spec, typeOnly: m[1] !== undefined });
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
    // ... and tells a type-only import (a view's) from one that loads the module.
    expect(
      edges.find((e) => e.from === 'src/render/views/findings.ts' && e.to === 'src/checks/index.ts'),
    ).toMatchObject({
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
