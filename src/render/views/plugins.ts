// `nrictl plugins`: the plugins a node runs, from the runtime's metrics, or what the
// plugin directory holds when the runtime has none to give.
import type { ListedPlugin, PluginsReport } from '../../diagnose/index.js';
import type { OperationMetrics } from '../../session/index.js';
import { chalk } from '../colour.js';
import { alignColumns } from '../columns.js';
import type { View } from '../output.js';
import { fitProse } from '../wrap.js';

const STATE_TEXT: Record<ListedPlugin['state'], string> = {
  active: 'active',
  dropped: 'dropped',
  failed: 'failed',
  'not-running': 'not running',
  installed: 'installed, not known to be running',
};

export const pluginsView: View<PluginsReport> = {
  text(r, { width, wide }) {
    const timeout = `request timeout ${r.requestTimeoutMs} ms${r.requestTimeoutFrom ? ` (${r.requestTimeoutFrom})` : ' (the default)'}`;
    if (r.source === 'plugin-dir') {
      const head = fitProse(`Plugins installed in ${r.pluginDir}; ${timeout}.`, width);
      const rows = r.plugins.map((p) => [`  ${p.name}`, chalk.dim(STATE_TEXT[p.state])]);
      return [head, ...(rows.length ? alignColumns(rows) : ['  none'])].join('\n');
    }
    const head = fitProse(
      `Plugins the runtime counts at ${r.metricsUrl}: ${r.activePlugins} active; ${timeout}.`,
      width,
    );
    const rows = [
      ['PLUGIN', 'STATE', 'FROM', 'CALLS', 'FAILED', 'SLOWEST P99'].map((h) => chalk.bold(h)),
      ...r.plugins.map((p) => row(p, r.requestTimeoutMs)),
    ];
    const lines = alignColumns(rows);
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

function row(p: ListedPlugin, timeoutMs: number): string[] {
  const state =
    p.state === 'dropped' ? chalk.red('dropped') : p.state === 'failed' ? chalk.yellow('failed') : STATE_TEXT[p.state];
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
