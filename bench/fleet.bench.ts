// `nrictl fleet` over 100 nodes: its library call (readFleet: 11 instant queries) and the
// whole process, against (1) a real HTTP server answering Prometheus' API for 100 nodes'
// exporters, and (2) where Debian's prometheus is installed, a real Prometheus scraping
// 100 exporters' pages (static text, one node label each) every second. Prints figures.
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readFleet } from '../src/fleet/index.js';
import { medianLine } from './process-time.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const runJs = join(root, 'bin', 'run.js');
const NODES = 100;
const RUNS = 15;
const CLI_RUNS = 5;
const children: ChildProcessWithoutNullStreams[] = [];
const work = mkdtempSync(join(tmpdir(), 'nrictl-fleet-bench-'));

async function startServer(mode: 'api' | 'text'): Promise<string> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'bench/fleet-server.ts'), mode, String(NODES)], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    child.stdout.once('data', (d: Buffer) => resolve(d.toString().trim()));
    child.once('exit', (code) => reject(new Error(`fleet-server ${mode} exited ${code}`)));
  });
}

async function timeLibrary(label: string, prometheus: string): Promise<void> {
  const opts = { prometheus, timeoutMs: 10_000, lookbackMs: 3600_000, staleAfterMs: 120_000 };
  const first = await readFleet(opts);
  const ms: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await readFleet(opts);
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  console.log(
    `${label.padEnd(46)} median ${ms[Math.floor(RUNS / 2)].toFixed(1).padStart(6)} ms (min ${ms[0].toFixed(1)}, max ${ms.at(-1)!.toFixed(1)}); ${first.nodes.length} nodes, ${first.failing} failing, ${first.nodes.filter((n) => n.stale).length} stale`,
  );
}

const freePort = async (): Promise<number> => {
  const s = http.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
};

try {
  if (!existsSync(join(root, 'dist', 'cli.cjs')))
    console.log('dist/ has no built CLI: run `npm run build` first (npm run bench does); the CLI is not timed.');
  const api = await startServer('api');
  console.log(`${NODES} nodes, answers from a real HTTP server speaking Prometheus' API (${api}):`);
  await timeLibrary('readFleet (11 instant queries)', api);
  if (existsSync(join(root, 'dist', 'cli.cjs')))
    medianLine('nrictl fleet (whole process)', [runJs, 'fleet', '--prometheus', api], {
      runs: CLI_RUNS,
      okStatus: [1],
      env: { ...process.env, NO_COLOR: '1', NODE_ENV: 'production' },
    });
  medianLine('node -e 0 (the floor)', ['-e', '0'], { runs: CLI_RUNS });

  const probe = spawnSync('prometheus', ['--version'], { encoding: 'utf8' });
  if (probe.error) console.log('\nNo prometheus installed: the real-Prometheus half is skipped.');
  else {
    const text = await startServer('text');
    const targets = Array.from({ length: NODES }, (_, i) => ({
      targets: [new URL(text).host],
      labels: { node: `node-${String(i).padStart(3, '0')}`, __metrics_path__: `/node/${i}/metrics` },
    }));
    const config = `global: { scrape_interval: 1s }\nscrape_configs:\n  - job_name: nrictl-exporter\n    static_configs: ${JSON.stringify(targets)}\n`;
    writeFileSync(join(work, 'prometheus.yml'), config);
    const port = await freePort();
    const prom = spawn(
      'prometheus',
      [
        `--config.file=${join(work, 'prometheus.yml')}`,
        `--storage.tsdb.path=${join(work, 'data')}`,
        `--web.listen-address=127.0.0.1:${port}`,
        '--log.level=warn',
      ],
      { stdio: ['pipe', 'pipe', 'pipe'] },
    );
    children.push(prom);
    const url = `http://127.0.0.1:${port}/`;
    // Ready, and every target scraped at least twice.
    for (let i = 0; i < 300; i++) {
      await new Promise((r) => setTimeout(r, 200));
      const r = await readFleet({
        prometheus: url,
        timeoutMs: 2000,
        lookbackMs: 3600_000,
        staleAfterMs: 120_000,
      }).catch(() => undefined);
      if (r?.nodes.length === NODES) break;
    }
    await new Promise((r) => setTimeout(r, 2000));
    console.log(`\n${NODES} nodes scraped every 1s by ${probe.stdout.split('\n')[0]}:`);
    await timeLibrary('readFleet (11 instant queries)', url);
    if (existsSync(join(root, 'dist', 'cli.cjs')))
      medianLine('nrictl fleet (whole process)', [runJs, 'fleet', '--prometheus', url], {
        runs: CLI_RUNS,
        okStatus: [0, 1],
        env: { ...process.env, NO_COLOR: '1', NODE_ENV: 'production' },
      });
  }
} finally {
  for (const c of children) {
    c.stdin.end();
    c.kill('SIGTERM');
  }
  await Promise.all(children.map((c) => new Promise((r) => (c.exitCode !== null ? r(0) : c.once('exit', r)))));
  rmSync(work, { recursive: true, force: true });
}
