// What `nrictl exporter` costs the node it reports on. The simulator runs in this process
// and measures; the exporter runs as the built CLI (`npm run bench` builds first). Prints
// figures, asserts nothing.
//   1. CreateContainer round trip, a do-nothing plugin on its path, without an exporter and
//      with one registered (re-reading the node every second, 30 times as often as a
//      DaemonSet would), alternated.
//   2. The exporter's RSS over an accelerated day of churn: pods and containers created and
//      removed, the node re-read every 50 ms (a day of 30 s intervals is 2,880 readings),
//      /metrics scraped every second, and the runtime restarted every 15 s.
//   3. /metrics scrape time with 1,000 pods and 5,000 containers in the runtime's state,
//      against an empty node.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { nri } from '../src/api/index.js';
import { generateScenario } from '../src/runtime/sim/generate.js';
import { Runtime, type RuntimeOptions } from '../src/runtime/sim/runtime.js';
import { SimState } from '../src/runtime/sim/state.js';
import { container, createRoundTrips, synchronized } from './round-trips.js';

const BIN = path.resolve(process.env.NRICTL_BIN ?? 'bin/run.js');
const ENV = { ...process.env, NO_COLOR: '1', NODE_ENV: 'production' };
const PLUGIN = '99-nrictl-exporter';

const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const ms = (x: number): string => `${x.toFixed(3)} ms`;
const mib = (kib: number): string => (kib / 1024).toFixed(1);

function rssKiB(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) : NaN;
}

/** A node root with a containerd config (no metrics address) and two installed plugins. */
function nodeRoot(dir: string): string {
  const root = path.join(dir, 'root');
  for (const d of ['etc/containerd', 'opt/nri/plugins', 'etc/nri/conf.d'])
    mkdirSync(path.join(root, d), { recursive: true });
  writeFileSync(
    path.join(root, 'etc/containerd/config.toml'),
    'version = 2\n[plugins."io.containerd.nri.v1.nri"]\n  disable = false\n',
  );
  for (const p of ['10-policy', '20-injector'])
    writeFileSync(path.join(root, 'opt/nri/plugins', p), '#!/bin/sh\n', { mode: 0o755 });
  return root;
}

async function startRuntime(
  dir: string,
  state: { pods?: nri.IPodSandbox[]; containers?: nri.IContainer[] } = {},
  opts: RuntimeOptions = {},
): Promise<Runtime> {
  const runtime = new Runtime(new SimState(state), { socketPath: path.join(dir, 'nri.sock'), ...opts });
  await runtime.start();
  return runtime;
}

async function startExporter(
  runtime: Runtime,
  dir: string,
  interval: string,
): Promise<{ child: ChildProcess; url: string; stdout: () => string }> {
  const child = spawn(
    process.execPath,
    [
      BIN,
      'exporter',
      '--socket',
      path.join(dir, 'nri.sock'),
      '--root',
      nodeRoot(dir),
      '--interval',
      interval,
      '--metrics-addr',
      '127.0.0.1:0',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'], env: ENV },
  );
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  const url = new Promise<string>((resolve) => {
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      err += d;
      const m = /metrics on (http:\S+)/.exec(err);
      if (m) resolve(m[1]);
    });
  });
  await synchronized(runtime, PLUGIN, child);
  return { child, url: await url, stdout: () => out };
}

async function stopExporter(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

function get(url: string): Promise<{ ms: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    http
      .get(url, { agent: false }, (res) => {
        let bytes = 0;
        res.on('data', (b: Buffer) => (bytes += b.length));
        res.on('end', () => resolve({ ms: Number(process.hrtime.bigint() - t0) / 1e6, bytes }));
      })
      .on('error', reject);
  });
}

async function creationCost(): Promise<void> {
  const N = 2000;
  const ROUNDS = 3;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'nrbx-'));
  const runtime = await startRuntime(dir, {
    pods: [{ id: 'bench-pod', name: 'bench-0', namespace: 'bench', uid: 'u' }],
  });
  // One plugin on the path of every creation, answering at once over the socket (the SDK
  // floor of logs.bench.ts): what an exporter could slow down is that round trip.
  const plugin = spawn(
    process.execPath,
    ['--import', 'tsx', path.resolve('bench/null-plugin.ts'), path.join(dir, 'nri.sock'), 'null'],
    {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: ENV,
    },
  );
  await synchronized(runtime, '99-null', plugin);
  await createRoundTrips(runtime, 'bench-pod', 500); // warm the JIT
  const without: number[] = [];
  const withExporter: number[] = [];
  let invoked = 0;
  runtime.on('event', (e: { type: string; plugin?: string }) => {
    if (e.type === 'invoke' && e.plugin === PLUGIN) invoked++;
  });
  for (let r = 0; r < ROUNDS; r++) {
    without.push(...(await createRoundTrips(runtime, 'bench-pod', N)));
    const ex = await startExporter(runtime, dir, '1s');
    await createRoundTrips(runtime, 'bench-pod', 200);
    withExporter.push(...(await createRoundTrips(runtime, 'bench-pod', N)));
    await stopExporter(ex.child);
  }
  await stopExporter(plugin);
  await runtime.stop();
  rmSync(dir, { recursive: true, force: true });
  console.log(
    `CreateContainer round trip through the simulator with a do-nothing plugin on the path, ${ROUNDS} alternated rounds of ${N} containers each (create + post-create; load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} CPUs):`,
  );
  console.log(`  no exporter:                      p50 ${ms(pct(without, 50))}  p99 ${ms(pct(without, 99))}`);
  console.log(
    `  exporter registered, --interval 1s: p50 ${ms(pct(withExporter, 50))}  p99 ${ms(pct(withExporter, 99))}` +
      `   added p50 ${ms(pct(withExporter, 50) - pct(without, 50))}  p99 ${ms(pct(withExporter, 99) - pct(without, 99))}`,
  );
  console.log(`  calls the runtime made to the exporter during the loops: ${invoked}`);
}

