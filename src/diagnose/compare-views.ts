// doctor's comparison of a node's two views of its pods and containers: what the
// runtime's CRI lists (what the kubelet asked for) and what its NRI Synchronize handed a
// plugin. Pure: the lists come in as plain records (cri-views.ts reads them).
//
// The two views are taken at different moments, so the CRI lists are taken twice, before
// and after the Synchronize, while the session stays registered and is told of every pod
// and container that comes or goes (sightings). Only what both CRI lists agree on and the
// Synchronize does not, with no sighting to explain it, is a difference; anything that
// changed meanwhile is counted as such, never reported as a difference.
import type { RuntimeFamily } from '../api/index.js';
import { shortId } from '../api/short-id.js';
import { finding, type Finding } from '../checks/index.js';

export type ViewState = 'created' | 'running' | 'paused' | 'exited' | 'unknown' | 'ready' | 'notready';

export interface PodRecord {
  id: string;
  name: string;
  namespace: string;
  /** CRI's READY / NOTREADY; NRI's pods carry none. */
  state?: ViewState | undefined;
}

export interface ContainerRecord {
  id: string;
  podId: string;
  name: string;
  state: ViewState;
}

export interface Listing {
  pods: PodRecord[];
  containers: ContainerRecord[];
}

/** What the session saw come or go after its Synchronize (src/session LifecycleSighting). */
export interface Sighting {
  event: 'RunPodSandbox' | 'PostCreateContainer' | 'RemoveContainer' | 'RemovePodSandbox';
  podId: string;
  containerId?: string | undefined;
}

export type DifferenceReason =
  /** CRI lists it EXITED: containerd and CRI-O hand plugins no exited container. */
  | 'exited'
  /** CRI lists it in an unknown state: containerd and CRI-O hand plugins no such container. */
  | 'unknown-state'
  /** A pod CRI lists NOTREADY: containerd hands plugins no sandbox it lost track of, which CRI shows NOTREADY. */
  | 'not-ready'
  /** CRI lists it before and after, NRI did not hand it over, and no event explains it. */
  | 'not-handed-over'
  /** NRI handed it over, CRI lists it neither before nor after, and no event removed it. */
  | 'unknown-to-cri';

export interface ViewDifference {
  object: 'pod' | 'container';
  id: string;
  /** "shop/web" for a pod, "shop/web/app" for a container (as far as either view names them). */
  name: string;
  /** The view that holds it. */
  in: 'cri' | 'nri';
  /** Its state as CRI lists it (in: 'cri'). */
  state?: ViewState | undefined;
  reason: DifferenceReason;
  /** Why, in one clause. */
  explanation: string;
  /** What every runtime of its kind shows: not a fault. */
  expected: boolean;
}

export interface ViewsCompared {
  status: 'compared';
  criSocket: string;
  /** How the CRI socket was chosen (locateCriSocket's note). */
  criChoice: string;
  /** The runtime as CRI's Version names it: "containerd v2.3.4". */
  criRuntime: string;
  /** What the second CRI look and the Synchronize held. */
  cri: { pods: number; containers: number };
  nri: { pods: number; containers: number };
  differences: ViewDifference[];
  /** Came or went while doctor looked (in one CRI list only, or told by an event): not differences. */
  changed: { pods: number; containers: number };
}

export interface ViewsNotChecked {
  status: 'not-checked';
  criSocket?: string | undefined;
  /** Why not, in one line: never a verdict on the views. */
  reason: string;
}

export type ViewsComparison = ViewsCompared | ViewsNotChecked;

export interface CompareInput {
  criSocket: string;
  criChoice: string;
  criRuntime: string;
  family: RuntimeFamily;
  before: Listing;
  synchronized: Listing;
  after: Listing;
  sightings: readonly Sighting[];
}

/** How many objects a finding names before it says "and N more". */
const NAMED_IN_FINDING = 5;

