// `nrictl fleet`: a row per node, what its exporter last told Prometheus; the nodes that
// fail the gate, and why, under the table.
import type { FleetNode, FleetReport } from '../fleet/index.js';
import { alignColumns, chalk, fitProse, type View } from '../output/index.js';

export const fleetView: View<FleetReport> = {
  text(r, { width, wide }) {
    if (r.nodes.length === 0) return '';
    const head = ['NODE', 'RUNTIME', 'NRI', 'UP', 'PLUGINS', 'FINDINGS', 'CONFORMANCE'];
    const extra = ['INSTANCE', 'NAMED PLUGINS', 'ERROR CODES', 'FAILED CHECKS'];
    const rows = [
      (wide ? [...head, ...extra] : head).map((h) => chalk.bold(h)),
      ...r.nodes.map((n) => (wide ? [...row(n, r.at), ...wideCells(n)] : row(n, r.at))),
    ];
    const failing = r.nodes.filter((n) => n.problems.length > 0);
    const summary = failing.length
      ? [
          '',
          fitProse(
            `${failing.length} of ${r.nodes.length} nodes need a look: ${failing.map((n) => `${n.node} (${n.problems.join(', ')})`).join('; ')}.`,
            width,
          ),
        ]
      : [];
    return [...alignColumns(rows), ...summary].join('\n');
  },
  data: (r) => r,
  names: (r) => r.nodes.map((n) => n.node),
  note(r) {
    const where = `nrictl_nri_up${r.selector ? `{${r.selector}}` : ''}`;
    if (r.nodes.length === 0)
      return `No node reported ${where} to ${r.prometheus} in the last ${r.lookbackSeconds} s: are the exporters scraped (job nrictl-exporter), and does the selector match their labels?`;
    return undefined;
  },
};

function row(n: FleetNode, at: number): string[] {
  return [
    n.node,
    n.runtimes.map((x) => [x.runtime, x.version].filter(Boolean).join(' ')).join(', ') || '-',
    n.runtimes.map((x) => x.nriVersion || '?').join(', ') || '-',
    upText(n, at),
    pluginsText(n),
    findingsText(n),
    conformanceText(n),
  ];
}

function upText(n: FleetNode, at: number): string {
  if (n.stale) {
    const seen = n.lastSample ?? n.lastRefresh;
    return chalk.red(seen === undefined ? 'stale' : `stale (${age(at - seen)} ago)`);
  }
  return n.up ? 'yes' : chalk.red('no');
}

function pluginsText(n: FleetNode): string {
  const p = n.plugins;
  if (!p) return '-';
  const running = p.active + p['pre-started'] + p.external;
  const dropped = p.dropped ? chalk.red(`${p.dropped} dropped`) : '0 dropped';
  const idle = p['not-running'] + p.misnamed;
  return `${running} active, ${dropped}, ${idle ? chalk.yellow(`${idle} not running`) : '0 not running'}`;
}

function findingsText(n: FleetNode): string {
  const f = n.findings;
  if (!f) return '-';
  const parts = [
    f.error ? chalk.red(`${f.error} error${f.error === 1 ? '' : 's'}`) : '',
    f.warning ? `${f.warning} warning${f.warning === 1 ? '' : 's'}` : '',
  ].filter(Boolean);
  return parts.join(', ') || 'none';
}

function conformanceText(n: FleetNode): string {
  const c = n.conformance;
  if (!c) return 'no report';
  const failed = c.fail + c.error;
  const total = c.pass + c.fail + c.skip + c.error;
  return failed ? chalk.red(`${failed} of ${total} failed`) : `${c.pass} of ${total} passed`;
}

function wideCells(n: FleetNode): string[] {
  return [
    n.instances.join(', ') || '-',
    n.pluginsNamed.map((p) => `${p.index ? `${p.index}-` : ''}${p.plugin} ${p.state}`).join(', ') || '-',
    n.errorCodes.join(', ') || '-',
    n.failedChecks.join(', ') || '-',
  ];
}

function age(seconds: number): string {
  if (seconds < 120) return `${Math.max(0, Math.round(seconds))} s`;
  if (seconds < 7200) return `${Math.round(seconds / 60)} min`;
  return `${Math.round(seconds / 3600)} h`;
}
