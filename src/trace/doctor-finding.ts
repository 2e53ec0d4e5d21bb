// `doctor --trace`: a short trace, summed up as findings: each plugin's p99 against the
// request timeout, a warning past half of it, and a note when nothing happened to measure.
import { lateAnswerConsequence } from '../api/index.js';
import { finding, type Finding } from '../checks/index.js';
import { discardingSink } from '../output/index.js';
import type { Endpoint, SessionTarget } from '../session/index.js';
import { runTrace } from './run.js';
import type { TraceSummary } from './stats.js';

const DOCTOR_TRACE_MS = 3000;

export interface DoctorTraceOptions {
  /** The socket doctor checked, or the endpoint it opened (its --sim simulator). */
  target: SessionTarget | Endpoint;
  pluginDir?: string | undefined;
  durationMs?: number;
  /** The runtime config's, as doctor read it: used when the runtime does not say. */
  configTimeout?: { ms: number; from: string } | undefined;
  /** Ends the trace early (Ctrl-C). */
  signal?: AbortSignal | undefined;
}

export async function tracePluginLatency(opts: DoctorTraceOptions): Promise<Finding[]> {
  const durationMs = opts.durationMs ?? DOCTOR_TRACE_MS;
  const { summary } = await runTrace({
    target: opts.target,
    pluginDir: opts.pluginDir,
    sink: discardingSink(),
    durationMs,
    configTimeout: opts.configTimeout,
    name: 'nrictl-doctor-trace',
    signal: opts.signal,
  });
  return latencyFindings(summary, opts.target.socketPath, durationMs);
}

export function latencyFindings(s: TraceSummary, path: string, durationMs: number): Finding[] {
  if (s.plugins.length === 0) {
    return [
      finding(
        'info',
        path,
        'plugin-latency-unmeasured',
        `no container was created, updated or stopped during the ${(durationMs / 1000).toFixed(0)} s trace: plugin latency not measured`,
        'run nrictl trace while pods start, for as long as it takes',
      ),
    ];
  }
  return s.plugins.map((r) => {
    const share = `${(r.timeoutShare * 100).toFixed(1)}% of the ${s.requestTimeoutMs} ms request timeout`;
    const what = `${r.label}${r.group ? ' (plugins with no free index between them, timed together)' : ''}: p99 ${r.p99Ms.toFixed(1)} ms on ${r.event} over ${r.count} ${r.count === 1 ? 'event' : 'events'}, ${share}`;
    if (r.late)
      return finding(
        'error',
        path,
        'plugin-dropped',
        `${what}; ${r.group ? 'one of them' : 'it'} took the whole request timeout (its slowest: ${r.maxMs.toFixed(0)} ms): the runtime gave up on it and dropped it, and calls it no more`,
        lateAnswerConsequence(s.requestTimeoutSetting),
      );
    return r.warning
      ? finding(
          'warning',
          path,
          'plugin-latency-high',
          `${what}; the runtime drops a plugin for good the first time it answers late`,
          "make the plugin answer faster (do slow work after answering), or raise the runtime's request timeout",
        )
      : finding('info', path, 'plugin-latency', what, 'nothing to do; nrictl trace shows each event');
  });
}
