// trace names external plugins from the runtime's metrics (containerd 2.3): a real HTTP
// server on 127.0.0.1 serves the recorded page; a dropped plugin is not named as present.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mergeInstalled, pluginsFromRuntimeMetrics, planProbes } from '../../src/trace/index.js';

let server: Server;
let address = '';
beforeAll(async () => {
  const page = readFileSync(new URL('../fixtures/containerd-metrics/dropped-30-slow.prom', import.meta.url), 'utf8');
  server = createServer((_req, res) => res.end(page));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  address = `127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("trace's plugin names from the runtime's metrics", () => {
  it('names the active plugins, external ones included, and leaves out the dropped one', async () => {
    const named = await pluginsFromRuntimeMetrics(address);
    expect(named.note).toBeUndefined();
    expect(named.plugins.map((p) => `${p.index}-${p.name} ${p.source}`)).toEqual([
      '10-resource-policy runtime-metrics',
      '50-logger runtime-metrics',
    ]);
    // --index 50 then names "50-logger", not "index 50".
    const merged = mergeInstalled(named.plugins, [{ index: '50', source: 'index-flag' }]);
    const labels = planProbes(merged).segments.map((s) => s.label);
    expect(labels).toContain('50-logger');
    expect(labels.join(' ')).not.toContain('index 50');
  });

  it('an address nobody serves: no names, a note, and no error', async () => {
    const named = await pluginsFromRuntimeMetrics('127.0.0.1:1');
    expect(named.plugins).toEqual([]);
    expect(named.note).toMatch(
      /^external plugins not named: the runtime's metrics were not read \(cannot read .*ECONNREFUSED\)$/,
    );
  });
});
