// `nrictl fleet`: NRI health across nodes, from the Prometheus that scrapes their exporters.
export { readFleet, type FleetNode, type FleetOptions, type FleetReport, type FleetRuntime } from './fleet.js';
export { PrometheusError, SelectorError, type PrometheusErrorCode } from './errors.js';
export { instantQuery, prometheusUrl, type QueryOptions, type VectorSample } from './prometheus-client.js';
export { type PluginState, type Severity, type Verdict } from './queries.js';
