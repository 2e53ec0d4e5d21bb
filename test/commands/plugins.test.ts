// `nrictl plugins` and doctor against a real HTTP server on 127.0.0.1 serving recorded
// containerd 2.3 metrics pages (test/fixtures/containerd-metrics), and without metrics.
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { tempDir, writeElf } from '../checks/helpers.js';
import { assertBuilt, runCli } from './nri-cli.js';

const fixture = (name: string) =>
  readFileSync(new URL(`../fixtures/containerd-metrics/${name}`, import.meta.url), 'utf8');

/** What the server serves at /v1/metrics; anything else is a 404. */
let page = '';
let server: Server;
let port = 0;
beforeAll(async () => {
  assertBuilt('plugins', 'doctor');
  server = createServer((req, res) => {
    if (req.url !== '/v1/metrics') {
      res.statusCode = 404;
      res.end();
      return;
    }
    res.setHeader('content-type', 'text/plain; version=0.0.4; charset=utf-8');
    res.end(page);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

let t: ReturnType<typeof tempDir>;
beforeEach(() => {
  t = tempDir('nriplg-');
  page = fixture('dropped-30-slow.prom');
});
afterEach(() => t.cleanup());

/** A node whose containerd config names the metrics address, with 10-resource-policy and 20-idle installed. */
function writeNode(metrics = `[metrics]\n  address = "127.0.0.1:${port}"\n`): string {
  for (const d of ['etc/containerd', 'opt/nri/plugins']) mkdirSync(join(t.dir, d), { recursive: true });
  writeFileSync(
    join(t.dir, 'etc/containerd/config.toml'),
    `version = 2\n${metrics}[plugins."io.containerd.nri.v1.nri"]\n  disable = false\n`,
  );
  writeElf(join(t.dir, 'opt/nri/plugins/10-resource-policy'));
  writeElf(join(t.dir, 'opt/nri/plugins/20-idle'));
  return t.dir;
}

interface Listed {
  source: string;
  fallback?: string;
  activePlugins?: number;
  plugins: Array<{ name: string; state: string; origin: string; metrics?: { invocations: number } }>;
}
const json = (stdout: string) => JSON.parse(stdout) as Listed;

/** The page as a runtime that started `agoS` seconds ago serves it (client_golang's process collector). */
const startedAgo = (text: string, agoS: number): string =>
  `${text}process_start_time_seconds ${(Date.now() / 1000 - agoS).toFixed(2)}\n`;

describe('nrictl plugins with the runtime metrics', () => {
  it('lists the plugins by full name; one that failed and left at a time the counters cannot say is gone, not dropped; an idle installed one not running', async () => {
    const root = writeNode();
    const r = await runCli(['plugins', '--root', root, '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const l = json(r.stdout);
    expect(l.source).toBe('runtime-metrics');
    expect(l.activePlugins).toBe(2);
    expect(l.plugins.map((p) => [p.name, p.state, p.origin, p.metrics?.invocations ?? 0])).toEqual([
      ['10-resource-policy', 'active', 'plugin-dir', 8],
      ['20-idle', 'not-running', 'plugin-dir', 0],
      ['30-slow', 'gone', 'external', 5],
      ['50-logger', 'active', 'external', 34],
    ]);
  });

  it('the same failure is dropped when the runtime started within the drop window, and history when it started before', async () => {
    const root = writeNode();
    const base = fixture('dropped-30-slow.prom');
    const stateOf = async (): Promise<string | undefined> => {
      const r = await runCli(['plugins', '--root', root, '-o', 'json']);
      expect(r.code, r.stderr).toBe(0);
      return json(r.stdout).plugins.find((p) => p.name === '30-slow')?.state;
    };
    page = startedAgo(base, 60);
    expect(await stateOf()).toBe('dropped');
    page = startedAgo(base, 3600);
    expect(await stateOf()).toBe('gone');
  });

  it('a pre-started plugin the runtime dropped before the window is installed and not running, with its failure', async () => {
    const root = writeNode();
    writeElf(join(root, 'opt/nri/plugins/30-slow'));
    const r = await runCli(['plugins', '--root', root]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n').find((l) => l.startsWith('30-slow'))).toMatch(
      /^30-slow\s+not running\s+plugin-dir\s+5\s+CreateContainer: 1 deadline_exceeded/,
    );
    expect(r.stdout).toMatch(
      /30-slow: failed earlier \(the runtime's counters keep every fatal failure since it started/,
    );
  });
  it('the table shows failures by operation and the slowest p99 against the timeout', async () => {
    const root = writeNode();
    const r = await runCli(['plugins', '--root', root]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`Plugins the runtime counts at http://127.0.0.1:${port}/v1/metrics: 2 active`);
    const slow = r.stdout.split('\n').find((l) => l.startsWith('30-slow'))!;
    expect(slow).toMatch(
      /^30-slow\s+gone \(failed earlier\)\s+external\s+5\s+CreateContainer: 1 deadline_exceeded\s+CreateContainer ~2\.48 s \(124% of the timeout\)$/,
    );
    expect(r.stderr).toBe('');
  });

  it('-o name: one full name a line', async () => {
    const r = await runCli([
      'plugins',
      '--metrics-url',
      `http://127.0.0.1:${port}/v1/metrics`,
      '--plugin-dir',
      t.dir,
      '-o',
      'name',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('10-resource-policy\n30-slow\n50-logger\n');
  });

  it('--metrics-url that cannot be read is an error naming the flag; one that serves no NRI metrics falls back', async () => {
    const missing = await runCli(['plugins', '--metrics-url', `127.0.0.1:${port}/nope`, '--plugin-dir', t.dir]);
    expect(missing.code).toBe(1);
    expect(missing.stderr.trim()).toBe(
      `Error: --metrics-url: http://127.0.0.1:${port}/nope answered HTTP 404: no metrics served there`,
    );
    page = 'go_goroutines 12\n';
    const other = await runCli(['plugins', '--metrics-url', `127.0.0.1:${port}`, '--plugin-dir', t.dir, '-o', 'json']);
    expect(other.code, other.stderr).toBe(0);
    expect(json(other.stdout).fallback).toMatch(/has no NRI metrics \(containerd before 2\.3 has none\)/);
    page = 'not a metrics page at all';
    const bad = await runCli(['plugins', '--metrics-url', `127.0.0.1:${port}`, '--plugin-dir', t.dir]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/is not a Prometheus text page \(line 1: expected a value/);
  });
});

describe('nrictl plugins without metrics', () => {
  it('lists the plugin directory of the tree under --root, without probing this machine, and says why on stderr', async () => {
    const root = writeNode('');
    const r = await runCli(['plugins', '--root', root]);
    expect(r.code, r.stderr).toBe(0);
    // A node's tree under --root: this machine's processes say nothing of it.
    expect(r.stdout).toMatch(/10-resource-policy\s+installed, not known to be running\s+installed file$/m);
    expect(r.stdout).toContain(`Not seen: --root ${root}: the probes see this machine's processes and sockets`);
    expect(r.stderr.trim()).toMatch(/config\.toml sets no metrics address .*--metrics-url/);
  });

  it('a configured address nobody serves: falls back, saying so', async () => {
    const root = writeNode('[metrics]\n  address = "127.0.0.1:1"\n');
    const r = await runCli(['plugins', '--root', root, '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const l = json(r.stdout);
    expect(l.source).toBe('plugin-dir');
    expect(l.fallback).toMatch(/cannot read http:\/\/127\.0\.0\.1:1\/v1\/metrics: ECONNREFUSED/);
    // Only the tree's plugin directory: no process of this machine (other tests start plugins) is taken for the node's.
    expect(l.plugins.map((p) => [p.name, p.state])).toEqual([
      ['10-resource-policy', 'installed'],
      ['20-idle', 'installed'],
    ]);
  });
});

describe('doctor and the runtime metrics', () => {
  const findings = (stdout: string) =>
    (JSON.parse(stdout) as { findings: Array<{ severity: string; code: string; message: string; fix: string }> })
      .findings;

  it('a plugin from outside that failed before the window is an info finding, no error', async () => {
    const root = writeNode();
    const r = await runCli(['doctor', '--root', root, '-o', 'json']);
    const f = findings(r.stdout).filter((x) => x.code.startsWith('plugin-'));
    expect(f.map((x) => [x.severity, x.code])).toEqual([['info', 'plugin-gone']]);
    expect(f[0].message).toMatch(
      /^30-slow failed a call fatally \(CreateContainer: deadline_exceeded\) and is no longer connected; .* do not say when/,
    );
  });

  it('a plugin dropped within the window is an error finding', async () => {
    const root = writeNode();
    page = startedAgo(fixture('dropped-30-slow.prom'), 30);
    const r = await runCli(['doctor', '--root', root, '-o', 'json']);
    const dropped = findings(r.stdout).filter((f) => f.code === 'plugin-dropped');
    expect(dropped).toEqual([
      expect.objectContaining({
        severity: 'error',
        message: expect.stringMatching(
          /^30-slow was dropped by the runtime \(CreateContainer: deadline_exceeded\) within the last 5 minutes: .*; its CreateContainer handler took at least the runtime's request timeout of 2000 ms$/,
        ),
        // What the SDK tells the plugin it dropped, and the setting to raise.
        fix: expect.stringMatching(
          /^the runtime drops a plugin whose answer is late; answer within it \(do slow work after answering\), or raise it: plugin_request_timeout in containerd's config\.toml/,
        ),
      }),
    ]);
  });

  it('a plugin past half the timeout is a warning; a healthy page says nothing', async () => {
    const root = writeNode();
    page = fixture('slow-30-slow.prom');
    const slow = findings((await runCli(['doctor', '--root', root, '-o', 'json'])).stdout);
    expect(slow.filter((f) => f.code.startsWith('plugin-')).map((f) => [f.severity, f.code, f.message])).toEqual([
      [
        'warning',
        'plugin-near-timeout',
        '30-slow: CreateContainer mean 1.600 s over 3 calls, past half of the 2000 ms request timeout; the runtime drops a plugin for good the first time it answers late',
      ],
    ]);
    page = fixture('healthy.prom');
    const healthy = findings((await runCli(['doctor', '--root', root, '-o', 'json'])).stdout);
    expect(healthy.filter((f) => f.code.startsWith('plugin-') || f.code.startsWith('runtime-metrics'))).toEqual([]);
  });
});

describe("doctor: the default validator's required plugins against the connected ones", () => {
  const findings = (stdout: string) =>
    (JSON.parse(stdout) as { findings: Array<{ severity: string; code: string; message: string }> }).findings;

  it('connected (by name or NN-name) or installed and connected passes; neither installed nor connected is an error', async () => {
    const root = writeNode();
    const config = join(root, 'etc/containerd/config.toml');
    writeFileSync(
      config,
      `version = 2\n[metrics]\n  address = "127.0.0.1:${port}"\n[plugins."io.containerd.nri.v1.nri"]\n  disable = false\n` +
        `  [plugins."io.containerd.nri.v1.nri".default_validator]\n    enable = true\n` +
        `    required_plugins = ["resource-policy", "50-logger", "idle", "gatekeeper"]\n`,
    );
    page = fixture('healthy.prom');
    const r = await runCli(['doctor', '--root', root, '-o', 'json']);
    const dir = join(root, 'opt/nri/plugins');
    const found = findings(r.stdout).filter((f) => /required-plugin|plugins-connected/.test(f.code));
    expect(found.map((f) => [f.severity, f.code, f.message])).toEqual([
      [
        'error',
        'required-plugin-missing',
        `required plugin "gatekeeper" is neither installed in ${dir} nor connected: the runtime rejects every container creation (validation error: required plugin "gatekeeper" not present)`,
      ],
      [
        'error',
        'required-plugin-not-connected',
        `required plugin "idle" is installed in ${dir} but the runtime's metrics show it not connected: the runtime rejects every container creation (validation error: required plugin "idle" not present)`,
      ],
    ]);
    expect(r.code).toBe(1);
  });
});
