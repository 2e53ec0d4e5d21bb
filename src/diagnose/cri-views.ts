// doctor's reading of the runtime's CRI, for the comparison with what NRI hands plugins
// (compare-views.ts): which socket (--cri-socket, else the one locateCriSocket finds,
// which says why), whether it can be asked at all (when not, why: never a verdict), the
// runtime it answers as, and its pods and containers as plain records.
import { nri, runtimeFamily } from '../api/index.js';
import {
  CriContainerState,
  CriError,
  CriPodState,
  DOCKER_HAS_NO_CRI,
  locateCriSocket,
  openCriClient,
  type CriClient,
  type CriSocketChoice,
} from '../cri/index.js';
import type { ContainerRecord, Listing, PodRecord, ViewState, ViewsNotChecked } from './compare-views.js';

export interface CriReadOptions {
  /** --cri-socket (or CONTAINER_RUNTIME_ENDPOINT): used as given. */
  criSocket?: string | undefined;
  root: string;
  runtimeConfigs?: string[] | undefined;
  /** Each CRI call's deadline. */
  timeoutMs?: number | undefined;
  signal?: AbortSignal | undefined;
}

export interface OpenCri {
  client: CriClient;
  choice: CriSocketChoice;
}

/** The CRI client, or why the views are not compared. Rethrows only a cancellation. */
export async function openCri(opts: CriReadOptions): Promise<OpenCri | ViewsNotChecked> {
  let choice: CriSocketChoice;
  try {
    choice = locateCriSocket({ criSocket: opts.criSocket, root: opts.root, runtimeConfigs: opts.runtimeConfigs });
  } catch (err) {
    if (err instanceof CriError) return { status: 'not-checked', reason: err.message };
    throw err;
  }
  const { socketPath } = choice;
  // A socket nobody named and that is not there: the locator's note says which it looked for.
  if (choice.present === false) return { status: 'not-checked', criSocket: socketPath, reason: choice.note };
  try {
    const client = await openCriClient({ socketPath, timeoutMs: opts.timeoutMs, signal: opts.signal });
    return { client, choice };
  } catch (err) {
    if (!(err instanceof CriError) || err.code === 'cancelled') throw err;
    return { status: 'not-checked', criSocket: socketPath, reason: err.message };
  }
}

/** The runtime's pods and containers as CRI lists them now. Throws CriError. */
export async function listCri(client: CriClient): Promise<Listing> {
  const [pods, containers] = await Promise.all([client.listPodSandbox(), client.listContainers()]);
  return {
    pods: pods.items.map((p): PodRecord => ({
      id: p.id ?? '',
      name: p.metadata?.name ?? '',
      namespace: p.metadata?.namespace ?? '',
      state: (p.state ?? CriPodState.READY) === CriPodState.READY ? 'ready' : 'notready',
    })),
    containers: containers.containers.map((c): ContainerRecord => ({
      id: c.id ?? '',
      podId: c.podSandboxId ?? '',
      name: c.metadata?.name ?? '',
      state: CRI_STATES[c.state ?? CriContainerState.CREATED] ?? 'unknown',
    })),
  };
}

const CRI_STATES: Readonly<Record<number, ViewState>> = {
  [CriContainerState.CREATED]: 'created',
  [CriContainerState.RUNNING]: 'running',
  [CriContainerState.EXITED]: 'exited',
  [CriContainerState.UNKNOWN]: 'unknown',
};

const NRI_STATES: Readonly<Record<number, ViewState>> = {
  [nri.ContainerState.CONTAINER_UNKNOWN]: 'unknown',
  [nri.ContainerState.CONTAINER_CREATED]: 'created',
  [nri.ContainerState.CONTAINER_PAUSED]: 'paused',
  [nri.ContainerState.CONTAINER_RUNNING]: 'running',
  [nri.ContainerState.CONTAINER_STOPPED]: 'exited',
};

/** The Synchronize state as the same records. */
export function nriListing(state: { pods: nri.IPodSandbox[]; containers: nri.IContainer[] }): Listing {
  return {
    pods: state.pods.map((p) => ({ id: p.id ?? '', name: p.name ?? '', namespace: p.namespace ?? '' })),
    containers: state.containers.map((c) => ({
      id: c.id ?? '',
      podId: c.podSandboxId ?? '',
      name: c.name ?? '',
      state: NRI_STATES[c.state ?? 0] ?? 'unknown',
    })),
  };
}

/**
 * Why the CRI and NRI sockets are not one runtime's, or undefined when nothing says so:
 * another runtime by name, or the same one at another version (two instances).
 */
export function otherRuntime(
  cri: { name: string; version: string },
  nriRuntime: { name: string; version: string; label: string },
): string | undefined {
  const a = runtimeFamily(cri.name, cri.version);
  const b = runtimeFamily(nriRuntime.name, nriRuntime.version);
  const bare = (v: string): string => v.replace(/^v/, '');
  const differ =
    a !== b ||
    (a === 'other' && cri.name.toLowerCase() !== nriRuntime.name.toLowerCase()) ||
    ((a === 'containerd' || a === 'cri-o') && cri.version !== '' && bare(cri.version) !== bare(nriRuntime.version));
  if (!differ) return undefined;
  return `the CRI socket answers as ${`${cri.name} ${cri.version}`.trim()} and the NRI socket as ${nriRuntime.label}: two runtimes, whose pods and containers do not compare; give the CRI socket of the runtime that serves the NRI socket`;
}

export const DOCKER_NOT_COMPARED = `${DOCKER_HAS_NO_CRI}; and Docker hands plugins each container as a pod of its own, which no CRI lists`;
