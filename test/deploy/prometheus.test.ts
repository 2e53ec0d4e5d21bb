// issue 38, tried against a real Prometheus (Debian's `prometheus` package): exporters on
// simulated nodes of different presets, scraped every second by one Prometheus with
// deploy/'s scrape job (its relabelling, on static targets standing in for the pods that
// Kubernetes discovery would find) and deploy/'s alerting rules. Then one node's runtime
// stops: its nrictl_nri_up turns 0 within two scrape intervals, NrictlNRIDown fires for it,
// and `nrictl fleet` exits 1 naming it. One more node's exporter reads containerd 2.3's
// NRI counters (a recorded page, served here): a plugin that failed before the exporter
// looked is no alarm; one that fails while it looks is dropped, fires NrictlPluginDropped
// and turns fleet to 1, for --drop-window only. Skipped, and says so, without prometheus.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { assertBuilt, runCli, startCli, type CliRun } from '../commands/nri-cli.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const probe = spawnSync('prometheus', ['--version'], { encoding: 'utf8' });
const missing = probe.error ? `prometheus not installed (${(probe.error as NodeJS.ErrnoException).code})` : undefined;

const SCRAPE_S = 1;
const NODES = [
  { node: 'sim-node-1', preset: 'containerd-2.1', runtime: 'containerd' },
  { node: 'sim-node-2', preset: 'crio-1.34', runtime: 'cri-o' },
  { node: 'sim-node-3', preset: 'containerd-1.7.25', runtime: 'containerd' },
  // Its exporter reads the runtime's NRI counters from `counters` below (--metrics-url).
  { node: 'sim-node-4', preset: 'containerd-2.3', runtime: 'containerd', counted: true },
];
const STOPPED = NODES[1];
const COUNTED = NODES[3];
const DROP_WINDOW_S = 6;

/** containerd 2.3's page: 30-slow failed fatally and left long before any exporter looked. */
const RECORDED = readFileSync(
  join(dirname(fileURLToPath(import.meta.url)), '../fixtures/containerd-metrics/dropped-30-slow.prom'),
  'utf8',
);
/** The same runtime later: a transient test plugin's StopPodSandbox met a closed connection. */
const TEST_PLUGIN_FAILED =
  RECORDED +
  'containerd_nri_plugin_invocations_total{error="other",operation="StopPodSandbox",plugin="00-nrictl-conformance",status="error"} 1\n';

type Obj = Record<string, any>;