async function churn(): Promise<void> {
  const SECONDS = Number(process.env.EXPORTER_CHURN_SECONDS ?? 120);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'nrbx-'));
  // NRI v0.9: no UpdatePodSandbox, so the exporter takes RemovePodSandbox, once per pod.
  const opts: RuntimeOptions = { nriVersion: 'v0.9.0' };
  let runtime = await startRuntime(dir, {}, opts);
  const ex = await startExporter(runtime, dir, '50ms');
  const pid = ex.child.pid!;
  const samples: number[] = [rssKiB(pid)];
  const t0 = Date.now();
  let pods = 0;
  let containers = 0;
  let restarts = 0;
  let scrapes = 0;
  let nextSample = t0 + 5000;
  let nextScrape = t0 + 1000;
  let nextRestart = t0 + 15_000;
  while (Date.now() - t0 < SECONDS * 1000) {
    const id = `pod-${++pods}`;
    await runtime.runPodSandbox({ id, name: `web-${pods}`, namespace: `ns-${pods % 40}`, uid: `uid-${pods}` });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const c = container(id);
      await runtime.createContainer(id, c);
      ids.push(c.id!);
      containers++;
    }
    for (const c of ids) {
      await runtime.stopContainer(c);
      await runtime.removeContainer(c);
    }
    await runtime.stopPodSandbox(id);
    await runtime.removePodSandbox(id);
    const now = Date.now();
    if (now >= nextScrape) {
      await get(ex.url);
      scrapes++;
      nextScrape = now + 1000;
    }
    if (now >= nextSample) {
      samples.push(rssKiB(pid));
      nextSample = now + 5000;
    }
    if (now >= nextRestart) {
      await runtime.stop();
      runtime = await startRuntime(dir, {}, opts);
      await synchronized(runtime, PLUGIN);
      restarts++;
      nextRestart = Date.now() + 15_000;
    }
  }
  samples.push(rssKiB(pid));
  const metrics = await new Promise<string>((resolve) =>
    http.get(ex.url, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (d: string) => (body += d));
      res.on('end', () => resolve(body));
    }),
  );
  await stopExporter(ex.child);
  await runtime.stop();
  rmSync(dir, { recursive: true, force: true });
  const secs = (Date.now() - t0) / 1000;
  console.log(
    `exporter RSS (MiB) over ${secs.toFixed(0)} s of churn: ${pods.toLocaleString('en')} pods and ${containers.toLocaleString('en')} containers created and removed, ${scrapes} scrapes, ${restarts} runtime restarts:`,
  );
  console.log(`  start ${mib(samples[0])}  end ${mib(samples.at(-1)!)}  max ${mib(Math.max(...samples))}`);
  console.log(`  every 5 s: ${samples.map(mib).join(' ')}`);
  console.log(`  ${ex.stdout().trim()}`);
  console.log(`  ${/nrictl_exporter_registrations_total \d+/.exec(metrics)?.[0]}`);
}

async function scrapeTime(): Promise<void> {
  const SCRAPES = 300;
  for (const size of [
    { pods: 0, containersPerPod: 0 },
    { pods: 1000, containersPerPod: 5 },
  ]) {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'nrbx-'));
    const state = size.pods ? generateScenario(size) : { pods: [], containers: [] };
    const runtime = await startRuntime(dir, { pods: state.pods, containers: state.containers });
    const t0 = process.hrtime.bigint();
    const ex = await startExporter(runtime, dir, '30s');
    const registeredMs = Number(process.hrtime.bigint() - t0) / 1e6;
    for (let i = 0; i < 20; i++) await get(ex.url);
    const times: number[] = [];
    let bytes = 0;
    for (let i = 0; i < SCRAPES; i++) {
      const r = await get(ex.url);
      times.push(r.ms);
      bytes = r.bytes;
    }
    const rss = rssKiB(ex.child.pid!);
    await stopExporter(ex.child);
    await runtime.stop();
    rmSync(dir, { recursive: true, force: true });
    console.log(
      `/metrics with ${state.pods.length} pods / ${state.containers.length} containers in the runtime (${SCRAPES} scrapes, ${bytes} bytes each): p50 ${ms(pct(times, 50))}  p99 ${ms(pct(times, 99))}  max ${ms(Math.max(...times))}; start to registered ${registeredMs.toFixed(0)} ms; RSS ${mib(rss)} MiB`,
    );
  }
}

const only = process.env.EXPORTER_BENCH;
if (!only || only === 'creation') await creationCost();
if (!only || only === 'churn') await churn();
if (!only || only === 'scrape') await scrapeTime();
