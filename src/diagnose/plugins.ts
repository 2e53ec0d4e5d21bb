// `nrictl plugins` below the command line: which plugins a node runs. Where the runtime
// counts its plugins (containerd 2.3 and later, /v1/metrics), the active ones by full
// name with their calls, failures and latency against the request timeout; elsewhere what
// the plugin directory holds and what probes of the node see (plugin-probes.ts): processes
// the runtime started, and connections to its NRI socket, each said as what it is.
import { diagnoseNode, listDiscoverable, type RuntimeKind } from '../checks/index.js';
import { metricsUrl, nriMetrics, RuntimeMetricsError, scrapeMetrics, type NriMetrics } from '../session/index.js';
import { DROP_WINDOW_MS, droppedInOneReading, listedState, type DropHistory } from './drop-window.js';
import type { ListedPlugin } from './listed-plugin.js';
import { probePlugins, type ExternalConnection, type PeerProcess, type ProbeReport } from './plugin-probes.js';

export type { ExternalConnection, PeerProcess, ProbeReport };

export interface PluginsOptions {
  /** The node's root (default '/'). */
  root?: string | undefined;
  /** Runtime config files to use instead of those found under root. */
  runtimeConfigs?: string[] | undefined;
  /** Read the runtime's metrics here (a URL, or HOST:PORT) instead of the config's [metrics] address. */
  metricsUrl?: string | undefined;
  /** The plugin directory, instead of the config's. */
  pluginDir?: string | undefined;
  /** Deadline of the scrape. */
  timeoutMs?: number | undefined;
  /** The runtime's NRI socket, for the probes without metrics (default: the config's, else /var/run/nri/nri.sock). */
  socketPath?: string | undefined;
  /**
   * Earlier readings of the same runtime (the exporter's): a plugin is dropped when its
   * fatal failures rose within the history's window. Without it (one reading), only when
   * the runtime started within the window.
   */
  history?: DropHistory | undefined;
}

export interface PluginsReport {
  /** Where the list comes from: the runtime's metrics, or the plugin directory only. */
  source: 'runtime-metrics' | 'plugin-dir';
  metricsUrl?: string | undefined;
  /** Why the runtime's metrics were not used (source 'plugin-dir'). */
  fallback?: string | undefined;
  /** The config names a metrics address that could not be read (source 'plugin-dir'): a failure, not a runtime without metrics. */
  metricsUnreadable?: boolean | undefined;
  runtime: RuntimeKind | undefined;
  pluginDir: string;
  requestTimeoutMs: number;
  /** The config the request timeout comes from; undefined: the runtimes' default. */
  requestTimeoutFrom?: string | undefined;
  /** The runtime's count of active plugins (containerd_nri_active_plugins_total). */
  activePlugins?: number | undefined;
  /** How recent a fatal failure must be to make a plugin "dropped" (drop-window.ts); older ones are history. */
  dropWindowMs?: number | undefined;
  /** What the window was measured against: earlier readings, or the runtime's start time in this one. */
  dropWindowFrom?: 'readings' | 'runtime-start' | 'unknown' | undefined;
  plugins: ListedPlugin[];
  /** Clients connected to the NRI socket now, names unknown (source 'plugin-dir': found by probes). */
  connections?: ExternalConnection[] | undefined;
  /** What the probes looked at and could not see (source 'plugin-dir'). */
  probes?: Omit<ProbeReport, 'connections'> | undefined;
}

const DEFAULT_REQUEST_TIMEOUT_MS = 2000;
const PROBED = "the list is the plugin directory's and what probes of the node see";
/** The runtime's builtin default validator (containerd 2.2+, CRI-O 1.34+) counts as a plugin of this name. */
const BUILTIN_VALIDATOR = '00-default-validator';

/** Throws RuntimeMetricsError only for an explicit metricsUrl that cannot be read; from the config, that is a fallback. */
export async function listPlugins(opts: PluginsOptions, signal?: AbortSignal): Promise<PluginsReport> {
  const explicit = opts.metricsUrl !== undefined ? metricsUrl(opts.metricsUrl) : undefined;
  const node = diagnoseNode({ root: opts.root ?? '/', runtimeConfigs: opts.runtimeConfigs, checkOwner: false });
  const chosen = node.runtimeConfigs.find((r) => r.file === node.settingsFrom);
  const pluginDir = opts.pluginDir ?? node.resolved.pluginPath;
  const installed = listDiscoverable(pluginDir).map((p) => `${p.index}-${p.name}`);
  const base = {
    runtime: chosen?.format,
    pluginDir,
    requestTimeoutMs: node.settings.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
    requestTimeoutFrom: node.settings.requestTimeoutMs !== null ? node.settingsFrom : undefined,
  };
  const fallback = async (why: string, metricsUnreadable = false): Promise<PluginsReport> => {
    const socketPath = opts.socketPath ?? node.node.socketPath;
    const { plugins, probes } = await probePlugins(socketPath, installed, pluginDir, signal, opts.root ?? '/');
    const { connections, ...seen } = probes;
    const report: PluginsReport = { ...base, source: 'plugin-dir', fallback: why, plugins, connections, probes: seen };
    return metricsUnreadable ? { ...report, metricsUnreadable } : report;
  };

  let url = explicit;
  if (!url) {
    if (chosen?.format !== 'containerd')
      return fallback(
        `${chosen ? chosen.format : 'the runtime'} serves no NRI metrics (containerd does, from 2.3 on): ${PROBED}, and external plugins are not named`,
      );
    if (!chosen.metricsAddress)
      return fallback(
        `${chosen.file} sets no metrics address ([plugins."io.containerd.server.v1.metrics"] address, or [metrics] address before config version 4): ${PROBED}; set one, or pass --metrics-url`,
      );
    try {
      url = metricsUrl(chosen.metricsAddress);
    } catch (err) {
      if (!(err instanceof RuntimeMetricsError)) throw err;
      return fallback(`${chosen.file}: metrics address ${err.message}: ${PROBED}`, true);
    }
  }
  let metrics: NriMetrics;
  try {
    metrics = nriMetrics(await scrapeMetrics(url, { timeoutMs: opts.timeoutMs, signal }));
  } catch (err) {
    if (explicit || !(err instanceof RuntimeMetricsError) || err.code === 'cancelled') throw err;
    return fallback(`${err.message}: ${PROBED}`, true);
  }
  if (metrics.activePlugins === undefined)
    return fallback(`${url.href} has no NRI metrics (containerd before 2.3 has none): ${PROBED}`);
  const now = Date.now();
  const dropped = opts.history ? opts.history.observe(metrics, now) : droppedInOneReading(metrics, now);
  const listed: ListedPlugin[] = metrics.plugins.map((m) => {
    const origin = installed.includes(m.plugin)
      ? 'plugin-dir'
      : m.plugin === BUILTIN_VALIDATOR
        ? 'builtin'
        : 'external';
    return { name: m.plugin, state: listedState(m.state, origin, dropped.has(m.plugin)), origin, metrics: m };
  });
  for (const name of installed)
    if (!listed.some((p) => p.name === name)) listed.push({ name, state: 'not-running', origin: 'plugin-dir' });
  listed.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return {
    ...base,
    source: 'runtime-metrics',
    metricsUrl: url.href,
    activePlugins: metrics.activePlugins,
    dropWindowMs: opts.history?.windowMs ?? DROP_WINDOW_MS,
    dropWindowFrom: opts.history ? 'readings' : metrics.runtimeStartedMs !== undefined ? 'runtime-start' : 'unknown',
    plugins: listed,
  };
}