async function freePort(): Promise<number> {
  const s = http.createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

/** Polls `probe` every 200 ms until it gives a value, up to `ms`; the last error says what was awaited. */
async function until<T>(what: string, ms: number, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + ms;
  let last: unknown;
  for (;;) {
    try {
      const v = await probe();
      if (v !== undefined) return v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline)
      throw new Error(`waited ${ms} ms for ${what}${last instanceof Error ? ` (${last.message})` : ''}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe.skipIf(missing !== undefined)(
  `a real Prometheus scraping nrictl exporters${missing ? ` (skipped: ${missing})` : ''}`,
  { timeout: 240_000 },
  () => {
    let base = '';
    let promUrl = '';
    const children: Array<ChildProcess | CliRun['child']> = [];
    const sims = new Map<string, CliRun>();
    let counters = RECORDED;
    const countersServer = http.createServer((_req, res) => res.end(counters));

    const api = async (path: string, params: Record<string, string>): Promise<Obj> => {
      const url = new URL(path, promUrl);
      for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
      const res = await fetch(url, { signal: AbortSignal.timeout(5000) });
      const doc = (await res.json()) as Obj;
      if (doc.status !== 'success') throw new Error(`${url.href}: ${JSON.stringify(doc)}`);
      return doc.data as Obj;
    };
    const vector = async (query: string): Promise<Obj[]> => (await api('api/v1/query', { query })).result as Obj[];

    beforeAll(async () => {
      assertBuilt('exporter', 'fleet', 'sim');
      base = mkdtempSync(join(tmpdir(), 'nrictl-prom-'));
      const env = { TMPDIR: join(base, 'tmp') };
      mkdirSync(env.TMPDIR);
      const targets: Obj[] = [];
      await new Promise<void>((resolve) => countersServer.listen(0, '127.0.0.1', resolve));
      const countersUrl = `http://127.0.0.1:${(countersServer.address() as AddressInfo).port}/v1/metrics`;
      for (const n of NODES) {
        const dir = join(base, n.node);
        mkdirSync(join(dir, 'root'), { recursive: true, mode: 0o700 });
        const socket = join(dir, 'nri.sock');
        const sim = startCli(['sim', '--socket', socket, '--preset', n.preset], { env, collectStdout: true });
        children.push(sim.child);
        sims.set(n.node, sim);
        await until(`${n.node}'s simulator`, 15_000, () => Promise.resolve(existsSync(socket) || undefined));
        const port = await freePort();
        const exporter = startCli(
          [
            'exporter',
            '--socket',
            socket,
            '--root',
            join(dir, 'root'),
            '--interval',
            '1s',
            '--metrics-addr',
            `127.0.0.1:${port}`,
            ...('counted' in n ? ['--metrics-url', countersUrl, '--drop-window', `${DROP_WINDOW_S}s`] : []),
          ],
          { env },
        );
        children.push(exporter.child);
        await exporter.waitForStderr('registered with');
        // What Kubernetes discovery would say of the exporter's pod on that node.
        targets.push({
          targets: [`127.0.0.1:${port}`],
          labels: {
            __meta_kubernetes_pod_node_name: n.node,
            __meta_kubernetes_pod_container_port_name: 'metrics',
            __meta_kubernetes_namespace: 'nrictl',
          },
        });
      }
      const deployJob = (YAML.parse(readFileSync(join(root, 'deploy/prometheus/scrape-config.yaml'), 'utf8')) as Obj)
        .scrape_configs[0] as Obj;
      const job = Object.fromEntries(Object.entries(deployJob).filter(([k]) => k !== 'kubernetes_sd_configs'));
      // deploy's rules as they are, but NrictlNRIDown's hold of a minute (which promtool's rule
      // tests hold it to) is 5 s here: the test is about the rule firing for the right node,
      // and a minute of waiting would buy nothing but a slower suite.
      const rules = YAML.parse(readFileSync(join(root, 'deploy/prometheus/rules/nrictl.rules.yaml'), 'utf8')) as {
        groups: Array<{ rules: Obj[] }>;
      };
      const down = rules.groups.flatMap((g) => g.rules).find((r) => r.alert === 'NrictlNRIDown');
      if (!down) throw new Error('deploy/prometheus/rules/nrictl.rules.yaml has no NrictlNRIDown');
      down.for = '5s';
      writeFileSync(join(base, 'rules.yaml'), YAML.stringify(rules));
      const config = {
        global: { scrape_interval: `${SCRAPE_S}s`, evaluation_interval: `${SCRAPE_S}s` },
        rule_files: [join(base, 'rules.yaml')],
        scrape_configs: [
          { ...job, scrape_interval: `${SCRAPE_S}s`, scrape_timeout: `${SCRAPE_S}s`, static_configs: targets },
        ],
      };
      writeFileSync(join(base, 'prometheus.yml'), YAML.stringify(config));
      const port = await freePort();
      promUrl = `http://127.0.0.1:${port}/`;
      const prom = spawn(
        'prometheus',
        [
          `--config.file=${join(base, 'prometheus.yml')}`,
          `--storage.tsdb.path=${join(base, 'data')}`,
          `--web.listen-address=127.0.0.1:${port}`,
          '--log.level=warn',
        ],
        { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...env } },
      );
      let promErr = '';
      prom.stderr.on('data', (d: Buffer) => (promErr = (promErr + d.toString()).slice(-4000)));
      children.push(prom);
      await until('Prometheus ready', 30_000, async () => {
        if (prom.exitCode !== null) throw new Error(`prometheus exited ${prom.exitCode}: ${promErr}`);
        const res = await fetch(new URL('-/ready', promUrl), { signal: AbortSignal.timeout(1000) });
        return res.ok || undefined;
      });
    }, 90_000);

    afterAll(async () => {
      countersServer.close();
      for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGTERM');
      await Promise.all(
        children.map(
          (c) =>
            new Promise<void>((resolve) => {
              if (c.exitCode !== null || c.signalCode !== null) return resolve();
              const t = setTimeout(() => {
                c.kill('SIGKILL');
              }, 5000);
              c.once('close', () => {
                clearTimeout(t);
                resolve();
              });
            }),
        ),
      );
      if (base) {
        // Everything the run made is under base; the children's TMPDIR must be empty by now.
        const left = existsSync(join(base, 'tmp')) ? readdirSync(join(base, 'tmp')) : [];
        rmSync(base, { recursive: true, force: true });
        expect(left, 'left in the children’s TMPDIR').toEqual([]);
        expect(existsSync(base)).toBe(false);
      }
    }, 30_000);

    it('counts every exporter whose runtime is up, each named by its node', async () => {
      const up = await until('count(nrictl_nri_up == 1) = 3', 30_000, async () => {
        const r = await vector('count(nrictl_nri_up == 1)');
        return r[0]?.value[1] === String(NODES.length) ? r : undefined;
      });
      expect(up).toHaveLength(1);
      const nodes = (await vector('nrictl_nri_up{job="nrictl-exporter"}')).map((s) => s.metric.node as string).sort();
      expect(nodes).toEqual(NODES.map((n) => n.node));
    });

    it('fleet lists each node with its runtime and exits 0', async () => {
      const r = await runCli(['fleet', '--prometheus', promUrl, '-l', 'job=nrictl-exporter', '-o', 'json']);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      const doc = JSON.parse(r.stdout) as {
        nodes: Array<{ node: string; up: boolean; stale: boolean; runtimes: Obj[] }>;
      };
      expect(doc.nodes.map((n) => [n.node, n.runtimes.map((x) => x.runtime), n.up, n.stale])).toEqual(
        NODES.map((n) => [n.node, [n.runtime], true, false]),
      );
      const table = await runCli(['fleet', '--prometheus', promUrl]);
      expect(table.code).toBe(0);
      for (const n of NODES) expect(table.stdout).toMatch(new RegExp(`^${n.node}\\s+${n.runtime} v?\\d`, 'm'));
    });

    it('a plugin that fails while the exporter looks: dropped, its alert fires and fleet exits 1, for the drop window only', async () => {
      const sel = `nrictl_plugin_info{node="${COUNTED.node}", state="dropped"}`;
      // The failure counted before the exporter's first reading is history: no dropped series at all.
      expect(await vector(`last_over_time(${sel}[1h])`)).toEqual([]);
      counters = TEST_PLUGIN_FAILED;
      const failedAt = Date.now();
      const firing = await until('NrictlPluginDropped firing', 20_000, async () => {
        const a = await vector('ALERTS{alertname="NrictlPluginDropped", alertstate="firing"}');
        return a.length ? a : undefined;
      });
      expect(firing.map((a) => [a.metric.node, a.metric.index, a.metric.plugin])).toEqual([
        [COUNTED.node, '00', 'nrictl-conformance'],
      ]);
      const during = await runCli(['fleet', '--prometheus', promUrl]);
      expect(during.code).toBe(1);
      expect(during.stdout).toMatch(new RegExp(`${COUNTED.node} \\([^)]*1 plugin dropped`));
      // The counter never goes down; the window passes, and the alarm with it.
      await until('NrictlPluginDropped resolved', 30_000, async () =>
        (await vector('ALERTS{alertname="NrictlPluginDropped"}')).length === 0 ? true : undefined,
      );
      expect(Date.now() - failedAt).toBeGreaterThanOrEqual(DROP_WINDOW_S * 1000 - 2000);
      await until('fleet to exit 0 again', 15_000, async () =>
        (await runCli(['fleet', '--prometheus', promUrl])).code === 0 ? true : undefined,
      );
    });

    it('a runtime that stops: nrictl_nri_up 0 within two scrapes, its alert fires, fleet exits 1 naming it', async () => {
      const sim = sims.get(STOPPED.node)!;
      const stoppedAt = Date.now() / 1000;
      sim.child.kill('SIGTERM');
      await sim.exited;
      const sel = `nrictl_nri_up{node="${STOPPED.node}"}`;
      await until(`${sel} == 0`, 15_000, async () => ((await vector(`${sel} == 0`)).length ? true : undefined));
      // When, by Prometheus' own sample times, the first 0 was scraped.
      const range = (await api('api/v1/query', { query: `${sel}[30s]` })).result as Obj[];
      const samples = (range[0].values as Array<[number, string]>).filter(([t]) => t >= stoppedAt - SCRAPE_S);
      const firstZero = samples.find(([, v]) => v === '0')!;
      expect(firstZero[0] - stoppedAt).toBeLessThanOrEqual(2 * SCRAPE_S);
      console.info(
        `nrictl_nri_up 0 in Prometheus ${(firstZero[0] - stoppedAt).toFixed(2)} s after the runtime stopped`,
      );

      // The rule holds (5 s here, a minute as deployed) before firing: a runtime's restart rides it out.
      const firing = await until('NrictlNRIDown firing', 60_000, async () => {
        const a = await vector('ALERTS{alertname="NrictlNRIDown", alertstate="firing"}');
        return a.length ? a : undefined;
      });
      expect(firing.map((a) => a.metric.node)).toEqual([STOPPED.node]);
      console.info(`NrictlNRIDown firing ${(Date.now() / 1000 - stoppedAt).toFixed(1)} s after the runtime stopped`);

      const r = await runCli(['fleet', '--prometheus', promUrl]);
      expect(r.code).toBe(1);
      expect(r.stdout).toMatch(new RegExp(`^${STOPPED.node}\\s+cri-o \\S+\\s+\\S+\\s+no\\s`, 'm'));
      // With its runtime gone, doctor's reading of the node finds the NRI socket missing too.
      expect(r.stdout).toMatch(
        new RegExp(`1 of ${NODES.length} nodes need a look: ${STOPPED.node} \\(NRI down[^)]*\\)\\.`),
      );
      expect((await vector('count(nrictl_nri_up == 1)'))[0]?.value[1]).toBe(String(NODES.length - 1));
    });

    it('an exporter that stops answering: fleet keeps its node, as stale', async () => {
      // The exporter of the third node: children are [sim1, exp1, sim2, exp2, sim3, exp3, sim4, exp4, prometheus].
      const exporter = children[5];
      exporter.kill('SIGTERM');
      await until('the scrape to fail', 15_000, async () =>
        (await vector(`up{node="${NODES[2].node}"} == 0`)).length ? true : undefined,
      );
      const r = await runCli(['fleet', '--prometheus', promUrl, '-o', 'json']);
      expect(r.code).toBe(1);
      const doc = JSON.parse(r.stdout) as { nodes: Array<{ node: string; stale: boolean; problems: string[] }> };
      expect(doc.nodes.map((n) => n.node)).toEqual(NODES.map((n) => n.node));
      expect(doc.nodes.find((n) => n.node === NODES[2].node)).toMatchObject({ stale: true, problems: ['stale'] });
    });
  },
);

it('says whether a real Prometheus ran', () => {
  const what = missing ?? probe.stdout.split('\n')[0];
  console.info(`prometheus: ${what}`);
  expect(what).toBeTruthy();
});
