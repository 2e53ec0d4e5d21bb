// readFleet against a real HTTP server answering as Prometheus' API does (fake-prometheus.ts).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { instantQuery, prometheusUrl, readFleet, type FleetReport } from '../../src/fleet/index.js';
import { exporterSeries, startFakePrometheus, type FakePrometheus } from './fake-prometheus.js';
import { BUSY_MACHINE_MARGIN_MS } from '../support/margin.js';

const NOW = 1_800_000_000;
const opts = { timeoutMs: 2000, lookbackMs: 3600_000, staleAfterMs: 120_000, now: NOW * 1000 };
const live = { from: NOW - 600, to: NOW - 5, every: 15 };
let fake: FakePrometheus | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const node = (r: FleetReport, name: string) => {
  const n = r.nodes.find((x) => x.node === name);
  expect(n, `node ${name} listed`).toBeDefined();
  return n!;
};

describe('readFleet', () => {
  it('makes a row per node from the exporters’ series, and fails the nodes with a problem', async () => {
    fake = await startFakePrometheus([
      ...exporterSeries(
        { job: 'nrictl-exporter', instance: '10.0.0.1:9641', node: 'n1' },
        { plugins: { active: 2, 'pre-started': 1 }, conformance: { pass: 20, skip: 2 } },
        live,
      ),
      ...exporterSeries(
        { job: 'nrictl-exporter', instance: '10.0.0.2:9641', node: 'n2' },
        {
          runtime: ['cri-o', '1.31.1', ''],
          plugins: { active: 1, dropped: 1, 'not-running': 1 },
          named: [
            ['topology-aware', '10', 'dropped'],
            ['sriov', '20', 'not-running'],
          ],
          findings: { error: 1, warning: 2 },
          codes: [['error', 'socket-mode', 1]],
          conformance: { pass: 18, fail: 1, error: 1 },
          failedChecks: ['stop-pod/no-reuse', 'update/rejected'],
        },
        live,
      ),
    ]);
    const r = await readFleet({ ...opts, prometheus: fake.url });
    expect(r.nodes.map((n) => n.node)).toEqual(['n1', 'n2']);
    expect(r.failing).toBe(1);
    const n1 = node(r, 'n1');
    expect(n1).toMatchObject({
      up: true,
      stale: false,
      instances: ['10.0.0.1:9641'],
      runtimes: [{ runtime: 'containerd', version: '2.1.0', nriVersion: '0.9.0' }],
      problems: [],
      conformance: { pass: 20, fail: 0, skip: 2, error: 0 },
    });
    expect(n1.plugins).toMatchObject({ active: 2, 'pre-started': 1, dropped: 0 });
    expect(n1.lastSample).toBe(NOW - 15);
    const n2 = node(r, 'n2');
    expect(n2.runtimes).toEqual([{ runtime: 'cri-o', version: '1.31.1', nriVersion: '' }]);
    expect(n2.pluginsNamed).toEqual([
      { plugin: 'topology-aware', index: '10', state: 'dropped' },
      { plugin: 'sriov', index: '20', state: 'not-running' },
    ]);
    expect(n2.errorCodes).toEqual(['socket-mode']);
    expect(n2.failedChecks).toEqual(['stop-pod/no-reuse', 'update/rejected']);
    expect(n2.problems).toEqual(['1 error finding', '1 plugin dropped', '2 conformance checks failed']);
  });

  it('keeps a node that stopped reporting, as stale, with its last word; forgets it past the lookback', async () => {
    fake = await startFakePrometheus([
      // Its scrape failed a minute ago: Prometheus wrote staleness markers.
      ...exporterSeries(
        { instance: 'a:9641', node: 'gone' },
        { plugins: { active: 3 } },
        {
          ...live,
          to: NOW - 75,
          staleAfterLast: true,
        },
      ),
      // No marker, but no sample for 3 minutes either (Prometheus still returns it for 5).
      ...exporterSeries({ instance: 'b:9641', node: 'quiet' }, {}, { ...live, to: NOW - 180 }),
      // Two hours ago: outside the lookback.
      ...exporterSeries({ instance: 'c:9641', node: 'old' }, {}, { from: NOW - 9000, to: NOW - 7200, every: 15 }),
      ...exporterSeries({ instance: 'd:9641', node: 'fine' }, {}, live),
    ]);
    const r = await readFleet({ ...opts, prometheus: fake.url });
    expect(r.nodes.map((n) => n.node)).toEqual(['fine', 'gone', 'quiet']);
    const gone = node(r, 'gone');
    expect(gone).toMatchObject({
      stale: true,
      up: true,
      lastSample: undefined,
      lastRefresh: NOW - 75,
      problems: ['stale'],
    });
    expect(gone.plugins?.active).toBe(3);
    expect(gone.runtimes).toEqual([{ runtime: 'containerd', version: '2.1.0', nriVersion: '0.9.0' }]);
    expect(node(r, 'quiet')).toMatchObject({ stale: true, lastSample: NOW - 180, problems: ['stale'] });
    expect(node(r, 'fine').stale).toBe(false);
    expect(r.failing).toBe(2);
  });

  it('says a node is down when its runtime does not accept the exporter', async () => {
    fake = await startFakePrometheus(exporterSeries({ instance: 'a:9641', node: 'n1' }, { up: 0 }, live));
    const r = await readFleet({ ...opts, prometheus: fake.url });
    expect(node(r, 'n1')).toMatchObject({ up: false, stale: false, problems: ['NRI down'] });
  });

  it('names a node by its instance when the target has no node label', async () => {
    fake = await startFakePrometheus(exporterSeries({ job: 'nrictl-exporter', instance: '127.0.0.1:9641' }, {}, live));
    const r = await readFleet({ ...opts, prometheus: fake.url });
    expect(r.nodes.map((n) => n.node)).toEqual(['127.0.0.1:9641']);
  });

  it('narrows every query to the selector, quoted as a PromQL string', async () => {
    fake = await startFakePrometheus([
      ...exporterSeries({ instance: 'a', node: 'gpu-1', pool: 'gpu "a"' }, {}, live),
      ...exporterSeries({ instance: 'b', node: 'cpu-1', pool: 'cpu' }, { up: 0 }, live),
    ]);
    const r = await readFleet({ ...opts, prometheus: fake.url, selector: 'pool=gpu "a"' });
    expect(r.nodes.map((n) => n.node)).toEqual(['gpu-1']);
    expect(r.failing).toBe(0);
    expect(fake.queries.length).toBeGreaterThan(5);
    for (const q of fake.queries) expect(q).toContain('pool="gpu \\"a\\""');
    const other = await readFleet({ ...opts, prometheus: fake.url, selector: 'pool!=gpu "a", node=cpu-1' });
    expect(other.nodes.map((n) => n.node)).toEqual(['cpu-1']);
  });

  it.each([
    ['pool', /"pool" is not key=value/],
    ['1pool=x', /"1pool" is not a label name/],
    ['__name__=up', /__name__: labels starting with __/],
  ])('refuses the selector %j before asking anything', async (selector, why) => {
    fake = await startFakePrometheus([]);
    const err = await readFleet({ ...opts, prometheus: fake.url, selector }).catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: 'usage', option: 'selector', message: expect.stringMatching(why) });
    expect(fake.queries).toEqual([]);
  });

  it('asks for a value with PromQL in it as a literal value, never as PromQL', async () => {
    fake = await startFakePrometheus(exporterSeries({ instance: 'a', node: 'n1', pool: 'x' }, {}, live));
    const r = await readFleet({ ...opts, prometheus: fake.url, selector: 'pool=x"} or up{pool="x' });
    expect(r.nodes).toEqual([]);
    expect(fake.queries[0]).toBe('last_over_time(nrictl_nri_up{pool="x\\"} or up{pool=\\"x"}[3600s])');
  });

  it('lists no node when none reported, and says so in the report', async () => {
    fake = await startFakePrometheus([]);
    const r = await readFleet({ ...opts, prometheus: fake.url });
    expect(r).toMatchObject({ nodes: [], failing: 0, lookbackSeconds: 3600 });
  });
});

