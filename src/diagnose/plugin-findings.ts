// doctor's reading of the runtime's own plugin metrics (containerd 2.3 and later): a
// plugin the runtime dropped lately, or a pre-started one it dropped at any time (the
// runtime does not start it again), is an error (it is called no more, and the
// containers it was to adjust start without it); one whose failures or latency put it
// near the request timeout a warning, since the runtime drops a plugin the first time it
// answers late. A plugin from outside that failed before the window and is gone (a test
// plugin that came and went) is history: said, not an alarm. Only what the counts prove
// is said: no false alarms.
import { lateAnswerConsequence, requestTimeoutSetting } from '../api/index.js';
import {
  finding,
  listDiscoverable,
  type ConnectedPlugins,
  type Finding,
  type OfflineDiagnosis,
} from '../checks/index.js';
import { metricsUrl, nriMetrics, RuntimeMetricsError, scrapeMetrics, type PluginMetrics } from '../session/index.js';
import { DROP_WINDOW_MS, droppedInOneReading, listedState } from './drop-window.js';
import type { ListedState } from './listed-plugin.js';

const RUNTIME_NAMES: Record<string, string> = { crio: 'CRI-O', isulad: 'iSulad', docker: 'Docker Engine' };

const FIX_LATE = "make the plugin answer faster (do slow work after answering), or raise the runtime's request timeout";

/**
 * Findings from the metrics address the chosen containerd config names (none when it
 * names none), and which plugins the counts show connected, or why they cannot tell.
 */
export async function runtimeMetricsFindings(
  d: OfflineDiagnosis,
  timeoutMs: number | undefined,
  signal?: AbortSignal,
): Promise<{ findings: Finding[]; connected: ConnectedPlugins }> {
  const chosen = d.runtimeConfigs.find((r) => r.file === d.settingsFrom);
  if (chosen?.format !== 'containerd')
    return {
      findings: [],
      connected: {
        unknown: `${chosen ? RUNTIME_NAMES[chosen.format] : 'the runtime'} serves no NRI metrics (containerd does, from 2.3 on), and NRI tells a plugin nothing of the others`,
      },
    };
  if (!chosen.metricsAddress)
    return {
      findings: [],
      connected: { unknown: `${chosen.file} sets no metrics address, so the runtime's NRI metrics were not read` },
    };
  const requestMs = d.settings.requestTimeoutMs ?? 2000;
  let path = chosen.metricsAddress;
  try {
    const url = metricsUrl(chosen.metricsAddress);
    path = url.href;
    const m = nriMetrics(await scrapeMetrics(url, { timeoutMs: timeoutMs ?? requestMs, signal }));
    if (m.activePlugins === undefined)
      return { findings: [], connected: { unknown: `${path} has no NRI metrics (containerd before 2.3 has none)` } };
    const installed = installedNames(d.resolved.pluginPath);
    const dropped = droppedInOneReading(m, Date.now());
    return {
      findings: m.plugins.flatMap((p) => {
        const origin = installed.has(p.plugin) ? 'plugin-dir' : 'external';
        return pluginFindings(p, listedState(p.state, origin, dropped.has(p.plugin)), path, requestMs);
      }),
      connected: { names: m.plugins.filter((p) => p.state === 'active').map((p) => p.plugin) },
    };
  } catch (err) {
    if (!(err instanceof RuntimeMetricsError) || err.code === 'cancelled') throw err;
    const fix = 'check [metrics] address in config.toml, or read the plugins with nrictl plugins --metrics-url';
    return {
      findings: [
        finding('info', path, 'runtime-metrics-unread', `the runtime's metrics were not read: ${err.message}`, fix),
      ],
      connected: { unknown: `the runtime's metrics were not read (${err.message})` },
    };
  }
}

/** containerd's metrics come from containerd: its setting, as the SDK names it to a plugin it dropped. */
const CONTAINERD_SETTING = requestTimeoutSetting('containerd', '');

