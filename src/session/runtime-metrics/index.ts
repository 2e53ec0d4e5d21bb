// The runtime's own metrics endpoint (containerd's /v1/metrics): read with a deadline and
// a bound, parsed, and its NRI part (containerd 2.3 and later) made into plugin figures.
export { parseExposition, ExpositionError, type Sample } from './exposition.js';
export { scrapeMetrics, metricsUrl, RuntimeMetricsError, type MetricsErrorCode, type ScrapeOptions } from './scrape.js';
export {
  nriMetrics,
  quantile,
  type NriMetrics,
  type PluginMetrics,
  type OperationMetrics,
  type PluginState,
} from './nri-metrics.js';
