// `nrictl plugins`: the plugins a node runs, from the runtime's metrics, or what the
// plugin directory holds when the runtime has none to give.
import type { ListedPlugin, PluginsReport } from '../diagnose/index.js';
import type { OperationMetrics } from '../session/index.js';
import { alignColumns, chalk, fitProse, type View } from '../output/index.js';

const STATE_TEXT: Record<ListedPlugin['state'], string> = {
  active: 'active',
  dropped: 'dropped',
  failed: 'failed',
  gone: 'gone (failed earlier)',
  'not-running': 'not running',
  installed: 'installed, not known to be running',
  running: 'running',
};

export const pluginsView: View<PluginsReport> = {
  text(r, { width, wide }) {
    const timeout = `request timeout ${r.requestTimeoutMs} ms${r.requestTimeoutFrom ? ` (${r.requestTimeoutFrom})` : ' (the default)'}`;
    if (r.source === 'plugin-dir') return probedText(r, timeout, width);
    const head = fitProse(
      `Plugins the runtime counts at ${r.metricsUrl}: ${r.activePlugins} active; ${timeout}.`,
      width,
    );
    const rows = [
      ['PLUGIN', 'STATE', 'FROM', 'CALLS', 'FAILED', 'SLOWEST P99'].map((h) => chalk.bold(h)),
      ...r.plugins.map((p) => row(p, r.requestTimeoutMs)),
    ];
    const lines = [...alignColumns(rows), ...historyNote(r, width)];
    if (!wide) return [head, ...lines].join('\n');
    const detail = r.plugins.flatMap((p) =>
      (p.metrics?.operations ?? []).map((o) => `  ${p.name} ${operationLine(o, r.requestTimeoutMs)}`),
    );
    return [head, ...lines, '', chalk.bold('By operation:'), ...detail].join('\n');
  },
  data: (r) => r,
  names: (r) => r.plugins.map((p) => p.name),
  note: (r) => (r.source === 'plugin-dir' ? r.fallback : undefined),
};

/**
 * The runtime's counters keep every fatal failure since it started; one reading cannot
 * say when one happened. Said when a row is history rather than an alarm.
 */
function historyNote(r: PluginsReport, width: number | undefined): string[] {
  const past = r.plugins.filter((p) => p.state === 'gone' || (p.state === 'not-running' && p.metrics?.fatal));
  if (past.length === 0 || r.dropWindowMs === undefined) return [];
  const window = `${Math.round(r.dropWindowMs / 60_000)} minutes`;
  const when =
    r.dropWindowFrom === 'readings'
      ? `no new fatal failure within the last ${window}`
      : "the runtime's counters keep every fatal failure since it started, and one reading cannot say when it happened";
  return [
    '',
    fitProse(
      `${past.map((p) => p.name).join(', ')}: failed earlier (${when}). "dropped" is said only of a failure known to be within the last ${window}; nrictl exporter watches for new ones.`,
      width,
    ),
  ];
}

/** Without metrics: a row per plugin or connection, with what the probe saw and nothing more. */
function probedText(r: PluginsReport, timeout: string, width: number | undefined): string {
  const head = fitProse(`Plugins installed in ${r.pluginDir}, and what probes of the node see; ${timeout}.`, width);
  const rows = [
    ['PLUGIN', 'STATE', 'SEEN BY'].map((h) => chalk.bold(h)),
    ...r.plugins.map((p) => [p.name, PROBED_STATE[p.state] ?? STATE_TEXT[p.state], seenBy(p)]),
    ...(r.connections ?? []).map((c) => [
      chalk.dim('(name unknown)'),
      'external, connected',
      `connection to ${r.probes?.socketPath ?? 'the NRI socket'} ${c.peers.length ? `from ${c.peers.map((p) => `pid ${p.pid} "${p.command}"`).join(', ')}` : '(process not named)'}`,
    ]),
  ];
  const lines = rows.length > 1 ? alignColumns(rows) : ['  none'];
  const count = r.connections?.length
    ? [
        fitProse(
          `${r.connections.length === 1 ? '1 client is' : `${r.connections.length} clients are`} connected to ${r.probes?.socketPath} now: external plugins, or tools such as nrictl logs. Their NRI names are known only to the runtime (its metrics name them: --metrics-url).`,
          width,
        ),
      ]
    : [];
  const limits = (r.probes?.limits ?? []).map((l) => fitProse(`Not seen: ${l}.`, width));
  return [head, ...lines, ...(count.length || limits.length ? [''] : []), ...count, ...limits].join('\n');
}

const PROBED_STATE: Partial<Record<ListedPlugin['state'], string>> = {
  running: 'running',
  'not-running': 'installed, not running',
};

function seenBy(p: ListedPlugin): string {
  const seen = [
    ...(p.file ? ['installed file'] : []),
    ...(p.process
      ? [
          p.byCommandLine
            ? `process ${p.process.pid} "${p.process.command}" runs the file (environment not readable)`
            : `process ${p.process.pid} "${p.process.command}" with NRI_PLUGIN_NAME/IDX (as runtimes start plugins)`,
        ]
      : []),
  ];
  if (p.file && !p.process && p.state === 'not-running') seen.push('no process with NRI_PLUGIN_NAME/IDX');
  return seen.join('; ') || '-';
}

function row(p: ListedPlugin, timeoutMs: number): string[] {
  const state =
    p.state === 'dropped'
      ? chalk.red('dropped')
      : p.state === 'failed'
        ? chalk.yellow('failed')
        : p.state === 'gone'
          ? chalk.dim(STATE_TEXT.gone)
          : STATE_TEXT[p.state];
  const m = p.metrics;
  if (!m) return [p.name, state, p.origin, '0', '-', '-'];
  const errors = m.operations.flatMap((o) => Object.entries(o.errors).map(([e, n]) => `${o.operation}: ${n} ${e}`));
  const slowest = [...m.operations].filter((o) => o.p99 !== undefined).sort((a, b) => (b.p99 ?? 0) - (a.p99 ?? 0))[0];
  return [
    p.name,
    state,
    p.origin,
    String(m.invocations),
    errors.length ? errors.join(', ') : '-',
    slowest ? `${slowest.operation} ~${seconds(slowest.p99!)} (${share(slowest.p99!, timeoutMs)})` : '-',
  ];
}

function operationLine(o: OperationMetrics, timeoutMs: number): string {
  const errors = Object.entries(o.errors).map(([e, n]) => `${n} ${e}`);
  const latency =
    o.p99 === undefined
      ? 'no latency recorded'
      : `p50 ~${seconds(o.p50!)}, p99 ~${seconds(o.p99)} (${share(o.p99, timeoutMs)}), mean ${o.mean === undefined ? '-' : seconds(o.mean)}`;
  return `${o.operation}: ${o.invocations} ${o.invocations === 1 ? 'call' : 'calls'}${errors.length ? `, failed ${errors.join(', ')}` : ''}; ${latency}`;
}

const seconds = (s: number): string => (s < 1 ? `${(s * 1000).toFixed(1)} ms` : `${s.toFixed(2)} s`);
// Estimated from buckets (as histogram_quantile does), hence "~" and a coarse share.
const share = (s: number, timeoutMs: number): string => {
  if (timeoutMs <= 0) return 'no timeout';
  const pct = (s * 1000 * 100) / timeoutMs;
  return `${pct < 1 ? '<1' : pct.toFixed(0)}% of the timeout`;
};
