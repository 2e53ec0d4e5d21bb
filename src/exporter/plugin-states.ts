// A node's plugins in the six states of the exporter's contract, from what `nrictl plugins`
// computes (the runtime's metrics where it counts its plugins, else the plugin directory
// and probes) and doctor's misnamed-executable findings. What cannot be told is left out
// and said, never guessed into a state that would raise or hush an alert.
import { basename } from 'node:path';
import { parsePluginName } from '../api/index.js';
import type { Finding } from '../checks/index.js';
import type { ListedPlugin, PluginsReport } from '../diagnose/index.js';

export const PLUGIN_STATES = ['active', 'pre-started', 'external', 'not-running', 'dropped', 'misnamed'] as const;
export type PluginStateName = (typeof PLUGIN_STATES)[number];

export interface ExportedPlugin {
  /** The name without its index: "topology-aware"; a misnamed file's whole name. */
  plugin: string;
  /** Two digits, "" when none (a misnamed file). */
  index: string;
  state: PluginStateName;
}

export interface PluginStates {
  plugins: ExportedPlugin[];
  counts: Record<PluginStateName, number>;
  /** Installed plugins whose running the probes could not see (not root, hidepid): in no state. */
  undetermined: string[];
}

/**
 * `self` is the exporter's own full name ("99-nrictl-exporter"): the runtime counts it as
 * an external plugin, and every node would report one it does not run. `selfConnected`:
 * the exporter holds a connection to the probed socket now (one of the unnamed ones is ours).
 */
export function pluginStates(
  report: PluginsReport,
  findings: readonly Finding[],
  self: string,
  selfConnected: boolean,
): PluginStates {
  const plugins: ExportedPlugin[] = [];
  const undetermined: string[] = [];
  for (const p of report.plugins) {
    // History (failed before the drop window, no longer connected): neither a state nor a series.
    if (p.name === self || p.state === 'gone') continue;
    const state = stateOf(p);
    if (state === undefined) undetermined.push(p.name);
    else plugins.push({ ...split(p.name), state });
  }
  for (const f of findings)
    if (f.code === 'misnamed-executable') plugins.push({ plugin: basename(f.path), index: '', state: 'misnamed' });
  const counts = Object.fromEntries(PLUGIN_STATES.map((s) => [s, 0])) as Record<PluginStateName, number>;
  for (const p of plugins) counts[p.state]++;
  // Without the runtime's metrics, external plugins are connections whose NRI names only the
  // runtime knows: counted, with no series of their own.
  counts.external += unnamedExternal(report, selfConnected);
  return { plugins, counts, undetermined };
}

/**
 * With --sim: the simulated runtime's own list (it knows its plugins as containerd's
 * metrics do), and the plugins installed in its plugin directory that it does not run.
 */
export function simPluginStates(
  running: ReadonlyArray<{ name: string; external: boolean }>,
  installed: readonly string[],
  findings: readonly Finding[],
  self: string,
): PluginStates {
  const listed: ListedPlugin[] = running
    .filter((p) => p.name !== self)
    .map((p) => ({ name: p.name, state: 'active', origin: p.external ? 'external' : 'plugin-dir' }));
  for (const name of installed)
    if (!listed.some((p) => p.name === name)) listed.push({ name, state: 'not-running', origin: 'plugin-dir' });
  return pluginStates({ plugins: listed } as PluginsReport, findings, self, false);
}

function stateOf(p: ListedPlugin): PluginStateName | undefined {
  switch (p.state) {
    case 'dropped':
      return 'dropped';
    case 'not-running':
      return 'not-running';
    case 'running':
      return 'pre-started';
    case 'installed':
      // A process runs the file, its environment unreadable: most likely the runtime's; else unknown.
      return p.byCommandLine ? 'pre-started' : undefined;
    // 'failed': a fatal failure before the window, and the active count says it (or another) is back: counted as running.
    case 'active':
    case 'failed':
      return p.origin === 'plugin-dir' ? 'pre-started' : p.origin === 'external' ? 'external' : 'active';
  }
}

function split(full: string): { plugin: string; index: string } {
  try {
    const { index, name } = parsePluginName(full);
    return { plugin: name, index };
  } catch {
    return { plugin: full, index: '' };
  }
}

function unnamedExternal(report: PluginsReport, selfConnected: boolean): number {
  const connections = report.connections ?? [];
  const others = connections.filter((c) => !c.peers.some((p) => p.pid === process.pid));
  // Our own connection not told apart (peers not named): take one off for it.
  const ours = connections.length - others.length;
  return Math.max(0, others.length - (selfConnected && ours === 0 ? 1 : 0));
}
