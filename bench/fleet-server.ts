// The servers fleet.bench.ts times `nrictl fleet` against, in a process of their own so
// that the benchmark's synchronous runs of the CLI do not stall them:
//   api N   Prometheus' HTTP API answering for N nodes' exporters (test/fleet/fake-prometheus.ts)
//   text N  N exporters' /metrics pages (/node/I/metrics), for a real Prometheus to scrape
// Prints its URL on the first line, serves until stdin closes.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exporterSeries, startFakePrometheus } from '../test/fleet/fake-prometheus.js';

const [mode = 'api', count = '100'] = process.argv.slice(2);
const nodes = Number(count);
const now = Math.floor(Date.now() / 1000);

interface NodeShape {
  runtime: [string, string, string];
  up: number;
  plugins: Record<string, number>;
  named: Array<[string, string, string]>;
  findings: Record<string, number>;
  conformance: Record<string, number>;
}

/** Node i: every tenth has a dropped plugin, every 25th is down, one in 50 stopped reporting. */
function shape(i: number): NodeShape {
  return {
    runtime: i % 3 === 0 ? ['cri-o', '1.34.2', ''] : ['containerd', `2.1.${i % 4}`, '0.9.0'],
    up: i % 25 === 7 ? 0 : 1,
    plugins: { active: 2, 'pre-started': 1, dropped: i % 10 === 3 ? 1 : 0 },
    named: i % 10 === 3 ? [['topology-aware', '10', 'dropped']] : [],
    findings: { warning: i % 4, info: 2 },
    conformance: { pass: 40, skip: 3 },
  };
}

if (mode === 'api') {
  const series = [];
  for (let i = 0; i < nodes; i++) {
    const node = `node-${String(i).padStart(3, '0')}`;
    const stale = i % 50 === 11;
    series.push(
      ...exporterSeries({ job: 'nrictl-exporter', instance: `10.0.${i >> 8}.${i & 255}:9641`, node }, shape(i), {
        from: now - 3600,
        to: stale ? now - 600 : now + 3600,
        every: 30,
        staleAfterLast: stale,
      }),
    );
  }
  const fake = await startFakePrometheus(series);
  console.log(fake.url);
  process.stdin.resume().on('end', () => void fake.close().then(() => process.exit(0)));
} else {
  const pages = Array.from({ length: nodes }, (_, i) => page(shape(i)));
  const server = http.createServer((req, res) => {
    const m = /^\/node\/(\d+)\/metrics$/.exec(req.url ?? '');
    const body = m ? pages[Number(m[1])] : undefined;
    if (body === undefined) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' }).end(body);
  });
  server.listen(0, '127.0.0.1', () => {
    console.log(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  });
  process.stdin.resume().on('end', () => server.close(() => process.exit(0)));
}

function page(s: NodeShape): string {
  const lines = [
    `nrictl_nri_up ${s.up}`,
    `nrictl_runtime_info{runtime="${s.runtime[0]}",version="${s.runtime[1]}",nri_version="${s.runtime[2]}"} 1`,
    `nrictl_exporter_refresh_timestamp_seconds ${Date.now() / 1000}`,
  ];
  const plugins = s.plugins;
  for (const st of ['active', 'pre-started', 'external', 'not-running', 'dropped', 'misnamed'])
    lines.push(`nrictl_plugins{state="${st}"} ${plugins[st] ?? 0}`);
  for (const [plugin, index, state] of s.named)
    lines.push(`nrictl_plugin_info{plugin="${plugin}",index="${index}",state="${state}"} 1`);
  const findings = s.findings;
  for (const sev of ['error', 'warning', 'info'])
    lines.push(`nrictl_doctor_findings_by_severity{severity="${sev}"} ${findings[sev] ?? 0}`);
  const conformance = s.conformance;
  for (const v of ['pass', 'fail', 'skip', 'error'])
    lines.push(`nrictl_conformance_checks{verdict="${v}"} ${conformance[v] ?? 0}`);
  return `${lines.join('\n')}\n`;
}
