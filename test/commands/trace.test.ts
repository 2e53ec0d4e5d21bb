// nrictl trace as users run it: the built CLI against the embedded simulator with the
// example plugins, and against a separate simulator with an SDK plugin while Prometheus
// metrics are fetched over HTTP and parsed as the text exposition format.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { Stub } from '../../src/plugin/index.js';
import { runCli, startCli, startRuntime, tempDir, type SimHandle } from './nri-cli.js';
import { unpacedDemo } from '../support/unpaced-demo.js';
import { get, parsePrometheusText } from './prometheus-text.js';

const records = (out: string): Array<Record<string, any>> =>
  out
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));

// The demo without its pauses: these runs read what trace printed, and run in process.
let demo: string;
beforeAll(async () => {
  demo = await unpacedDemo();
});

describe.concurrent('nrictl trace --sim', () => {
  // The simulator launches the three example plugins one after another and synchronizes
  // them once all are up, which on a busy machine takes seconds: the SDK leaves that wait to
  // the runtime (src/plugin/stub.ts), and these two runs stay one at a time all the same,
  // as runs in this process do (test/support/cli-in-process.ts).
  it.sequential("attributes the example plugins' changes and ends with a summary record", async ({ expect }) => {
    const r = await runCli(['trace', '--sim', demo, '--plugin-dir', 'examples/trace-plugins', '-o', 'json']);
    expect(r.stderr).toMatch(/40-env-injector, 41-mount-adder: no free index between them, reported as one group/);
    expect(r.code).toBe(0);
    const all = records(r.stdout);
    expect(all.map((x) => x.type)).toEqual(['event', 'event', 'event', 'summary']);
    const create = all.find((x) => x.event === 'CreateContainer')!;
    // What -o wide shows is in the data too: the pod's uid and cgroup parent, the resources the last probe saw.
    expect(create.pod).toMatchObject({ uid: '7a6b5c4d-3e2f-4a1b-9c8d-7e6f5a4b3c2d', cgroupParent: expect.any(String) });
    expect(create.resources.cpu).toMatchObject({ cpus: '0-1', shares: { value: '256' } });
    const seg = (label: string) => create.segments.find((s: any) => s.label === label);
    expect(seg('20-cpu-pinner').changes).toEqual([{ field: 'resources', key: 'cpu.cpus', new: '0-1' }]);
    // It sleeps 15 ms between the two probes (a timer fires at most a millisecond early by
    // performance.now()). The hop subtracted is the median of other probe pairs, which a busy
    // machine can make as long as the sleep itself: what is left is only bounded by the raw time.
    const pinner = seg('20-cpu-pinner');
    expect(pinner.rawMs).toBeGreaterThanOrEqual(14);
    expect(pinner.ms).toBeGreaterThanOrEqual(0);
    expect(pinner.ms).toBeLessThanOrEqual(pinner.rawMs);
    expect(seg('group 40-env-injector+41-mount-adder').changes.map((c: any) => `${c.field} ${c.key}`)).toEqual([
      'annotations example.com/injected-by',
      'env NODE_ZONE',
      'mounts /cache',
    ]);
    const summary = all.at(-1)!;
    expect(summary.plugins.find((p: any) => p.label === '20-cpu-pinner' && p.event === 'CreateContainer').count).toBe(
      1,
    );
  });

  it.sequential(
    "-o wide heads each block as logs -o wide: the pod's id, uid and cgroup parent, the resources the last probe saw",
    async ({ expect }) => {
      const args = ['trace', '--sim', demo, '--plugin-dir', 'examples/trace-plugins', '--events', 'create'];
      const [wide, narrow] = await Promise.all([runCli([...args, '-o', 'wide']), runCli(args)]);
      expect([wide.code, narrow.code]).toEqual([0, 0]);
      const head = (out: string) =>
        out
          .split('\n')
          .find((l) => / CreateContainer /.test(l))
          ?.slice(13);
      const who = `${'CreateContainer'.padEnd(20)} shop/payments-5f4d9c8b7-qw7rt payments c5f6a7b8c9d0`;
      // The demo's ids are shorter than a short id: whole in both. 20-cpu-pinner set the cpus before the last probe.
      expect(head(wide.stdout)).toBe(
        `${who}  pod-id=5b8e2f7a4c13 pod-uid=7a6b5c4d-3e2f-4a1b-9c8d-7e6f5a4b3c2d ` +
          'cgroup-parent=/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod7a6b5c4d.slice ' +
          'cpus=0-1 memory=256Mi quota=50000 period=100000 shares=256',
      );
      expect(head(narrow.stdout)).toBe(who);
      // Below the head, the block is the same: per plugin its time and what it changed.
      const pinner = (out: string) =>
        out
          .split('\n')
          .find((l) => l.startsWith('  20-cpu-pinner'))
          // The time and the padding before it: a time with more digits (a busy machine) is padded less.
          ?.replace(/ +[\d.]+ ms/, ' T');
      expect(pinner(wide.stdout)).toBe(pinner(narrow.stdout));
      expect(pinner(wide.stdout)).toMatch(/^ {2}20-cpu-pinner +T {2}resources cpu\.cpus: \(unset\) -> 0-1$/);
    },
  );

  it('-o yaml: one document per event, then one for the summary', async ({ expect }) => {
    const r = await runCli(['trace', '--sim', demo, '-o', 'yaml', '--request-timeout', '500ms']);
    expect(r.code).toBe(0);
    expect(r.stdout.startsWith('---\n')).toBe(true);
    const docs = YAML.parseAllDocuments(r.stdout).map((d) => d.toJS() as Record<string, any>);
    expect(docs.map((d) => d.type)).toEqual(['event', 'event', 'event', 'summary']);
    expect(docs.slice(0, 3).map((d) => d.event)).toEqual(['CreateContainer', 'UpdateContainer', 'StopContainer']);
    expect(docs[0].time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    // --request-timeout is a duration with a unit, as every duration.
    expect(docs[3]).toMatchObject({ requestTimeoutMs: 500, requestTimeoutFrom: '--request-timeout' });
  });

  it('--request-timeout and --duration take a unit, as every duration: a bare number is refused', async ({
    expect,
  }) => {
    const [a, b] = await Promise.all([
      runCli(['trace', '--sim', demo, '--request-timeout', '2']),
      runCli(['trace', '--sim', demo, '--duration', '30']),
    ]);
    expect(a.code).toBe(2);
    expect(a.stderr.trim()).toBe('Error: --request-timeout 2: a duration needs a unit, such as 2s or 500ms');
    expect(b.code).toBe(2);
    expect(b.stderr.trim()).toBe('Error: --duration 30: a duration needs a unit, such as 2s or 500ms');
  });

  it('filters as logs does: a container name that matches nothing traces nothing and counts it', async ({ expect }) => {
    const [r, pay] = await Promise.all([
      runCli(['trace', '--sim', demo, '--container', 'nothing-*', '-o', 'json']),
      runCli(['trace', '--sim', demo, '--container', 'pay*', '-n', 'shop', '-o', 'json']),
    ]);
    expect(r.code).toBe(0);
    const all = records(r.stdout);
    expect(all.map((x) => x.type)).toEqual(['summary']);
    expect(all[0].events).toMatchObject({ traced: 0, filtered: 3 });
    const kept = records(pay.stdout);
    expect(kept.filter((x) => x.type === 'event').map((x) => x.container.name)).toEqual([
      'payments',
      'payments',
      'payments',
    ]);
  });

  it('doctor --trace adds a plugin latency finding from a short trace', async ({ expect }) => {
    const root = tempDir('nrd-');
    try {
      const [r, plain] = await Promise.all([
        runCli(['doctor', '--sim', demo, '--trace', '--root', root.dir, '-o', 'json']),
        runCli(['doctor', '--sim', demo, '--root', root.dir, '-o', 'json']),
      ]);
      const report = JSON.parse(r.stdout) as { findings: Array<{ code: string; message: string }> };
      const latency = report.findings.filter((f) => f.code === 'plugin-latency');
      // The demo has no plugins: probes at 01 and 98 time the whole range between them.
      expect(latency.map((f) => f.message.split(':')[0])).toEqual(['indexes 02-97', 'indexes 02-97', 'indexes 02-97']);
      expect(latency[0].message).toMatch(/on CreateContainer over 1 event, \d+\.\d% of the 2000 ms request timeout/);
      const without = JSON.parse(plain.stdout) as typeof report;
      expect(without.findings.some((f) => f.code.startsWith('plugin-latency'))).toBe(false);
    } finally {
      root.cleanup();
    }
  });

  it('refuses events it cannot follow and malformed flags with exit 2', async ({ expect }) => {
    const [a, b, c] = await Promise.all([
      runCli(['trace', '--sim', demo, '--events', 'runpod']),
      runCli(['trace', '--sim', demo, '--index', '7']),
      runCli(['trace', '--sim', demo, '--metrics-addr', 'nowhere']),
    ]);
    expect(a.code).toBe(2);
    expect(a.stderr).toMatch(/trace follows container events only, not RunPodSandbox/);
    expect(b.code).toBe(2);
    expect(b.stderr).toMatch(/--index: "7" is not a two-digit plugin index/);
    expect(c.code).toBe(2);
    expect(c.stderr).toMatch(/--metrics-addr "nowhere" is not HOST:PORT/);
  });
});

describe('nrictl trace --metrics-addr', () => {
  let sim: SimHandle;
  let t: ReturnType<typeof tempDir>;
  let plugin: Stub;
  beforeAll(async () => {
    sim = await startRuntime({ pods: [{ id: 'pod0', name: 'web', namespace: 'shop' }] });
    t = tempDir('nrt-');
    plugin = new Stub(
      { createContainer: async () => void (await new Promise((r) => setTimeout(r, 100))) },
      { name: 'sleepy', index: '30', socketPath: sim.socketPath },
    );
    await plugin.start();
  });
  afterAll(async () => {
    await plugin.stop();
    await sim.stop();
    t.cleanup();
  });

  it('serves per-plugin latency histograms in Prometheus text format while tracing', async () => {
    const run = startCli([
      'trace',
      '--socket',
      sim.socketPath,
      '--plugin-dir',
      t.dir,
      '--index',
      '30',
      '--metrics-addr',
      '127.0.0.1:0',
      '-o',
      'json',
    ]);
    await run.waitForStderr(/metrics on (http:\S+)/);
    const url = /metrics on (http:\S+)/.exec(run.stderr())![1];
    await run.waitForStderr('Ctrl-C to stop');
    for (let i = 0; i < 3; i++)
      expect((await sim.runtime.createContainer('pod0', { id: `c${i}`, name: `app${i}` })).ok).toBe(true);
    // The probes answered before the trace processed the sightings: wait until the records are out.
    await expect.poll(() => records(run.stdout()).length, { timeout: 5000 }).toBe(3);
    const res = await get(url);
    expect(res.status).toBe(200);
    expect(res.type).toMatch(/^text\/plain; version=0\.0\.4/);
    const { types, samples } = parsePrometheusText(res.body);
    expect(types.get('nrictl_trace_plugin_latency_seconds')).toBe('histogram');
    const series = samples.filter((s) => s.labels.plugin === 'index 30' && s.labels.event === 'CreateContainer');
    expect(series.find((s) => s.name === 'nrictl_trace_plugin_latency_seconds_count')?.value).toBe(3);
    const buckets = series.filter((s) => s.name === 'nrictl_trace_plugin_latency_seconds_bucket');
    // Slept 100 ms: nothing at or below 50 ms, everything by 500 ms. The margins are wide
    // because the probe hop subtracted is a median of few samples, and on a loaded machine
    // one hop can differ from it by tens of milliseconds.
    expect(buckets.find((b) => b.labels.le === '0.05')?.value).toBe(0);
    expect(buckets.find((b) => b.labels.le === '0.5')?.value).toBe(3);
    expect(
      samples.find((s) => s.name === 'nrictl_trace_events_total' && s.labels.event === 'CreateContainer')?.value,
    ).toBe(3);
    expect(samples.find((s) => s.name === 'nrictl_trace_request_timeout_seconds')?.value).toBe(2);
    expect((await get(url.replace('/metrics', '/other'))).status).toBe(404);
    run.child.kill('SIGTERM');
    const { code } = await run.exited;
    expect(code).toBe(0);
    expect(records(run.stdout()).at(-1)?.type).toBe('summary');
  });

  it('ends quietly with exit 0 when its reader goes away (nrictl trace | head), though nothing else would end it', async () => {
    const run = startCli(['trace', '--socket', sim.socketPath, '--plugin-dir', t.dir, '--index', '30', '-o', 'json']);
    await run.waitForStderr('Ctrl-C to stop');
    run.child.stdout.destroy();
    // Each record written after the reader left fails; the first failure stops the trace.
    for (let i = 0; i < 3; i++)
      expect((await sim.runtime.createContainer('pod0', { id: `gone${i}`, name: `gone${i}` })).ok).toBe(true);
    const { code } = await run.exited;
    expect(code).toBe(0);
    expect(run.stderr()).not.toMatch(/Error/);
  });
});

describe('nrictl trace --metrics-url', () => {
  // containerd 2.3's metrics name the external plugin at 50, which no file names: the
  // trace must say "50-logger" where it would say "index 50".
  let sim: SimHandle;
  let t: ReturnType<typeof tempDir>;
  let plugin: Stub;
  let server: Server;
  let url = '';
  beforeAll(async () => {
    sim = await startRuntime({ pods: [{ id: 'pod0', name: 'web', namespace: 'shop' }] });
    t = tempDir('nrtm-');
    plugin = new Stub(
      { createContainer: async () => ({}) },
      { name: 'logger', index: '50', socketPath: sim.socketPath },
    );
    await plugin.start();
    const page = readFileSync(new URL('../fixtures/containerd-metrics/healthy.prom', import.meta.url), 'utf8');
    server = createServer((req, res) => {
      res.statusCode = req.url === '/v1/metrics' ? 200 : 404;
      res.end(res.statusCode === 200 ? page : '');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/metrics`;
  });
  afterAll(async () => {
    await plugin.stop();
    await sim.stop();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    t.cleanup();
  });

  it("names the external plugin by the runtime's full name", async () => {
    const run = startCli([
      'trace',
      '--socket',
      sim.socketPath,
      '--plugin-dir',
      t.dir,
      '--metrics-url',
      url,
      '-o',
      'json',
    ]);
    await run.waitForStderr('Ctrl-C to stop');
    expect((await sim.runtime.createContainer('pod0', { id: 'c0', name: 'app' })).ok).toBe(true);
    await expect.poll(() => records(run.stdout()).length, { timeout: 5000 }).toBe(1);
    run.child.kill('SIGTERM');
    expect((await run.exited).code).toBe(0);
    const labels = records(run.stdout())[0].segments.map((s: { label: string }) => s.label);
    expect(labels).toContain('50-logger');
    expect(labels).not.toContain('index 50');
    expect(run.stderr()).toContain("and the runtime's metrics");
  });

  it('without it, the same plugin is only an index; a malformed URL is refused before connecting', async () => {
    const run = startCli(['trace', '--socket', sim.socketPath, '--plugin-dir', t.dir, '--index', '50', '-o', 'json']);
    await run.waitForStderr('Ctrl-C to stop');
    expect((await sim.runtime.createContainer('pod0', { id: 'c1', name: 'app1' })).ok).toBe(true);
    await expect.poll(() => records(run.stdout()).length, { timeout: 5000 }).toBe(1);
    run.child.kill('SIGTERM');
    await run.exited;
    expect(records(run.stdout())[0].segments.map((s: { label: string }) => s.label)).toContain('index 50');
    const bad = await runCli(['trace', '--socket', sim.socketPath, '--metrics-url', 'ftp://x/']);
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim()).toBe('Error: --metrics-url: ftp: is not served by runtimes: give an http:// URL');
  });
});
