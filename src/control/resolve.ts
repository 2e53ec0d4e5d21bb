// Which container an operator means: a full id, a unique id prefix, "pod/container" or
// "namespace/pod/container", looked up in the runtime's Synchronize state.
import type { nri } from '../api/index.js';
import { shortId } from '../api/short-id.js';
import { ContainerLookupError, type ContainerCandidate } from './errors.js';

export interface ResolvedContainer {
  container: nri.IContainer;
  pod: nri.IPodSandbox | undefined;
  /** "namespace/pod/container", as the candidates and the preview name it. */
  name: string;
}

/** "shop/redis-0/redis"; a container whose pod is unknown shows "?" for it. */
function containerName(container: nri.IContainer, pod: nri.IPodSandbox | undefined): string {
  const podPart = pod ? `${pod.namespace ? `${pod.namespace}/` : ''}${pod.name ?? ''}` : '?';
  return `${podPart}/${container.name ?? ''}`;
}

/** "shop/redis-0/redis (c2c3d4e5f6a7)". */
export function containerLabel(r: ResolvedContainer): string {
  return `${r.name} (${shortId(r.container.id)})`;
}

const CANDIDATES_LISTED = 10;

function listCandidates(cs: ContainerCandidate[]): string {
  const shown = cs.slice(0, CANDIDATES_LISTED).map((c) => `${c.id} ${c.name}`);
  if (cs.length > CANDIDATES_LISTED) shown.push(`... and ${cs.length - CANDIDATES_LISTED} more`);
  return shown.join(', ');
}

export function resolveContainer(
  query: string,
  pods: readonly nri.IPodSandbox[],
  containers: readonly nri.IContainer[],
): ResolvedContainer {
  const podById = new Map(pods.map((p) => [p.id ?? '', p]));
  const all: ResolvedContainer[] = containers.map((c) => {
    const pod = podById.get(c.podSandboxId ?? '');
    return { container: c, pod, name: containerName(c, pod) };
  });
  const candidate = (r: ResolvedContainer): ContainerCandidate => ({ id: r.container.id ?? '', name: r.name });
  const q = query.trim();
  if (q === '')
    throw new ContainerLookupError(
      'unknown',
      query,
      [],
      'the container argument is empty: give an id, an id prefix, pod/container or namespace/pod/container',
    );

  let matches: ResolvedContainer[];
  let what: string;
  if (q.includes('/')) {
    const parts = q.split('/');
    if (parts.length > 3 || parts.some((p) => p === '')) {
      throw new ContainerLookupError(
        'unknown',
        query,
        [],
        `"${query}" is not pod/container or namespace/pod/container`,
      );
    }
    const [ctr, podName, ns] = [...parts].reverse() as [string, string, string | undefined];
    matches = all.filter(
      (r) => r.container.name === ctr && r.pod?.name === podName && (ns === undefined || r.pod?.namespace === ns),
    );
    what = parts.length === 3 ? 'namespace/pod/container' : 'pod/container';
  } else {
    const exact = all.find((r) => r.container.id === q);
    if (exact) return exact;
    matches = all.filter((r) => (r.container.id ?? '').startsWith(q));
    what = 'id or id prefix';
  }

  if (matches.length === 1) return matches[0];
  if (matches.length > 1) {
    const cs = matches.map(candidate);
    const fix = what === 'pod/container' ? 'add the namespace (namespace/pod/container)' : 'give more of the id';
    throw new ContainerLookupError(
      'ambiguous',
      query,
      cs,
      `"${query}" matches ${matches.length} containers: ${listCandidates(cs)}; ${fix}`,
    );
  }
  // A bare container name is not an accepted form (it is rarely unique); say what it would be.
  const byName = q.includes('/') ? [] : all.filter((r) => r.container.name === q).map(candidate);
  const hint =
    byName.length > 0 ? `; did you mean ${byName.map((c) => `${c.name} (${shortId(c.id)})`).join(' or ')}?` : '';
  throw new ContainerLookupError(
    'unknown',
    query,
    byName,
    `no container with ${what} "${query}" among the runtime's ${containers.length} containers${hint}`,
  );
}

/** Every container of the state, named, in namespace/pod/container order: what the picker lists. */
export function listContainers(
  pods: readonly nri.IPodSandbox[],
  containers: readonly nri.IContainer[],
): ResolvedContainer[] {
  const podById = new Map(pods.map((p) => [p.id ?? '', p]));
  return containers
    .map((c) => {
      const pod = podById.get(c.podSandboxId ?? '');
      return { container: c, pod, name: containerName(c, pod) };
    })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
