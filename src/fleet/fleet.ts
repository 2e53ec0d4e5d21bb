// `nrictl fleet`: one row per node from what the nodes' exporters told Prometheus.
import { instantQuery, prometheusUrl, type VectorSample } from './prometheus-client.js';
import { fleetQueries, PLUGIN_STATES, SEVERITIES, VERDICTS, type FleetQueries } from './queries.js';
import type { PluginState, Severity, Verdict } from './queries.js';
import { matchersText, parseSelector } from './selector.js';

export interface FleetOptions {
  /** Prometheus' URL. */
  prometheus: string;
  /** -l: "key=value,key!=value" on the targets' labels. */
  selector?: string | undefined;
  /** Deadline of each query. */
  timeoutMs: number;
  /** How far back a node that stopped reporting is still listed. */
  lookbackMs: number;
  /** A node whose last sample is older than this is stale. */
  staleAfterMs: number;
  /** Evaluation time (ms since the epoch); now by default. */
  now?: number | undefined;
}

export interface FleetRuntime {
  runtime: string;
  version: string;
  nriVersion: string;
}

export interface FleetNode {
  /** The target's node label, else its instance. */
  node: string;
  /** Its instance(s): where Prometheus scraped it. */
  instances: string[];
  /** The runtime as the node says it now; for a stale node, as last said (several, if it changed within the lookback). */
  runtimes: FleetRuntime[];
  /** The last nrictl_nri_up: true while the runtime accepts the exporter. */
  up: boolean;
  /** No current sample, or the last one older than the staleness bound: what it says is its last word. */
  stale: boolean;
  /** The last sample's time (unix seconds), where Prometheus still holds it current. */
  lastSample: number | undefined;
  /** The exporter's last refresh it reported (unix seconds). */
  lastRefresh: number | undefined;
  plugins: Record<PluginState, number> | undefined;
  /** Plugins dropped, not running or misnamed, by name (current nodes only). */
  pluginsNamed: Array<{ plugin: string; index: string; state: PluginState }>;
  findings: Record<Severity, number> | undefined;
  /** Codes of error findings (current nodes only). */
  errorCodes: string[];
  /** The last conformance report's checks by verdict; undefined when the node was given none. */
  conformance: Record<Verdict, number> | undefined;
  failedChecks: string[];
  /** Why this node fails the gate; empty when it passes. */
  problems: string[];
}

export interface FleetReport {
  prometheus: string;
  selector: string;
  /** Evaluation time, unix seconds. */
  at: number;
  lookbackSeconds: number;
  staleAfterSeconds: number;
  nodes: FleetNode[];
  /** Nodes with a problem. */
  failing: number;
}

/** What Prometheus knows of the fleet now. Throws PrometheusError, SelectorError. */
export async function readFleet(opts: FleetOptions, signal?: AbortSignal): Promise<FleetReport> {
  const matchers = parseSelector(opts.selector ?? '');
  const base = prometheusUrl(opts.prometheus);
  const at = Math.floor(opts.now ?? Date.now()) / 1000;
  const lookbackSeconds = Math.max(1, Math.ceil(opts.lookbackMs / 1000));
  const queries = fleetQueries(matchersText(matchers), lookbackSeconds);
  // The first answers whether this is Prometheus at all before the rest are sent.
  const lastUp = await instantQuery(base, queries.lastUp, { timeoutMs: opts.timeoutMs, time: at, signal });
  const names = Object.keys(queries).filter((k) => k !== 'lastUp') as Array<keyof FleetQueries>;
  const answers = await Promise.all(
    names.map((k) => instantQuery(base, queries[k], { timeoutMs: opts.timeoutMs, time: at, signal })),
  );
  const answer = Object.fromEntries(names.map((k, i) => [k, answers[i]])) as Record<keyof FleetQueries, VectorSample[]>;
  answer.lastUp = lastUp;
  const nodes = nodesOf(answer, at, opts.staleAfterMs / 1000);
  return {
    prometheus: `${base.origin}${base.pathname}`,
    selector: matchersText(matchers),
    at,
    lookbackSeconds,
    staleAfterSeconds: opts.staleAfterMs / 1000,
    nodes,
    failing: nodes.filter((n) => n.problems.length > 0).length,
  };
}

const nodeOf = (s: VectorSample): string => s.labels['node'] || s.labels['instance'] || '(no node or instance label)';