export function compareViews(input: CompareInput): { comparison: ViewsCompared; findings: Finding[] } {
  const { before, synchronized: nri, after, family } = input;
  const came = new Set<string>();
  const went = new Set<string>();
  for (const s of input.sightings) {
    if (s.event === 'RunPodSandbox') came.add(`pod ${s.podId}`);
    if (s.event === 'PostCreateContainer') came.add(`container ${s.containerId ?? ''}`);
    if (s.event === 'RemovePodSandbox') went.add(`pod ${s.podId}`);
    if (s.event === 'RemoveContainer') went.add(`container ${s.containerId ?? ''}`);
  }
  const names = namer(before, nri, after);
  const differences: ViewDifference[] = [];
  const changed = { pods: 0, containers: 0 };

  const compare = <T extends PodRecord | ContainerRecord>(
    object: 'pod' | 'container',
    b: readonly T[],
    n: readonly T[],
    a: readonly T[],
    podOf: (r: T) => string | undefined,
  ): void => {
    const inBefore = byId(b);
    const inNri = byId(n);
    const inAfter = byId(a);
    const count = (): void => void (object === 'pod' ? changed.pods++ : changed.containers++);
    for (const id of new Set([...inBefore.keys(), ...inAfter.keys()])) {
      // In one CRI list only: it came or went while doctor looked.
      if (!inBefore.has(id) || !inAfter.has(id)) {
        count();
        continue;
      }
      if (inNri.has(id)) continue;
      // Listed by CRI before the Synchronize, and created only after it (CRI listed it
      // while its creation went on): still being created when NRI synchronized.
      if (came.has(`${object} ${id}`)) {
        count();
        continue;
      }
      const r = inAfter.get(id)!;
      differences.push({
        object,
        id,
        name: names[object](id),
        in: 'cri',
        state: r.state,
        ...criOnly(object, r.state, family),
      });
    }
    for (const [id, r] of inNri) {
      if (inBefore.has(id) || inAfter.has(id)) continue;
      const pod = podOf(r);
      if (went.has(`${object} ${id}`) || (pod !== undefined && went.has(`pod ${pod}`))) {
        count();
        continue;
      }
      differences.push({
        object,
        id,
        name: names[object](id),
        in: 'nri',
        reason: 'unknown-to-cri',
        explanation: `NRI handed it over, CRI lists it neither before nor after, and no event removed it: the runtime tells plugins of a ${object} its CRI does not know`,
        expected: false,
      });
    }
  };
  compare('pod', before.pods, nri.pods, after.pods, () => undefined);
  compare('container', before.containers, nri.containers, after.containers, (c) => c.podId);

  const comparison: ViewsCompared = {
    status: 'compared',
    criSocket: input.criSocket,
    criChoice: input.criChoice,
    criRuntime: input.criRuntime,
    cri: { pods: after.pods.length, containers: after.containers.length },
    nri: { pods: nri.pods.length, containers: nri.containers.length },
    differences,
    changed,
  };
  return {
    comparison,
    findings: [...differenceFindings(input.criSocket, differences), ...dataNotes(input, after, nri)],
  };
}

/**
 * The differences every runtime of a kind shows: what CRI lists and the Synchronize
 * leaves out, by the state CRI shows. iSulad hands plugins every pod and container its
 * CRI lists, so nothing missing is expected there.
 */
const EXPECTED: ReadonlyArray<{
  object: 'pod' | 'container';
  state: ViewState;
  families: readonly RuntimeFamily[];
  reason: DifferenceReason;
  explanation: string;
}> = [
  {
    object: 'container',
    state: 'exited',
    families: ['containerd', 'cri-o', 'other'],
    reason: 'exited',
    explanation:
      'it exited: the runtime hands plugins no exited container in Synchronize (containerd and CRI-O leave them out; plugins were told when it stopped)',
  },
  {
    object: 'container',
    state: 'unknown',
    families: ['containerd', 'cri-o', 'other'],
    reason: 'unknown-state',
    explanation:
      'its state is unknown to the runtime (its process or shim gone, as after a restart): containerd and CRI-O hand plugins no such container',
  },
  {
    object: 'pod',
    state: 'notready',
    families: ['containerd', 'other'],
    reason: 'not-ready',
    explanation:
      'it is not ready: containerd hands plugins no sandbox whose state it lost (CRI shows such a sandbox NOTREADY)',
  },
];

/** Why CRI lists what NRI did not hand over, where its state tells. */
function criOnly(
  object: 'pod' | 'container',
  state: ViewState | undefined,
  family: RuntimeFamily,
): Pick<ViewDifference, 'reason' | 'explanation' | 'expected'> {
  const known = EXPECTED.find((e) => e.object === object && e.state === state && e.families.includes(family));
  if (known) return { reason: known.reason, explanation: known.explanation, expected: true };
  return {
    reason: 'not-handed-over',
    explanation: `CRI lists it before and after the Synchronize, the Synchronize did not hand it over, and no event for it came: plugins do not know this ${object}`,
    expected: false,
  };
}

