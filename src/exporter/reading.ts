// One refresh of what the exporter serves: doctor's offline checks, the plugins as
// `nrictl plugins` computes them, and the last conformance report. Each part that cannot
// be read is an error of its kind, and its series are left out rather than made up.
import { checkPluginDir, diagnoseNode, listDiscoverable, type Finding } from '../checks/index.js';
import { listPlugins, type DropHistory } from '../diagnose/index.js';
import { RuntimeMetricsError } from '../session/index.js';
import { readConformanceReport, type ConformanceReading } from './conformance-report.js';
import {
  pluginStates,
  simPluginStates,
  PLUGIN_STATES,
  type ExportedPlugin,
  type PluginStateName,
} from './plugin-states.js';

export { PLUGIN_STATES, type ExportedPlugin, type PluginStateName, type ConformanceReading };

export const EXPORTER_ERROR_KINDS = ['connect', 'register', 'files', 'runtime-metrics', 'conformance-report'] as const;
export type ExporterErrorKind = (typeof EXPORTER_ERROR_KINDS)[number];

/** Where the node's files and the runtime's metrics are (the flags doctor and plugins take). */
export interface NodeSources {
  root: string;
  runtimeConfigs?: string[] | undefined;
  pluginDir?: string | undefined;
  /** The runtime's metrics, instead of the config's address. */
  metricsUrl?: string | undefined;
  /** The NRI socket whose connections the probes count, and the one doctor checks. */
  socketPath?: string | undefined;
  /** The socket is an embedded simulator's: its permissions say nothing of the node. */
  simulated?: boolean | undefined;
  conformanceReport?: string | undefined;
  /** With --sim: the simulated runtime's plugins, which stand for the runtime's metrics. */
  simPlugins?: (() => Array<{ name: string; external: boolean }> | undefined) | undefined;
  /** Bounds the runtime's metrics page. */
  timeoutMs?: number | undefined;
  /** The earlier readings of the runtime's metrics: what makes a plugin dropped (within its window) or history. */
  history?: DropHistory | undefined;
}

export interface FindingCount {
  severity: Finding['severity'];
  code: string;
  count: number;
}

export interface NodeReading {
  atMs: number;
  /** undefined: the plugins could not be read this time (an error says why). */
  plugins: ExportedPlugin[] | undefined;
  pluginCounts: Record<PluginStateName, number> | undefined;
  /** Installed plugins whose running could not be seen: in no state. */
  undetermined: string[];
  /** undefined: the node's files could not be read this time. */
  findings: FindingCount[] | undefined;
  conformance: ConformanceReading | undefined;
}

export interface ReadingError {
  kind: ExporterErrorKind;
  message: string;
}

/** Never throws for what the node holds: what could not be read comes back in `errors`. */
export async function readNode(
  sources: NodeSources,
  self: { name: string; connected: boolean },
  signal?: AbortSignal,
): Promise<{ reading: NodeReading; errors: ReadingError[] }> {
  const errors: ReadingError[] = [];
  let findings: Finding[] | undefined;
  try {
    findings = diagnoseNode({
      root: sources.root,
      ...(sources.runtimeConfigs ? { runtimeConfigs: sources.runtimeConfigs } : {}),
      ...(sources.socketPath !== undefined ? { socketPath: sources.socketPath } : {}),
      ...(sources.simulated ? { simulated: true } : {}),
    }).findings;
  } catch (err) {
    errors.push({ kind: 'files', message: (err as Error).message });
  }
  let states: ReturnType<typeof pluginStates> | undefined;
  // A plugin directory named on the command line is the one whose misnamed files count.
  let misnamedFrom = findings ?? [];
  try {
    if (sources.pluginDir !== undefined)
      misnamedFrom = checkPluginDir(sources.pluginDir, { checkOwner: false }).findings;
  } catch (err) {
    errors.push({ kind: 'files', message: (err as Error).message });
  }
  const sim = sources.simPlugins?.();
  if (sim) {
    const installed =
      sources.pluginDir === undefined ? [] : listDiscoverable(sources.pluginDir).map((p) => `${p.index}-${p.name}`);
    states = simPluginStates(sim, installed, misnamedFrom, self.name);
  } else
    try {
      const report = await listPlugins(
        {
          root: sources.root,
          runtimeConfigs: sources.runtimeConfigs,
          metricsUrl: sources.metricsUrl,
          pluginDir: sources.pluginDir,
          timeoutMs: sources.timeoutMs,
          socketPath: sources.socketPath,
          history: sources.history,
        },
        signal,
      );
      if (report.metricsUnreadable) errors.push({ kind: 'runtime-metrics', message: report.fallback ?? '' });
      states = pluginStates(report, misnamedFrom, self.name, self.connected);
    } catch (err) {
      // An explicit --metrics-url that cannot be read; anything else the files' fault.
      const kind = err instanceof RuntimeMetricsError ? 'runtime-metrics' : 'files';
      errors.push({ kind, message: (err as Error).message });
    }
  let conformance: ConformanceReading | undefined;
  if (sources.conformanceReport !== undefined) {
    try {
      conformance = readConformanceReport(sources.conformanceReport);
    } catch (err) {
      errors.push({ kind: 'conformance-report', message: (err as Error).message });
    }
  }
  return {
    reading: {
      atMs: Date.now(),
      plugins: states?.plugins,
      pluginCounts: states?.counts,
      undetermined: states?.undetermined ?? [],
      findings: findings && countByCode(findings),
      conformance,
    },
    errors,
  };
}

function countByCode(findings: readonly Finding[]): FindingCount[] {
  const counts = new Map<string, FindingCount>();
  for (const f of findings) {
    const key = `${f.severity}\0${f.code}`;
    const c = counts.get(key);
    if (c) c.count++;
    else counts.set(key, { severity: f.severity, code: f.code, count: 1 });
  }
  return [...counts.values()];
}
