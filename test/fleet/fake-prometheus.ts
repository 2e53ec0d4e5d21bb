// A small Prometheus for tests: a real HTTP server on loopback answering /api/v1/query as
// Prometheus does (its JSON, its 5-minute lookback, its staleness markers, last_over_time
// skipping them, timestamp() giving the sample's own time), for the few expression shapes
// fleet asks: NAME{matchers}, last_over_time(NAME{matchers}[Ns]), timestamp(NAME{matchers})
// and NAME{matchers} > 0. Anything else is refused as Prometheus refuses a bad query, so a
// query fleet did not mean to send fails the test. The real Prometheus is tried in
// test/deploy/prometheus.test.ts.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeSeries {
  labels: Record<string, string>;
  /** [unix seconds, value]; value 'stale' is Prometheus' staleness marker. */
  samples: Array<[number, number | 'stale']>;
}

const LOOKBACK_DELTA = 300;

export interface FakePrometheus {
  url: string;
  queries: string[];
  series: FakeSeries[];
  close(): Promise<void>;
}

type Matcher = { name: string; op: string; value: string };

function parseMatchers(text: string): Matcher[] {
  const out: Matcher[] = [];
  const re = /\s*([a-zA-Z_][a-zA-Z0-9_]*)\s*(=~|!~|!=|=)\s*("(?:[^"\\]|\\.)*")\s*(,|$)/y;
  let m: RegExpExecArray | null;
  while (re.lastIndex < text.length && (m = re.exec(text))) out.push({ name: m[1], op: m[2], value: JSON.parse(m[3]) });
  if (re.lastIndex !== text.length && text.trim() !== '') throw new Error(`bad matchers: ${text}`);
  return out;
}

function matches(labels: Record<string, string>, ms: Matcher[]): boolean {
  return ms.every((m) => {
    const v = labels[m.name] ?? '';
    if (m.op === '=') return v === m.value;
    if (m.op === '!=') return v !== m.value;
    const re = new RegExp(`^(?:${m.value})$`);
    return m.op === '=~' ? re.test(v) : !re.test(v);
  });
}

/** Evaluates one of the shapes fleet asks; throws for anything else. */
function evaluate(
  series: FakeSeries[],
  query: string,
  at: number,
): Array<{ metric: Record<string, string>; value: [number, string] }> {
  const sel = /^([a-z_:][a-z0-9_:]*)\{((?:[^"}]|"(?:[^"\\]|\\.)*")*)\}/i;
  let m: RegExpExecArray | null;
  let kind: 'instant' | 'last' | 'timestamp' | 'positive';
  let range = 0;
  let inner: string;
  if ((m = /^last_over_time\((.*)\[(\d+)s\]\)$/.exec(query))) [kind, inner, range] = ['last', m[1], Number(m[2])];
  else if ((m = /^timestamp\((.*)\)$/.exec(query))) [kind, inner] = ['timestamp', m[1]];
  else if ((m = /^(.*) > 0$/.exec(query))) [kind, inner] = ['positive', m[1]];
  else [kind, inner] = ['instant', query];
  const s = sel.exec(inner);
  if (!s || s[0] !== inner) throw new Error(`unsupported query: ${query}`);
  const matchers = [{ name: '__name__', op: '=', value: s[1] }, ...parseMatchers(s[2])];
  const out = [];
  for (const x of series) {
    if (!matches(x.labels, matchers)) continue;
    const before = x.samples.filter(([t]) => t <= at).sort((a, b) => a[0] - b[0]);
    let sample: [number, number | 'stale'] | undefined;
    if (kind === 'last') sample = before.filter(([t, v]) => v !== 'stale' && t > at - range).at(-1);
    else {
      const latest = before.at(-1);
      sample = latest && latest[1] !== 'stale' && latest[0] > at - LOOKBACK_DELTA ? latest : undefined;
    }
    if (!sample) continue;
    const value = kind === 'timestamp' ? sample[0] : (sample[1] as number);
    if (kind === 'positive' && !(value > 0)) continue;
    // Functions drop the metric name, as Prometheus does; a plain selector and a filter keep it.
    const { __name__, ...rest } = x.labels;
    const metric = kind === 'last' || kind === 'timestamp' ? rest : { __name__: __name__, ...rest };
    out.push({ metric, value: [at, String(value)] as [number, string] });
  }
  return out;
}

export async function startFakePrometheus(series: FakeSeries[] = []): Promise<FakePrometheus> {
  const queries: string[] = [];
  const state = { series };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (url.pathname !== '/api/v1/query')
      return send(404, { status: 'error', errorType: 'not_found', error: 'not found' });
    const query = url.searchParams.get('query') ?? '';
    const at = Number(url.searchParams.get('time') ?? Date.now() / 1000);
    queries.push(query);
    try {
      send(200, { status: 'success', data: { resultType: 'vector', result: evaluate(state.series, query, at) } });
    } catch (err) {
      send(400, { status: 'error', errorType: 'bad_data', error: (err as Error).message });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    queries,
    get series() {
      return state.series;
    },
    set series(s: FakeSeries[]) {
      state.series = s;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The series an exporter on one node reports, scraped every `every` seconds from `from` to `to` (a stale marker after, if `staleAfterLast`). */
export function exporterSeries(
  target: Record<string, string>,
  node: {
    up?: number;
    runtime?: [string, string, string];
    plugins?: Partial<Record<string, number>>;
    named?: Array<[string, string, string]>;
    findings?: Partial<Record<string, number>>;
    codes?: Array<[string, string, number]>;
    conformance?: Record<string, number>;
    failedChecks?: string[];
  },
  times: { from: number; to: number; every: number; staleAfterLast?: boolean },
): FakeSeries[] {
  const samples = (v: number): Array<[number, number | 'stale']> => {
    const out: Array<[number, number | 'stale']> = [];
    for (let t = times.from; t <= times.to; t += times.every) out.push([t, v]);
    if (times.staleAfterLast) out.push([times.to + times.every, 'stale']);
    return out;
  };
  const s = (name: string, labels: Record<string, string>, v: number): FakeSeries => ({
    labels: { __name__: name, ...target, ...labels },
    samples: samples(v),
  });
  const [runtime, version, nri] = node.runtime ?? ['containerd', '2.1.0', '0.9.0'];
  const out = [
    s('nrictl_nri_up', {}, node.up ?? 1),
    s('nrictl_runtime_info', { runtime, version, nri_version: nri }, 1),
    s('nrictl_exporter_refresh_timestamp_seconds', {}, times.to),
  ];
  for (const st of ['active', 'pre-started', 'external', 'not-running', 'dropped', 'misnamed'])
    out.push(s('nrictl_plugins', { state: st }, node.plugins?.[st] ?? 0));
  for (const [plugin, index, state] of node.named ?? []) out.push(s('nrictl_plugin_info', { plugin, index, state }, 1));
  for (const sev of ['error', 'warning', 'info'])
    out.push(s('nrictl_doctor_findings_by_severity', { severity: sev }, node.findings?.[sev] ?? 0));
  for (const [severity, code, n] of node.codes ?? []) out.push(s('nrictl_doctor_findings', { severity, code }, n));
  if (node.conformance)
    for (const v of ['pass', 'fail', 'skip', 'error'])
      out.push(s('nrictl_conformance_checks', { verdict: v }, node.conformance[v] ?? 0));
  for (const check of node.failedChecks ?? []) out.push(s('nrictl_conformance_check_failed', { check }, 1));
  return out;
}
