import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { staticGraph } from '../support/static-graph.js';

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
