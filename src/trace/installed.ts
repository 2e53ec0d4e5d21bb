// Where the installed plugins are, and the request timeout, as far as the node says:
// the plugin directory as `validate` reads it and the runtime's configuration as
// `doctor` finds it (src/checks). External plugins are not in any file: --index names them.
import { diagnoseNode, listDiscoverable } from '../checks/index.js';
import { metricsUrl, nriMetrics, RuntimeMetricsError, scrapeMetrics } from '../session/index.js';
import type { InstalledPlugin } from './placement.js';

export interface NodeFacts {
  pluginPath: string;
  plugins: InstalledPlugin[];
  /** The runtime config's request timeout; undefined when no config was found. */
  configTimeout: { ms: number; from: string } | undefined;
  /** containerd's metrics address, from its config: its NRI metrics name external plugins (2.3 and later). */
  metricsAddress?: string | undefined;
}

/** With pluginDir given the runtime config is not read (the runtime's Configure request or --request-timeout tell the timeout). */
export function readNodeFacts(opts: { pluginDir?: string | undefined; root?: string } = {}): NodeFacts {
  if (opts.pluginDir !== undefined) {
    return { pluginPath: opts.pluginDir, plugins: fromDir(opts.pluginDir), configTimeout: undefined };
  }
  const d = diagnoseNode({ root: opts.root ?? '/', checkOwner: false });
  const pluginPath = d.resolved.pluginPath;
  const chosen = d.runtimeConfigs.find((r) => r.file === d.settingsFrom);
  return {
    pluginPath,
    metricsAddress: chosen?.format === 'containerd' ? chosen.metricsAddress : undefined,
    plugins: fromDir(pluginPath),
    // An invalid value in the file (null) leaves the runtime's Configure request or the default to tell.
    configTimeout:
      d.settingsFrom && d.settings.requestTimeoutMs !== null
        ? { ms: d.settings.requestTimeoutMs, from: d.settingsFrom }
        : undefined,
  };
}

function fromDir(dir: string): InstalledPlugin[] {
  return listDiscoverable(dir).map((p): InstalledPlugin => ({ index: p.index, name: p.name, source: 'plugin-dir' }));
}

/** Merges sources, one entry per index+name. */
export function mergeInstalled(...lists: InstalledPlugin[][]): InstalledPlugin[] {
  const seen = new Map<string, InstalledPlugin>();
  for (const list of lists) {
    for (const p of list) {
      const known = [...seen.values()].some((q) => q.index === p.index && q.name !== undefined);
      if (p.name === undefined && known) continue;
      seen.set(`${p.index}-${p.name ?? '?'}`, p);
    }
  }
  return [...seen.values()];
}

/** How long trace waits for the runtime's metrics before it goes on without their names. */
const METRICS_WAIT_MS = 1000;

/**
 * The plugins the runtime's own metrics name (containerd 2.3 and later), external ones
 * included, so that trace can say "50-logger" where it would say "index 50". Any failure
 * leaves the names out, with a note: naming is a help, never a reason not to trace.
 */
export async function pluginsFromRuntimeMetrics(
  address: string,
  signal?: AbortSignal,
): Promise<{ plugins: InstalledPlugin[]; note?: string }> {
  try {
    const url = metricsUrl(address);
    const m = nriMetrics(await scrapeMetrics(url, { timeoutMs: METRICS_WAIT_MS, signal }));
    const plugins = m.plugins
      .filter((p) => p.state === 'active' && /^\d\d-./.test(p.plugin))
      .map((p): InstalledPlugin => ({
        index: p.plugin.slice(0, 2),
        name: p.plugin.slice(3),
        source: 'runtime-metrics',
      }));
    return { plugins };
  } catch (err) {
    if (!(err instanceof RuntimeMetricsError) || err.code === 'cancelled') throw err;
    return { plugins: [], note: `external plugins not named: the runtime's metrics were not read (${err.message})` };
  }
}
