// `nrictl fleet` through the built CLI, against a real HTTP server answering as Prometheus'
// API does (test/fleet/fake-prometheus.ts): the table, the formats, the gate's exit status,
// one line and exit 2 for a URL that is not a Prometheus.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { exporterSeries, startFakePrometheus, type FakePrometheus } from '../fleet/fake-prometheus.js';
import { assertBuilt, runCli } from './nri-cli.js';

beforeAll(() => assertBuilt('fleet'));
let fake: FakePrometheus | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const now = (): number => Math.floor(Date.now() / 1000);
const live = () => ({ from: now() - 300, to: now(), every: 15 });
const healthy = (node: string, runtime: [string, string, string]) =>
  exporterSeries(
    { job: 'nrictl-exporter', instance: `${node}:9641`, node },
    { runtime, plugins: { active: 2 } },
    live(),
  );

describe('nrictl fleet', () => {
  it('lists every node with its runtime, and exits 0 when all are well', async () => {
    fake = await startFakePrometheus([
      ...healthy('node-a', ['containerd', '2.1.1', '0.9.0']),
      ...healthy('node-b', ['cri-o', '1.31.0', '']),
    ]);
    const r = await runCli(['fleet', '--prometheus', fake.url]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^NODE\s+RUNTIME\s+NRI\s+UP\s+PLUGINS\s+FINDINGS\s+CONFORMANCE$/);
    expect(lines[1]).toMatch(
      /^node-a\s+containerd 2\.1\.1\s+0\.9\.0\s+yes\s+2 active, 0 dropped, 0 not running\s+none\s+no report$/,
    );
    expect(lines[2]).toMatch(/^node-b\s+cri-o 1\.31\.0\s+\?\s+yes/);
    expect(lines).toHaveLength(3);
  });

  it('exits 1 naming the node that is down, stale or dropped a plugin, and why', async () => {
    fake = await startFakePrometheus([
      ...healthy('node-a', ['containerd', '2.1.1', '0.9.0']),
      ...exporterSeries({ instance: 'b:9641', node: 'node-b' }, { up: 0 }, live()),
      ...exporterSeries(
        { instance: 'c:9641', node: 'node-c' },
        {},
        { ...live(), to: now() - 60, staleAfterLast: true },
      ),
      ...exporterSeries(
        { instance: 'd:9641', node: 'node-d' },
        { plugins: { dropped: 1 }, named: [['topology-aware', '10', 'dropped']] },
        live(),
      ),
    ]);
    const r = await runCli(['fleet', '--prometheus', fake.url, '-o', 'wide']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^node-b\s.*\sno\s/m);
    expect(r.stdout).toMatch(/^node-c\s.*\sstale \(\d+ s ago\)\s/m);
    expect(r.stdout).toMatch(/^node-d\s.*1 dropped.*10-topology-aware dropped/m);
    expect(r.stdout).toContain(
      '3 of 4 nodes need a look: node-b (NRI down); node-c (stale); node-d (1 plugin dropped).',
    );
  });

  // every-format.test.ts cannot run fleet (its tour is offline): each format is read here.
  it.each([
    ['table', (out: string) => expect(out.split('\n')[0]).toMatch(/^NODE\s/)],
    ['wide', (out: string) => expect(out.split('\n')[0]).toMatch(/^NODE\s/)],
    ['json', (out: string) => expect(JSON.parse(out)).toMatchObject({ nodes: [{ node: 'node-a' }] })],
    ['yaml', (out: string) => expect(YAML.parse(out)).toMatchObject({ nodes: [{ node: 'node-a' }] })],
    ['name', (out: string) => expect(out.trim().split('\n')).toEqual(['node-a'])],
  ])('-o %s prints what a reader of that format can read', async (format, read) => {
    fake = await startFakePrometheus(healthy('node-a', ['containerd', '2.1.1', '0.9.0']));
    const r = await runCli(['fleet', '--prometheus', fake.url, '-o', format]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    read(r.stdout.trim());
  });

  it('-o json: the report, for a gate that reads it', async () => {
    fake = await startFakePrometheus(healthy('node-a', ['containerd', '2.1.1', '0.9.0']));
    const r = await runCli(['fleet', '--prometheus', fake.url, '-o', 'json', '-l', 'job=nrictl-exporter']);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as {
      selector: string;
      nodes: Array<{ node: string; up: boolean; stale: boolean }>;
    };
    expect(doc.selector).toBe('job="nrictl-exporter"');
    expect(doc.nodes).toMatchObject([{ node: 'node-a', up: true, stale: false, problems: [] }]);
  });

  it('no node at all: says so, and exits 1', async () => {
    fake = await startFakePrometheus([]);
    const r = await runCli(['fleet', '--prometheus', fake.url, '-l', 'pool=none']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      /No node reported nrictl_nri_up\{pool="none"\} to http:\/\/127\.0\.0\.1:\d+\/ in the last 3600 s/,
    );
  });

  it.each([
    [
      'nothing listening',
      async () => `http://127.0.0.1:${await freePort()}`,
      /^Error: --prometheus: cannot reach Prometheus at http:\/\/127\.0\.0\.1:\d+\/: ECONNREFUSED\n$/,
    ],
    [
      'not a URL',
      () => Promise.resolve('ftp://x'),
      /^Error: --prometheus: ftp: is not Prometheus' scheme: give an http:\/\/ or https:\/\/ URL\n$/,
    ],
  ])('%s: one line, exit 2', async (_what, url, line) => {
    const r = await runCli(['fleet', '--prometheus', await url()]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(line);
    expect(r.stdout).toBe('');
  });

  it('a web server that is not Prometheus: one line, exit 2', async () => {
    const server = http.createServer((_req, res) => res.end('<html>welcome</html>'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const r = await runCli(['fleet', '--prometheus', `http://127.0.0.1:${port}`]);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(
        `Error: --prometheus: http://127.0.0.1:${port}/ is not Prometheus' HTTP API: an answer that is not JSON to /api/v1/query\n`,
      );
    } finally {
      server.close();
    }
  });

  it('a Prometheus that does not answer within --timeout: one line, exit 2, on time', async () => {
    const server = http.createServer(() => {});
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const r = await runCli(['fleet', '--prometheus', `http://127.0.0.1:${port}`, '--timeout', '300ms']);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/did not answer within 300 ms \(--timeout\)\n$/);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it('a bad selector: one line naming the flag, exit 2, nothing asked', async () => {
    fake = await startFakePrometheus([]);
    const r = await runCli(['fleet', '--prometheus', fake.url, '-l', 'node']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('Error: --selector: "node" is not key=value or key!=value (several joined by commas)\n');
    expect(fake.queries).toEqual([]);
  });
});

async function freePort(): Promise<number> {
  const s = http.createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}
