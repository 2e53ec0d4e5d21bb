// nrictl exporter as a DaemonSet runs it: the built CLI against a simulated runtime on a
// real unix socket, its real /metrics fetched over HTTP and parsed as Prometheus text; a
// node root of real files; the runtime stopped and started again on the same socket.
import { copyFileSync, mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { writeElf } from '../checks/helpers.js';
import { assertBuilt, runCli, startCli, startRuntime, tempDir, type CliRun } from './nri-cli.js';
import { withUnpacedDemo } from '../support/unpaced-demo.js';
import { get, parsePrometheusText } from './prometheus-text.js';

type Samples = ReturnType<typeof parsePrometheusText>['samples'];

const fixture = (name: string): string => new URL(`../fixtures/${name}`, import.meta.url).pathname;

async function scrape(url: string): Promise<Samples> {
  const res = await get(url);
  expect(res.status).toBe(200);
  return parsePrometheusText(res.body).samples;
}
const value = (s: Samples, name: string, labels: Record<string, string> = {}): number | undefined =>
  s.find((x) => x.name === name && Object.entries(labels).every(([k, v]) => x.labels[k] === v))?.value;
const series = (s: Samples, name: string): Array<Record<string, string>> =>
  s.filter((x) => x.name === name).map((x) => x.labels);

/** Starts the exporter and resolves with its metrics URL once it serves. */
async function startExporter(args: string[]): Promise<{ run: CliRun; url: string }> {
  const run = startCli(['exporter', '--metrics-addr', '127.0.0.1:0', ...args]);
  await run.waitForStderr(/metrics on (http:\S+)/);
  return { run, url: /metrics on (http:\S+)/.exec(run.stderr())![1] };
}

async function stop(run: CliRun): Promise<number | null> {
  if (run.child.exitCode === null) run.child.kill('SIGTERM');
  return (await run.exited).code;
}

let t: ReturnType<typeof tempDir>;
let page = '';
let server: Server;
let port = 0;
beforeAll(async () => {
  assertBuilt('exporter');
  // containerd 2.3's metrics page, as recorded (test/fixtures/containerd-metrics).
  server = createServer((req, res) => {
    res.statusCode = req.url === '/v1/metrics' ? 200 : 404;
    res.end(req.url === '/v1/metrics' ? page : '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  t = tempDir('nrexp-');
  page = readFileSync(fixture('containerd-metrics/dropped-30-slow.prom'), 'utf8');
});
afterEach(() => t.cleanup());

/** A containerd node under t.dir: metrics address set, 10-resource-policy and 20-idle installed. */
function writeNode(): string {
  for (const d of ['etc/containerd', 'opt/nri/plugins', 'etc/nri/conf.d'])
    mkdirSync(path.join(t.dir, d), { recursive: true });
  writeFileSync(
    path.join(t.dir, 'etc/containerd/config.toml'),
    `version = 2\n[metrics]\n  address = "127.0.0.1:${port}"\n[plugins."io.containerd.nri.v1.nri"]\n  disable = false\n`,
  );
  writeElf(path.join(t.dir, 'opt/nri/plugins/10-resource-policy'));
  writeElf(path.join(t.dir, 'opt/nri/plugins/20-idle'));
  return t.dir;
}

describe('nrictl exporter on a simulated runtime', () => {
  it('serves the contract: up, the runtime, plugin states, findings, its own counters; subscribed to one rare event, no pod made', async () => {
    const sim = await startRuntime({ pods: [{ id: 'pod0', name: 'web', namespace: 'shop', uid: 'u0' }] });
    const { run, url } = await startExporter(['--socket', sim.socketPath, '--root', writeNode(), '--interval', '1s']);
    try {
      await sim.synchronized('99-nrictl-exporter');
      await expect.poll(async () => value(await scrape(url), 'nrictl_nri_up'), { timeout: 5000 }).toBe(1);
      await expect
        .poll(async () => value(await scrape(url), 'nrictl_exporter_refresh_timestamp_seconds'), { timeout: 5000 })
        .toBeGreaterThan(0);
      const res = await get(url);
      const { types, samples } = parsePrometheusText(res.body);
      expect(types.get('nrictl_exporter_registrations_total')).toBe('counter');
      expect(types.get('nrictl_nri_up')).toBe('gauge');
      expect(series(samples, 'nrictl_runtime_info')).toEqual([
        { runtime: 'nrictl-sim', version: '0.1.0', nri_version: 'v0.12.0' },
      ]);
      expect(value(samples, 'nrictl_request_timeout_seconds')).toBe(2);
      expect(value(samples, 'nrictl_exporter_registrations_total')).toBe(1);
      for (const kind of ['connect', 'register', 'files', 'runtime-metrics', 'conformance-report'])
        expect(value(samples, 'nrictl_exporter_errors_total', { kind }), kind).toBe(0);
      for (const severity of ['error', 'warning', 'info'])
        expect(value(samples, 'nrictl_doctor_findings_by_severity', { severity })).toBeTypeOf('number');
      // No conformance report given: no conformance series at all.
      expect(samples.some((s) => s.name.startsWith('nrictl_conformance'))).toBe(false);
      // Labels never carry a pod's or a container's name.
      expect(res.body).not.toMatch(/web|pod0|shop/);

      // On the runtime's side: one rare event, and off the path of every container's creation.
      const me = sim.runtime.plugins().find((p) => p.name === '99-nrictl-exporter');
      expect(me?.events).toBe('UpdatePodSandbox');
      expect((await sim.runtime.createContainer('pod0', { id: 'c1', name: 'app' })).ok).toBe(true);
      expect(sim.snapshot().pods.map((p) => p.id)).toEqual(['pod0']);
    } finally {
      expect(await stop(run)).toBe(0);
      await sim.stop();
    }
    expect(run.stdout()).toMatch(
      /^99-nrictl-exporter ran \S+: 1 registration, \d+ readings? of the node, no errors\n$/,
    );
    await expect(get(url)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('notices the runtime going away (up 0, connect errors counted) and registers again when it is back', async () => {
    const socketPath = path.join(t.dir, 'nri.sock');
    const first = await startRuntime({}, { socketPath });
    const { run, url } = await startExporter(['--socket', socketPath, '--root', t.dir, '--interval', '1s']);
    try {
      await first.synchronized('99-nrictl-exporter');
      await expect.poll(async () => value(await scrape(url), 'nrictl_nri_up'), { timeout: 5000 }).toBe(1);
      await first.stop();
      // At once: the connection closed is the runtime gone.
      await expect.poll(async () => value(await scrape(url), 'nrictl_nri_up'), { timeout: 2000 }).toBe(0);
      await run.waitForStderr('nrictl_nri_up is 0');
      // The first retries come after 0.5s and 1s: both fail on the missing socket.
      await expect
        .poll(async () => value(await scrape(url), 'nrictl_exporter_errors_total', { kind: 'connect' }), {
          timeout: 5000,
        })
        .toBeGreaterThanOrEqual(1);
      // Kept while down: the runtime it last registered with.
      expect(series(await scrape(url), 'nrictl_runtime_info')).toHaveLength(1);

      const second = await startRuntime({}, { socketPath, runtimeVersion: '0.2.0' });
      try {
        await second.synchronized('99-nrictl-exporter');
        // Within the backoff's cap (10s) of the runtime's return.
        await expect.poll(async () => value(await scrape(url), 'nrictl_nri_up'), { timeout: 11_000 }).toBe(1);
        const s = await scrape(url);
        expect(value(s, 'nrictl_exporter_registrations_total')).toBe(2);
        expect(series(s, 'nrictl_runtime_info')).toEqual([
          { runtime: 'nrictl-sim', version: '0.2.0', nri_version: 'v0.12.0' },
        ]);
        await run.waitForStderr(/registered again with nrictl-sim 0\.2\.0 after \S+: nrictl_nri_up is 1/);
      } finally {
        expect(await stop(run)).toBe(0);
        await second.stop();
      }
    } finally {
      await stop(run);
    }
  });

  it('waits for a runtime that is not there at start, up 0 meanwhile', async () => {
    const socketPath = path.join(t.dir, 'late.sock');
    const { run, url } = await startExporter(['--socket', socketPath, '--root', t.dir, '--interval', '1s']);
    try {
      await run.waitForStderr(/not registered \(.*\); nrictl_nri_up is 0; next try in 500ms/);
      const s = await scrape(url);
      expect(value(s, 'nrictl_nri_up')).toBe(0);
      expect(series(s, 'nrictl_runtime_info')).toEqual([]);
      expect(value(s, 'nrictl_exporter_registrations_total')).toBe(0);
      const rt = await startRuntime({}, { socketPath });
      try {
        await rt.synchronized('99-nrictl-exporter');
        await expect.poll(async () => value(await scrape(url), 'nrictl_nri_up'), { timeout: 11_000 }).toBe(1);
        expect(value(await scrape(url), 'nrictl_exporter_registrations_total')).toBe(1);
      } finally {
        expect(await stop(run)).toBe(0);
        await rt.stop();
      }
    } finally {
      await stop(run);
    }
  });
});

describe('nrictl exporter --sim --preset', () => {
  it('imitates the preset: CRI-O 1.32 says no NRI version and knows no UpdatePodSandbox, so RemovePodSandbox it is', async () => {
    const { run, url } = await startExporter(['--sim', 'demo', '--preset', 'crio-1.32', '--root', t.dir]);
    try {
      await expect.poll(async () => value(await scrape(url), 'nrictl_nri_up'), { timeout: 5000 }).toBe(1);
      expect(series(await scrape(url), 'nrictl_runtime_info')).toEqual([
        { runtime: 'cri-o', version: '1.32.13', nri_version: '' },
      ]);
      await run.waitForStderr('subscribed to RemovePodSandbox only');
    } finally {
      expect(await stop(run)).toBe(0);
    }
  });
});

describe('nrictl exporter reads the node', () => {
  it('gives each plugin its state: pre-started, not-running, external, misnamed; a failure counted before its first reading is history, no series', async () => {
    const root = writeNode();
    // Named without an index: the Go adaptation then starts no pre-installed plugin at all.
    writeElf(path.join(root, 'opt/nri/plugins/resource-policy'));
    const sim = await startRuntime({});
    const { run, url } = await startExporter(['--socket', sim.socketPath, '--root', root, '--interval', '1s']);
    try {
      await expect.poll(async () => series(await scrape(url), 'nrictl_plugin_info').length, { timeout: 5000 }).toBe(4);
      const s = await scrape(url);
      const states = series(s, 'nrictl_plugin_info').map((l) => `${l.index}-${l.plugin}:${l.state}`);
      // 30-slow failed fatally at a time the counters do not say, and is gone: neither dropped nor shown.
      expect(states.sort()).toEqual([
        '-resource-policy:misnamed',
        '10-resource-policy:pre-started',
        '20-idle:not-running',
        '50-logger:external',
      ]);
      const counts = Object.fromEntries(
        s.filter((x) => x.name === 'nrictl_plugins').map((x) => [x.labels.state, x.value]),
      );
      expect(counts).toEqual({ active: 0, 'pre-started': 1, external: 1, 'not-running': 1, dropped: 0, misnamed: 1 });
      expect(value(s, 'nrictl_doctor_findings', { code: 'misnamed-executable' })).toBe(1);
    } finally {
      expect(await stop(run)).toBe(0);
      await sim.stop();
    }
  });

  it('a plugin that fails while it watches is dropped for --drop-window, then no longer shown', async () => {
    const root = writeNode();
    page = readFileSync(fixture('containerd-metrics/slow-30-slow.prom'), 'utf8');
    const sim = await startRuntime({});
    const { run, url } = await startExporter([
      '--socket',
      sim.socketPath,
      '--root',
      root,
      '--interval',
      '300ms',
      '--drop-window',
      '2s',
    ]);
    const slow = async (): Promise<string | undefined> =>
      series(await scrape(url), 'nrictl_plugin_info').find((l) => l.plugin === 'slow')?.state;
    try {
      await expect.poll(slow, { timeout: 5000 }).toBe('external');
      // containerd counts 30-slow's CreateContainer past the timeout: the runtime dropped it now.
      page = readFileSync(fixture('containerd-metrics/dropped-30-slow.prom'), 'utf8');
      await expect.poll(slow, { timeout: 5000, interval: 100 }).toBe('dropped');
      expect(value(await scrape(url), 'nrictl_plugins', { state: 'dropped' })).toBe(1);
      // The counters still hold the failure; past the window it is history.
      await expect.poll(slow, { timeout: 6000, interval: 200 }).toBeUndefined();
      expect(value(await scrape(url), 'nrictl_plugins', { state: 'dropped' })).toBe(0);
    } finally {
      expect(await stop(run)).toBe(0);
      await sim.stop();
    }
  });

  it('--drop-window 0 is refused before registering', async () => {
    const r = await runCli(
      await withUnpacedDemo(['exporter', '--sim', 'demo', '--metrics-addr', '127.0.0.1:0', '--drop-window', '0s']),
    );
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe('Error: --drop-window 0s: a duration must be longer than zero');
  });

  it("serves a conformance report's verdicts, and an unreadable one is one error line, its series dropped, no crash", async () => {
    const report = path.join(t.dir, 'conformance.json');
    copyFileSync(fixture('conformance-report/isulad-2.1.5.json'), report);
    utimesSync(report, 1_790_000_000, 1_790_000_000);
    const { run, url } = await startExporter([
      '--sim',
      'demo',
      '--root',
      t.dir,
      '--interval',
      '300ms',
      '--conformance-report',
      report,
    ]);
    try {
      await expect
        .poll(async () => value(await scrape(url), 'nrictl_conformance_checks', { verdict: 'pass' }), { timeout: 5000 })
        .toBe(27);
      const s = await scrape(url);
      expect(value(s, 'nrictl_conformance_checks', { verdict: 'fail' })).toBe(5);
      expect(value(s, 'nrictl_conformance_checks', { verdict: 'skip' })).toBe(4);
      expect(value(s, 'nrictl_conformance_checks', { verdict: 'error' })).toBe(0);
      expect(
        series(s, 'nrictl_conformance_check_failed')
          .map((l) => l.check)
          .sort(),
      ).toEqual([
        'adjust/env',
        'create-container/hook-error-leaves-nothing',
        'ordering/index-order-and-held-back',
        'run-pod/hook-error-leaves-nothing',
        'teardown/index-order',
      ]);
      expect(value(s, 'nrictl_conformance_report_timestamp_seconds')).toBe(1_790_000_000);

      rmSync(report);
      await expect
        .poll(async () => value(await scrape(url), 'nrictl_exporter_errors_total', { kind: 'conformance-report' }), {
          timeout: 5000,
        })
        .toBeGreaterThanOrEqual(2);
      const gone = await scrape(url);
      expect(gone.some((x) => x.name.startsWith('nrictl_conformance'))).toBe(false);
      expect(value(gone, 'nrictl_nri_up')).toBe(1);
      // Said once, however many intervals it stays missing.
      expect(run.stderr().match(/conformance report/g)).toHaveLength(1);
      expect(run.stderr()).toContain(`${report} does not exist`);
    } finally {
      expect(await stop(run)).toBe(0);
    }
  });

  it('re-reads the node every interval: a plugin installed later appears, the refresh time moves on', async () => {
    const root = writeNode();
    const sim = await startRuntime({});
    const { run, url } = await startExporter(['--socket', sim.socketPath, '--root', root, '--interval', '500ms']);
    try {
      // 10-resource-policy, 20-idle, 50-logger (30-slow failed before the first reading: history).
      await expect.poll(async () => series(await scrape(url), 'nrictl_plugin_info').length, { timeout: 5000 }).toBe(3);
      const before = value(await scrape(url), 'nrictl_exporter_refresh_timestamp_seconds')!;
      writeElf(path.join(root, 'opt/nri/plugins/40-late'));
      await expect
        .poll(async () => series(await scrape(url), 'nrictl_plugin_info').some((l) => l.plugin === 'late'), {
          timeout: 5000,
        })
        .toBe(true);
      expect(value(await scrape(url), 'nrictl_exporter_refresh_timestamp_seconds')).toBeGreaterThan(before);
      // The runtime's page now fails: counted, plugins read from the directory instead.
      page = 'not a metrics page {';
      await expect
        .poll(async () => value(await scrape(url), 'nrictl_exporter_errors_total', { kind: 'runtime-metrics' }), {
          timeout: 5000,
        })
        .toBeGreaterThanOrEqual(1);
    } finally {
      expect(await stop(run)).toBe(0);
      await sim.stop();
    }
  });
});

describe('nrictl exporter refuses bad input before registering', () => {
  it('a malformed or busy --metrics-addr: one line, exit 2', async () => {
    const bad = await runCli(await withUnpacedDemo(['exporter', '--sim', 'demo', '--metrics-addr', 'nowhere']));
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim().split('\n')).toEqual([
      'Error: --metrics-addr "nowhere" is not HOST:PORT; write e.g. --metrics-addr 127.0.0.1:9464 or --metrics-addr :9464',
    ]);
    const busy = net.createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    try {
      const taken = await runCli(
        await withUnpacedDemo([
          'exporter',
          '--sim',
          'demo',
          '--metrics-addr',
          `127.0.0.1:${(busy.address() as AddressInfo).port}`,
        ]),
      );
      expect(taken.code).toBe(2);
      expect(taken.stderr.trim().split('\n')).toHaveLength(1);
      expect(taken.stderr).toMatch(/cannot listen \(EADDRINUSE\); choose another address or port/);
    } finally {
      busy.close();
    }
  });

  it('--preset without --sim or unknown, and a zero --interval: exit 2', async () => {
    const preset = await runCli(['exporter', '--preset', 'newest']);
    expect(preset.code).toBe(2);
    expect(preset.stderr).toContain('--preset is for the simulator: add --sim');
    const unknown = await runCli(await withUnpacedDemo(['exporter', '--sim', 'demo', '--preset', 'crio-0.1']));
    expect(unknown.code).toBe(2);
    expect(unknown.stderr.trim().split('\n')).toHaveLength(1);
    expect(unknown.stderr).toContain('--preset: unknown preset "crio-0.1" (known: ');
    const zero = await runCli(await withUnpacedDemo(['exporter', '--sim', 'demo', '--interval', '0s']));
    expect(zero.code).toBe(2);
    expect(zero.stderr.trim()).toBe('Error: --interval 0s: a duration must be longer than zero');
  });
});
