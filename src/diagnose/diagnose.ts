// `nrictl doctor` below the command line, as one operation: the offline checks of the
// node (src/checks), then, when there is a socket to ask, the runtime's answer to a
// transient plugin (src/session) compared with what its CRI lists (src/cri), and on
// request a short trace of the plugins' latency (src/trace). No layer below may reach
// them all, hence this one.
import {
  checkNodeRoot,
  concludeDiagnosis,
  diagnoseNode,
  latencyUnmeasured,
  type ConnectionOutcome,
  type Diagnosis,
  type Finding,
  type OfflineDiagnosis,
  validatorOnNode,
} from '../checks/index.js';
import { SessionError, checkIdentity, openEndpoint, type Endpoint } from '../session/index.js';
import { tracePluginLatency } from '../trace/index.js';
import { ask } from './ask-runtime.js';
import type { ViewsComparison } from './compare-views.js';
import type { DiagnoseOptions } from './options.js';
import { runtimeMetricsFindings } from './plugin-findings.js';

/** What doctor concludes: the diagnosis, and how the runtime's CRI and NRI views compare. */
export interface DoctorDiagnosis extends Diagnosis {
  views: ViewsComparison;
}

/**
 * The node as its runtime sees it, and whether the runtime answers. A runtime that does
 * not answer is a finding, not an error; what throws is the caller's input (root, identity,
 * runtime configs, scenario) or the signal (SessionError 'cancelled').
 */
export async function diagnose(opts: DiagnoseOptions, signal?: AbortSignal): Promise<DoctorDiagnosis> {
  const root = opts.root ?? '/';
  checkNodeRoot(root);
  checkIdentity(opts.name, opts.index);
  const endpoint =
    opts.sim !== undefined || opts.socketPath !== undefined
      ? await openEndpoint({ socketPath: opts.socketPath ?? '', sim: opts.sim })
      : undefined;
  try {
    const offline = diagnoseNode({
      root,
      runtimeConfigs: opts.runtimeConfigs,
      runtime: opts.runtime,
      ...(endpoint ? { socketPath: endpoint.socketPath, simulated: opts.sim !== undefined } : {}),
    });
    const { connection, views, viewFindings } = await ask(offline, opts, signal);
    const latency = opts.trace ? await measureLatency(offline, connection, endpoint, signal) : [];
    // The node's runtime counts its own plugins; an embedded simulator is not that runtime.
    const counted =
      opts.sim === undefined
        ? await runtimeMetricsFindings(offline, opts.timeoutMs, signal)
        : { findings: [], connected: { unknown: "an embedded simulator was asked, not the node's runtime" } };
    const running = connection.status === 'answered' ? connection.runtime : undefined;
    const validator = validatorOnNode(offline, running, counted.connected);
    // Once the running version is known, lint's "which versions know this key" notes are said better.
    const judged = { ...offline, findings: offline.findings.filter((f) => !validator.superseded.includes(f)) };
    const measured = [...viewFindings, ...latency, ...counted.findings, ...validator.findings];
    return { ...concludeDiagnosis(judged, connection, measured), views };
  } finally {
    await endpoint?.close();
  }
}

/** doctor --trace: a short trace once the runtime answered; otherwise a note that latency was not measured. */
async function measureLatency(
  d: OfflineDiagnosis,
  connection: ConnectionOutcome,
  endpoint: Endpoint | undefined,
  signal?: AbortSignal,
): Promise<Finding[]> {
  const socketPath = d.resolved.socketPath;
  if (connection.status !== 'answered') return [latencyUnmeasured(socketPath)];
  const sim = endpoint?.sim ? endpoint : undefined;
  const findings = await tracePluginLatency({
    target: sim ?? { socketPath },
    pluginDir: sim ? undefined : d.resolved.pluginPath,
    configTimeout:
      d.settingsFrom && d.settings.requestTimeoutMs !== null
        ? { ms: d.settings.requestTimeoutMs, from: d.settingsFrom }
        : undefined,
    signal,
  });
  // A trace cut short measured less than its findings would say it did.
  if (signal?.aborted) throw new SessionError('cancelled', 'cancelled during the latency trace: nothing concluded');
  return findings;
}
