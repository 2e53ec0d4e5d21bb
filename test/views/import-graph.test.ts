// The views and the output layer are loaded by every command that prints; the protobuf
// bindings only by the commands that speak the protocol. The one view that converts with
// the bindings (the simulator's data form) stays out of the views' index.
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { staticGraph } from '../support/static-graph.js';

const root = join(dirname(new URL(import.meta.url).pathname), '..', '..');
const bindings = (graph: Set<string>): string[] =>
  [...graph].filter(
    (f) => f.endsWith('/src/api/schema.ts') || f.endsWith('/src/api/index.ts') || f.startsWith('protobufjs'),
  );

describe('what the views and the output layer load', () => {
  it.each(['src/output/index.ts', 'src/views/index.ts'])('%s does not load the protobuf bindings', (entry) => {
    const graph = staticGraph(join(root, entry));
    expect(graph.size).toBeGreaterThan(5);
    expect(bindings(graph)).toEqual([]);
  });

  it("the simulator's data form does, and so stays out of the index", () => {
    expect(bindings(staticGraph(join(root, 'src/views/sim-event-data.ts')))).not.toEqual([]);
    expect(staticGraph(join(root, 'src/views/index.ts')).has(join(root, 'src/views/sim-event-data.ts'))).toBe(false);
  });
});
