// Failures nri-contract.md knows a runtime for ("Known runtime results"), which critest
// reports as SKIP: nrictl reports them as failures, marked with the upstream reference
// and counted apart, never as passes.
import { compareVersions, parseVersion } from '../api/index.js';
import type { KnownGap } from './model.js';

/** Which known gap applies to this runtime, if any: the first whose runtimes and version bound match. */
export function knownFor(
  gaps: readonly KnownGap[],
  runtimeName: string,
  runtimeVersion: string,
): { ref: string; note: string } | undefined {
  const g = gaps.find(
    (k) =>
      (k.runtimes === undefined || k.runtimes.includes(runtimeName)) &&
      (k.before === undefined || versionBefore(runtimeVersion, k.before)),
  );
  return g ? { ref: g.ref, note: g.note } : undefined;
}

/** "v1.7.25" before "1.7.26"; a version that cannot be read is taken to be before nothing. */
function versionBefore(version: string, bound: string): boolean {
  const a = parseVersion(version);
  const b = parseVersion(bound);
  return a !== undefined && b !== undefined && compareVersions(a, b) < 0;
}

export const KNOWN = {
  emptyContainerName: {
    ref: 'cri-o#10011',
    runtimes: ['cri-o'],
    note: 'CRI-O reads the name from the kubelet label io.kubernetes.container.name; fixed on main by cri-o#10117',
  },
  createInStoppedPod: {
    ref: 'containerd#13599',
    runtimes: ['containerd'],
    note: 'containerd before 2.2.6 (and 2.3.0-2.3.2) creates containers in a stopped sandbox; fixed by containerd#13654',
  },
  syncNotSerialized: {
    ref: 'containerd#11384',
    runtimes: ['containerd'],
    before: '1.7.26',
    note: 'containerd before 1.7.26 and 2.0.3 does not hold CRI calls back while a plugin synchronizes',
  },
  lostDuringSyncContainerd: {
    ref: 'containerd#13698',
    runtimes: ['containerd'],
    note: 'open upstream; critest holds Synchronize past the request timeout (nri-contract.md, the pitfall)',
  },
  lostDuringSyncCrio: {
    ref: 'cri-o#10090',
    runtimes: ['cri-o'],
    note: 'open upstream; critest holds Synchronize past the request timeout (nri-contract.md, the pitfall)',
  },
  noPostUpdatePod: {
    ref: 'cri-o internal/nri',
    runtimes: ['cri-o'],
    note: 'CRI-O relays UpdatePodSandbox but never sends PostUpdatePodSandbox (critest skips on it)',
  },
} satisfies Record<string, KnownGap>;
