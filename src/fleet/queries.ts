// The PromQL fleet asks, one instant query each, all at the same evaluation time. The
// per-node counts are gauges whose label sets never change (every state, severity and
// verdict is always present), so their last value within the lookback is the node's last
// word, even for a node that stopped reporting. Series whose labels change (a plugin's
// state, the runtime's version) are read as they are now, from nodes that still report.

export const PLUGIN_STATES = ['active', 'pre-started', 'external', 'not-running', 'dropped', 'misnamed'] as const;
export type PluginState = (typeof PLUGIN_STATES)[number];
export const SEVERITIES = ['error', 'warning', 'info'] as const;
export type Severity = (typeof SEVERITIES)[number];
export const VERDICTS = ['pass', 'fail', 'skip', 'error'] as const;
export type Verdict = (typeof VERDICTS)[number];

export interface FleetQueries {
  /** Every node that reported within the lookback, with its last nrictl_nri_up. */
  lastUp: string;
  /** Nodes whose series are current (not marked stale), with their last sample's time. */
  sampleTime: string;
  runtimeNow: string;
  runtimeLast: string;
  plugins: string;
  findings: string;
  conformance: string;
  /** Plugins in a state worth naming. */
  pluginsNamed: string;
  errorCodes: string;
  failedChecks: string;
  /** The exporter's last refresh: when a node that stopped reporting was last heard of. */
  lastRefresh: string;
}

export function fleetQueries(matchers: string, lookbackSeconds: number): FleetQueries {
  const sel = (name: string, extra = ''): string => {
    const inner = [matchers, extra].filter((s) => s !== '').join(',');
    return `${name}{${inner}}`;
  };
  const last = (expr: string): string => `last_over_time(${expr}[${lookbackSeconds}s])`;
  return {
    lastUp: last(sel('nrictl_nri_up')),
    sampleTime: `timestamp(${sel('nrictl_nri_up')})`,
    runtimeNow: sel('nrictl_runtime_info'),
    runtimeLast: last(sel('nrictl_runtime_info')),
    plugins: last(sel('nrictl_plugins')),
    findings: last(sel('nrictl_doctor_findings_by_severity')),
    conformance: last(sel('nrictl_conformance_checks')),
    pluginsNamed: sel('nrictl_plugin_info', 'state=~"dropped|not-running|misnamed"'),
    errorCodes: `${sel('nrictl_doctor_findings', 'severity="error"')} > 0`,
    failedChecks: `${sel('nrictl_conformance_check_failed')} > 0`,
    lastRefresh: last(sel('nrictl_exporter_refresh_timestamp_seconds')),
  };
}