/** One warning per kind of unexplained difference; what every runtime of its kind shows is no finding. */
function differenceFindings(criSocket: string, differences: readonly ViewDifference[]): Finding[] {
  const out: Finding[] = [];
  const listed = (ds: readonly ViewDifference[]): string => {
    const named = ds.slice(0, NAMED_IN_FINDING).map((d) => `${d.object} ${d.name} ${shortId(d.id)}`);
    return `${named.join(', ')}${ds.length > named.length ? ` and ${ds.length - named.length} more` : ''}`;
  };
  const unhanded = differences.filter((d) => d.reason === 'not-handed-over');
  if (unhanded.length > 0)
    out.push(
      finding(
        'warning',
        criSocket,
        'cri-not-synchronized',
        `CRI lists ${counted(unhanded)} that the runtime's NRI Synchronize did not hand over, before and after it, and no event for them came (${listed(unhanded)}): plugins that track pods and containers do not know them`,
        "see the runtime's log around the NRI Synchronize; nrictl sync dump shows what plugins are handed",
      ),
    );
  const unknown = differences.filter((d) => d.reason === 'unknown-to-cri');
  if (unknown.length > 0)
    out.push(
      finding(
        'warning',
        criSocket,
        'nri-unknown-to-cri',
        `the runtime's NRI Synchronize handed over ${counted(unknown)} that CRI lists neither before nor after it, and no event removed them (${listed(unknown)}): plugins are told of pods and containers the runtime's CRI does not know, a stale record`,
        "check that --cri-socket is the CRI socket of the runtime that serves --socket; else see the runtime's log, and restart the runtime",
      ),
    );
  return out;
}

/** What a matched container looks like to plugins, where a runtime hands them less than CRI shows. */
function dataNotes(input: CompareInput, cri: Listing, nri: Listing): Finding[] {
  const out: Finding[] = [];
  const byCri = byId(cri.containers);
  const matched = nri.containers.filter((c) => byCri.has(c.id));
  const nameless = matched.filter((c) => c.name === '' && byCri.get(c.id)!.name !== '');
  if (nameless.length > 0) {
    const why =
      input.family === 'cri-o'
        ? 'CRI-O names a container to plugins only by its label io.kubernetes.container.name, which the kubelet sets and crictl does not'
        : 'the runtime hands plugins no container name';
    out.push(
      finding(
        'info',
        input.criSocket,
        'nri-container-names-empty',
        `${nameless.length} of ${matched.length} containers reach plugins with an empty name though CRI names them (${nameless
          .slice(0, NAMED_IN_FINDING)
          .map((c) => byCri.get(c.id)!.name)
          .join(', ')}${nameless.length > NAMED_IN_FINDING ? ', ...' : ''}): ${why}`,
        'plugins should go by container ids; give containers made outside the kubelet the label io.kubernetes.container.name',
      ),
    );
  }
  const stateless = matched.filter((c) => c.state === 'unknown' && byCri.get(c.id)!.state !== 'unknown');
  if (stateless.length > 0)
    out.push(
      finding(
        'info',
        input.criSocket,
        'nri-container-states-missing',
        `${stateless.length} of ${matched.length} containers reach plugins in Synchronize without a state (CONTAINER_UNKNOWN) where CRI shows one: ${
          input.family === 'isulad'
            ? 'iSulad hands plugins sparse data (it sets no state in Synchronize)'
            : 'the runtime hands plugins sparse data'
        }`,
        "plugins must not go by the state Synchronize hands them here; the events after it say each container's state",
      ),
    );
  return out;
}

function counted(ds: readonly ViewDifference[]): string {
  const pods = ds.filter((d) => d.object === 'pod').length;
  const ctrs = ds.length - pods;
  const part = (n: number, w: string): string => (n === 0 ? '' : `${n} ${w}${n === 1 ? '' : 's'}`);
  return [part(pods, 'pod'), part(ctrs, 'container')].filter(Boolean).join(' and ');
}

function byId<T extends { id: string }>(records: readonly T[]): Map<string, T> {
  return new Map(records.map((r) => [r.id, r]));
}

/** Names by id, from whichever view names the object (CRI's metadata first: NRI's may be empty or sparse). */
function namer(...views: Listing[]): { pod: (id: string) => string; container: (id: string) => string } {
  const pods = new Map<string, PodRecord>();
  const ctrs = new Map<string, ContainerRecord>();
  for (const v of views) {
    for (const p of v.pods) if (!pods.get(p.id)?.name) pods.set(p.id, p);
    for (const c of v.containers) if (!ctrs.get(c.id)?.name) ctrs.set(c.id, c);
  }
  const pod = (id: string): string => {
    const p = pods.get(id);
    return p ? `${p.namespace || '?'}/${p.name || '?'}` : `?/${shortId(id)}`;
  };
  return {
    pod,
    container: (id) => {
      const c = ctrs.get(id);
      return c ? `${pod(c.podId)}/${c.name || '?'}` : `?/${shortId(id)}`;
    },
  };
}
