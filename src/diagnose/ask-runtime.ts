// doctor's questions to the runtime: its answer to a transient plugin, and, where its
// CRI can be asked, its pods and containers over CRI before and after the Synchronize,
// compared (compare-views.ts). A runtime that does not answer, or a CRI that cannot be
// asked, is an outcome to report, not an error; only a cancellation throws.
import { runtimeFamily } from '../api/index.js';
import { finding, type ConnectionOutcome, type Finding, type OfflineDiagnosis } from '../checks/index.js';
import { SessionError, probeRuntime } from '../session/index.js';
import { compareViews, type Listing, type ViewsComparison } from './compare-views.js';
import { DOCKER_NOT_COMPARED, listCri, nriListing, openCri, otherRuntime } from './cri-views.js';
import type { DiagnoseOptions } from './options.js';

/**
 * Each CRI call's deadline without --timeout: the second look runs while doctor is still
 * registered with the runtime, which it must not stay for long.
 */
const CRI_CALL_MS = 5000;

interface Asked {
  connection: ConnectionOutcome;
  views: ViewsComparison;
  viewFindings: Finding[];
}

const notChecked = (reason: string, criSocket?: string): ViewsComparison => ({
  status: 'not-checked',
  criSocket,
  reason,
});

/**
 * Registers as a transient plugin and takes the state, when the socket is there to ask;
 * with the runtime's CRI to ask too, lists its pods and containers before, and again
 * after, while still registered (compare-views.ts says why).
 */
export async function ask(d: OfflineDiagnosis, opts: DiagnoseOptions, signal?: AbortSignal): Promise<Asked> {
  const socketPath = d.resolved.socketPath;
  if (!d.canConnect)
    return {
      connection: { status: 'skipped', socketPath },
      views: notChecked('the NRI socket could not be asked: nothing to compare CRI with'),
      viewFindings: [],
    };
  const session = { target: { socketPath }, name: opts.name, index: opts.index, timeoutMs: opts.timeoutMs, signal };
  const cri =
    opts.sim === undefined
      ? await openCri({
          criSocket: opts.criSocket,
          root: d.root,
          runtimeConfigs: opts.runtimeConfigs,
          timeoutMs: opts.timeoutMs ?? CRI_CALL_MS,
          signal,
        })
      : notChecked(
          'an embedded simulator (--sim) serves no CRI: run nrictl sim --cri-socket PATH, then doctor --socket and --cri-socket',
        );
  if ('status' in cri) {
    const probe = await probeRuntime(session);
    const connection = outcome(probe, socketPath);
    const views =
      connection.status === 'answered' && connection.runtime?.kind === 'docker' ? notChecked(DOCKER_NOT_COMPARED) : cri;
    return { connection, views, viewFindings: notComparedFinding(views, socketPath) };
  }
  const { client, choice } = cri;
  try {
    let after: Listing | undefined;
    let failed: string | undefined;
    const look = async (): Promise<Listing | undefined> => {
      try {
        return await listCri(client);
      } catch (err) {
        if (signal?.aborted)
          throw new SessionError('cancelled', 'cancelled while listing CRI pods and containers: nothing concluded');
        failed = (err as Error).message;
        return undefined;
      }
    };
    const before = await look();
    const probe = await probeRuntime(
      session,
      before
        ? async () => {
            after = await look().catch(() => undefined);
          }
        : undefined,
    );
    if (signal?.aborted)
      throw new SessionError('cancelled', 'cancelled while comparing CRI and NRI: nothing concluded');
    const connection = outcome(probe, socketPath);
    let views: ViewsComparison;
    let viewFindings: Finding[] = [];
    const version = client.runtimeVersion;
    const mismatch =
      connection.status === 'answered' && connection.runtime
        ? otherRuntime({ name: version.runtimeName, version: version.runtimeVersion }, connection.runtime)
        : undefined;
    if (probe.status !== 'answered' || !probe.state)
      views = notChecked(
        probe.status === 'answered'
          ? (failed ?? 'CRI was not listed')
          : 'the runtime did not answer over NRI: nothing to compare CRI with',
        choice.socketPath,
      );
    else if (probe.runtime?.kind === 'docker') views = notChecked(DOCKER_NOT_COMPARED, choice.socketPath);
    else if (mismatch) views = notChecked(mismatch, choice.socketPath);
    else if (probe.sightingsLost)
      // Without every sighting, what came or went would read as differences: false alarms.
      views = notChecked(tooBusyToCompare(probe.sightings?.length ?? 0, probe.sightingsLost), choice.socketPath);
    else if (!before || !after) views = notChecked(failed ?? 'CRI was not listed', choice.socketPath);
    else {
      const compared = compareViews({
        criSocket: choice.socketPath,
        criChoice: choice.note,
        criRuntime: `${version.runtimeName} ${version.runtimeVersion}`.trim(),
        family: runtimeFamily(
          probe.runtime?.name ?? version.runtimeName,
          probe.runtime?.version ?? version.runtimeVersion,
        ),
        before,
        synchronized: nriListing(probe.state),
        after,
        sightings: probe.sightings ?? [],
      });
      views = compared.comparison;
      viewFindings = compared.findings;
    }
    if (views.status === 'not-checked') viewFindings = notComparedFinding(views, socketPath);
    return { connection, views, viewFindings };
  } finally {
    client.close();
  }
}

/** Why the views were not compared on a node this busy. */
function tooBusyToCompare(kept: number, lost: number): string {
  return `doctor was told of ${kept + lost} pods and containers coming or going while it looked, more than the ${kept} it keeps: the views were not compared (run doctor again when the node is quieter)`;
}

function outcome(probe: Awaited<ReturnType<typeof probeRuntime>>, socketPath: string): ConnectionOutcome {
  if (probe.status !== 'answered') return { status: 'failed', socketPath, message: probe.message };
  return { status: 'answered', socketPath, runtime: probe.runtime, pods: probe.pods, containers: probe.containers };
}

/** Not compared: a note that says why, never a verdict on the views; on the CRI socket, else the NRI one. */
function notComparedFinding(views: ViewsComparison, nriSocket: string): Finding[] {
  if (views.status !== 'not-checked') return [];
  return [
    finding(
      'info',
      views.criSocket ?? nriSocket,
      'cri-not-compared',
      `what CRI lists and what NRI hands plugins: not checked: ${views.reason}`,
      "to compare them, give the runtime's CRI socket with --cri-socket, as root or the socket's owner",
    ),
  ];
}
