// deploy/prometheus/ checked by Prometheus' own promtool, where it is installed (Debian:
// apt-get install prometheus): the rules load, their unit tests pass (each alert fires and
// stays quiet), the dashboard's queries parse. Without promtool these are skipped, and say so.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const rulesDir = join(root, 'deploy/prometheus/rules');
const promtool = spawnSync('promtool', ['--version'], { encoding: 'utf8' });
const missing = promtool.error
  ? `promtool not installed (${(promtool.error as NodeJS.ErrnoException).code})`
  : undefined;

function run(args: string[], cwd = rulesDir): { code: number | null; out: string } {
  const r = spawnSync('promtool', args, { cwd, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

describe.skipIf(missing !== undefined)(
  `promtool on deploy/prometheus${missing ? ` (skipped: ${missing})` : ''}`,
  () => {
    it('loads the alerting rules', () => {
      const r = run(['check', 'rules', 'nrictl.rules.yaml']);
      expect(r.out).toMatch(/SUCCESS: \d+ rules found/);
      expect(r.code).toBe(0);
    });

    it('passes the rules’ unit tests: each alert fires, and stays quiet, as they say', () => {
      const r = run(['test', 'rules', 'nrictl.rules.test.yaml']);
      expect(r.out).toMatch(/SUCCESS/);
      expect(r.code).toBe(0);
    });

    it('fails the unit tests when a rule is broken: they can fail', () => {
      const dir = mkdtempSync(join(tmpdir(), 'nrictl-rules-'));
      try {
        const broken = readFileSync(join(rulesDir, 'nrictl.rules.yaml'), 'utf8').replace(
          'nrictl_nri_up{job="nrictl-exporter"} == 0',
          'nrictl_nri_up{job="nrictl-exporter"} == 2',
        );
        writeFileSync(join(dir, 'nrictl.rules.yaml'), broken);
        writeFileSync(join(dir, 'nrictl.rules.test.yaml'), readFileSync(join(rulesDir, 'nrictl.rules.test.yaml')));
        const r = run(['test', 'rules', 'nrictl.rules.test.yaml'], dir);
        expect(r.code).not.toBe(0);
        expect(r.out).toMatch(/alertname: NrictlNRIDown/);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('parses every query of the Grafana dashboard (as recording rules, with $node as .*)', () => {
      const dash = JSON.parse(readFileSync(join(root, 'deploy/prometheus/grafana-dashboard.json'), 'utf8')) as {
        panels: Array<{ targets: Array<{ expr: string }> }>;
      };
      const exprs = dash.panels.flatMap((p) => p.targets.map((t) => t.expr.replaceAll('$node', '.*')));
      const dir = mkdtempSync(join(tmpdir(), 'nrictl-dash-'));
      try {
        const rules = {
          groups: [{ name: 'dashboard', rules: exprs.map((expr, i) => ({ record: `dashboard:q${i}`, expr })) }],
        };
        writeFileSync(join(dir, 'dashboard.rules.yaml'), YAML.stringify(rules));
        const r = run(['check', 'rules', 'dashboard.rules.yaml'], dir);
        expect(r.out).toContain(`SUCCESS: ${exprs.length} rules found`);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    // Debian's Prometheus is built without Kubernetes discovery: where promtool does not know
    // kubernetes_sd_configs, the check is skipped and says why (the integration test in
    // test/deploy/prometheus.test.ts runs the same relabelling on static targets).
    const config = run(['check', 'config', join(root, 'deploy/prometheus/scrape-config.yaml')]);
    const noK8s = /field kubernetes_sd_configs not found/.test(config.out);
    it.skipIf(noK8s)(
      `accepts the plain scrape config${noK8s ? ' (skipped: this promtool is built without Kubernetes discovery)' : ''}`,
      () => {
        expect(config.out).toMatch(/SUCCESS/);
        expect(config.code).toBe(0);
      },
    );
  },
);

it('says whether promtool ran', () => {
  // Visible in every run: which promtool checked deploy/, or why none did.
  const what = missing ?? execFileSync('promtool', ['--version'], { encoding: 'utf8' }).split('\n')[0];
  console.info(`promtool: ${what}`);
  expect(what).toBeTruthy();
});