/**
 * Why the runtime dropped it, where the counts say: a call past the request timeout
 * (deadline_exceeded) is the plugin's answer coming late, said as the SDK says it to the
 * plugin it dropped; a dead connection ("other") says no more than that.
 */
function lateAnswer(p: PluginMetrics, requestMs: number): { why: string; fix: string } {
  const [operation, error] = (p.fatal ?? '').split(': ');
  if (error !== 'deadline_exceeded') return { why: '', fix: FIX_LATE };
  const timeout = `${requestMs} ms`;
  return {
    why: `; its ${operation} handler took at least the runtime's request timeout of ${timeout}`,
    fix: lateAnswerConsequence(CONTAINERD_SETTING),
  };
}

function installedNames(pluginDir: string): Set<string> {
  try {
    return new Set(listDiscoverable(pluginDir).map((p) => `${p.index}-${p.name}`));
  } catch {
    return new Set();
  }
}

const WINDOW = `${DROP_WINDOW_MS / 60_000} minutes`;

function pluginFindings(p: PluginMetrics, state: ListedState, path: string, requestMs: number): Finding[] {
  const late = lateAnswer(p, requestMs);
  if (state === 'dropped')
    return [
      finding(
        'error',
        path,
        'plugin-dropped',
        `${p.plugin} was dropped by the runtime (${p.fatal}) within the last ${WINDOW}: the runtime calls it no more, and containers start without it${late.why}`,
        `${late.fix}; then restart the runtime (a pre-started plugin) or the plugin (an external one)`,
      ),
    ];
  if (state === 'not-running')
    return [
      finding(
        'error',
        path,
        'plugin-dropped',
        `${p.plugin} was dropped by the runtime (${p.fatal}) at some time since it started, and a pre-started plugin is not started again: it is not running, and containers start without it${late.why}`,
        `${late.fix}; then restart the runtime`,
      ),
    ];
  if (state === 'gone')
    return [
      finding(
        'info',
        path,
        'plugin-gone',
        `${p.plugin} failed a call fatally (${p.fatal}) and is no longer connected; the runtime's counters keep every failure since it started (over ${WINDOW} ago) and do not say when: a plugin that came and went (a test plugin) is no fault, and nrictl exporter says dropped only of a failure it sees happen`,
        `if ${p.plugin} should be running, start it again; the counters forget it when the runtime restarts`,
      ),
    ];
  if (state === 'failed')
    return [
      finding(
        'warning',
        path,
        'plugin-failed',
        `${p.plugin} failed a call fatally (${p.fatal}): the runtime dropped it then; the counts cannot tell whether it reconnected${late.why}`,
        `see nrictl plugins, and the runtime's log ("closing plugin ${p.plugin}")`,
      ),
    ];
  const out: Finding[] = [];
  const half = requestMs / 2 / 1000;
  for (const o of p.operations) {
    const late = Math.max(o.p99AtLeast ?? 0, o.mean ?? 0);
    if (late >= half) {
      const by = (o.p99AtLeast ?? 0) >= (o.mean ?? 0) ? `p99 at least ${late} s` : `mean ${late.toFixed(3)} s`;
      out.push(
        finding(
          'warning',
          path,
          'plugin-near-timeout',
          `${p.plugin}: ${o.operation} ${by} over ${o.invocations} calls, past half of the ${requestMs} ms request timeout; the runtime drops a plugin for good the first time it answers late`,
          FIX_LATE,
        ),
      );
    }
    const answered = Object.entries(o.errors).filter(([e]) => e !== 'deadline_exceeded' && e !== 'other');
    const failed = answered.reduce((n, [, c]) => n + c, 0);
    if (failed > 0)
      out.push(
        finding(
          'warning',
          path,
          'plugin-errors',
          `${p.plugin}: ${failed} of ${o.invocations} ${o.operation} calls failed (${answered.map(([e, c]) => `${c} ${e}`).join(', ')}): each failed the runtime's ${o.operation}`,
          "see the plugin's log for why it answers with an error",
        ),
      );
  }
  return out;
}