function byNode(samples: readonly VectorSample[]): Map<string, VectorSample[]> {
  const map = new Map<string, VectorSample[]>();
  for (const s of samples) {
    const key = nodeOf(s);
    map.set(key, [...(map.get(key) ?? []), s]);
  }
  return map;
}

function nodesOf(a: Record<keyof FleetQueries, VectorSample[]>, at: number, staleAfter: number): FleetNode[] {
  const up = byNode(a.lastUp);
  const sampleTime = byNode(a.sampleTime);
  const runtimeNow = byNode(a.runtimeNow);
  const runtimeLast = byNode(a.runtimeLast);
  const plugins = byNode(a.plugins);
  const findings = byNode(a.findings);
  const conformance = byNode(a.conformance);
  const named = byNode(a.pluginsNamed);
  const codes = byNode(a.errorCodes);
  const checks = byNode(a.failedChecks);
  const refresh = byNode(a.lastRefresh);
  const nodes = [...up.entries()].map(([node, ups]): FleetNode => {
    const times = (sampleTime.get(node) ?? []).map((s) => s.value);
    const lastSample = times.length ? Math.min(...times) : undefined;
    const stale = lastSample === undefined || at - lastSample > staleAfter;
    const current = !stale;
    const refreshed = (refresh.get(node) ?? []).map((s) => s.value);
    const n: FleetNode = {
      node,
      instances: [...new Set(ups.map((s) => s.labels['instance'] ?? '').filter((i) => i !== ''))].sort(),
      runtimes: runtimesOf((current ? runtimeNow.get(node) : undefined) ?? runtimeLast.get(node) ?? []),
      up: ups.every((s) => s.value === 1),
      stale,
      lastSample,
      lastRefresh: refreshed.length ? Math.max(...refreshed) : undefined,
      plugins: counts(plugins.get(node), 'state', PLUGIN_STATES),
      pluginsNamed: current
        ? (named.get(node) ?? [])
            .map((s) => ({
              plugin: s.labels['plugin'] ?? '',
              index: s.labels['index'] ?? '',
              state: s.labels['state'] as PluginState,
            }))
            .sort((x, y) => `${x.index}-${x.plugin}`.localeCompare(`${y.index}-${y.plugin}`))
        : [],
      findings: counts(findings.get(node), 'severity', SEVERITIES),
      errorCodes: current ? sortedLabels(codes.get(node), 'code') : [],
      conformance: counts(conformance.get(node), 'verdict', VERDICTS),
      failedChecks: current ? sortedLabels(checks.get(node), 'check') : [],
      problems: [],
    };
    n.problems = problemsOf(n);
    return n;
  });
  return nodes.sort((x, y) => x.node.localeCompare(y.node));
}

function runtimesOf(samples: readonly VectorSample[]): FleetRuntime[] {
  const seen = new Map<string, FleetRuntime>();
  for (const s of samples) {
    const r = {
      runtime: s.labels['runtime'] ?? '',
      version: s.labels['version'] ?? '',
      nriVersion: s.labels['nri_version'] ?? '',
    };
    seen.set(JSON.stringify(r), r);
  }
  return [...seen.values()];
}

/** A count per label value, every value present; undefined when the node sent none. Several series (two exporters) add up. */
function counts<K extends string>(
  samples: readonly VectorSample[] | undefined,
  label: string,
  keys: readonly K[],
): Record<K, number> | undefined {
  if (!samples?.length) return undefined;
  const out = Object.fromEntries(keys.map((k) => [k, 0])) as Record<K, number>;
  for (const s of samples) {
    const k = s.labels[label] as K | undefined;
    if (k !== undefined && k in out && Number.isFinite(s.value)) out[k] += s.value;
  }
  return out;
}

function sortedLabels(samples: readonly VectorSample[] | undefined, label: string): string[] {
  return [...new Set((samples ?? []).map((s) => s.labels[label] ?? ''))].filter((v) => v !== '').sort();
}

function problemsOf(n: FleetNode): string[] {
  const p: string[] = [];
  if (n.stale) p.push('stale');
  if (!n.up) p.push('NRI down');
  if (n.findings && n.findings.error > 0)
    p.push(`${n.findings.error} error finding${n.findings.error === 1 ? '' : 's'}`);
  if (n.plugins && n.plugins.dropped > 0)
    p.push(`${n.plugins.dropped} plugin${n.plugins.dropped === 1 ? '' : 's'} dropped`);
  const failed = n.conformance ? n.conformance.fail + n.conformance.error : 0;
  if (failed > 0) p.push(`${failed} conformance check${failed === 1 ? '' : 's'} failed`);
  return p;
}