/** A server that answers every request with `handler`. */
async function serve(handler: http.RequestListener): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('a URL that is not a Prometheus that answers', () => {
  const read = (prometheus: string, timeoutMs = 2000) =>
    readFleet({ ...opts, timeoutMs, prometheus }).catch((e: unknown) => e);

  it('nothing listening: unreachable', async () => {
    const s = await serve(() => {});
    const url = s.url;
    await s.close();
    expect(await read(url)).toMatchObject({
      kind: 'bad-source',
      code: 'unreachable',
      message: expect.stringMatching(/ECONNREFUSED/),
    });
  });

  it.each([
    ['an HTML page', 200, 'text/html', '<html>hello</html>', /not Prometheus' HTTP API: an answer that is not JSON/],
    ['an HTTP error', 502, 'text/plain', 'bad gateway', /not Prometheus' HTTP API: HTTP 502/],
    // Not followed (a login page, another host): said as what it is, not as unreachable.
    [
      'a redirect',
      302,
      'text/html',
      '<a href="/login">moved</a>',
      /not Prometheus' HTTP API: HTTP 302 to \/api\/v1\/query/,
    ],
    ['JSON of something else', 200, 'application/json', '{"ok":true}', /has no "status"/],
    [
      'a matrix where a vector was asked for',
      200,
      'application/json',
      '{"status":"success","data":{"resultType":"matrix","result":[]}}',
      /result type matrix, not vector/,
    ],
    [
      'a refused query',
      400,
      'application/json',
      '{"status":"error","errorType":"bad_data","error":"parse error"}',
      /refused the query \(bad_data: parse error\)/,
    ],
  ])('%s: one line of why', async (_what, status, type, body, why) => {
    const s = await serve((_req, res) => {
      res.writeHead(status, { 'content-type': type });
      res.end(body);
    });
    try {
      const err = await read(s.url);
      expect(err).toMatchObject({ kind: 'bad-source', option: 'prometheus', message: expect.stringMatching(why) });
      expect((err as Error).message).not.toContain('\n');
    } finally {
      await s.close();
    }
  });

  it('no answer within the deadline: timeout, on time', async () => {
    const s = await serve(() => {}); // accepts, never answers
    try {
      const started = Date.now();
      const err = await read(s.url, 300);
      expect(err).toMatchObject({
        kind: 'bad-source',
        code: 'timeout',
        message: expect.stringMatching(/within 300 ms/),
      });
      // The server never answers: without the deadline the read would wait for good.
      expect(Date.now() - started).toBeLessThan(300 + BUSY_MACHINE_MARGIN_MS);
    } finally {
      await s.close();
    }
  });

  it('an answer past the bound is not read', async () => {
    const s = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(
        `{"status":"success","data":{"resultType":"vector","result":[${'{"metric":{},"value":[1,"1"]},'.repeat(2000)}`,
      );
      res.end('{"metric":{},"value":[1,"1"]}]}}');
    });
    try {
      const err = await instantQuery(prometheusUrl(s.url), 'up', { timeoutMs: 2000, time: NOW, maxBytes: 4096 }).catch(
        (e: unknown) => e,
      );
      expect(err).toMatchObject({ code: 'too-large', message: expect.stringMatching(/more than 4096 bytes/) });
    } finally {
      await s.close();
    }
  });

  it('cancelled by the caller: failed, not the URL’s fault', async () => {
    const s = await serve(() => {});
    try {
      const ac = new AbortController();
      setTimeout(() => ac.abort(), 50);
      const err = await readFleet({ ...opts, prometheus: s.url }, ac.signal).catch((e: unknown) => e);
      expect(err).toMatchObject({ kind: 'failed', code: 'cancelled' });
    } finally {
      await s.close();
    }
  });

  it.each([
    ['ftp://x', /ftp: is not Prometheus' scheme/],
    ['http://x:9090/?a=1', /without a query/],
    ['http://[::1', /is not a URL/],
  ])('%j: refused before any request', (text, why) => {
    expect(() => prometheusUrl(text)).toThrow(why);
  });

  it('keeps a path prefix Prometheus is served under', () => {
    expect(prometheusUrl('prom.example:9090/prometheus').href).toBe('http://prom.example:9090/prometheus/');
  });
});
