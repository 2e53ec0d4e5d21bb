// How Docker Engine 29 (moby daemon/internal/nri/nri.go, 29.2.0 to 29.7.2) hands a
// container to NRI and what it takes back. Docker has no pods: each container is its
// own "pod" of an id and a name. Only CreateContainer reaches plugins, and of their
// answers only environment variables and mounts are applied; anything else fails the
// create with Docker's own message.
import type { nri } from '../../api/index.js';

/** Docker's container names carry a leading slash (`/keep`). */
function dockerName(ctr: nri.IContainer): string {
  const name = ctr.name ?? '';
  return name.startsWith('/') ? name : `/${name}`;
}

/** containerToNRI's pod: `PodSandbox{Id: ctr.ID, Name: ctr.Name}`, nothing else. */
export function dockerPod(ctr: nri.IContainer): nri.IPodSandbox {
  return { id: ctr.id ?? '', name: dockerName(ctr) };
}

/** containerToNRI's container: no pod of its own, an empty linux, no mounts, hooks or rlimits. */
export function dockerContainer(ctr: nri.IContainer): nri.IContainer {
  return {
    id: ctr.id ?? '',
    podSandboxId: ctr.id ?? '',
    name: dockerName(ctr),
    ...(ctr.state !== undefined && ctr.state !== null ? { state: ctr.state } : {}),
    labels: { ...(ctr.labels ?? {}) },
    annotations: { ...(ctr.annotations ?? {}) },
    args: [...(ctr.args ?? [])],
    env: [...(ctr.env ?? [])],
    ...(ctr.pid ? { pid: ctr.pid } : {}),
    linux: {},
  };
}

/** What Synchronize shows: one pod per container. */
export function dockerSnapshot(state: { containers: nri.IContainer[] }): {
  pods: nri.IPodSandbox[];
  containers: nri.IContainer[];
} {
  return { pods: state.containers.map(dockerPod), containers: state.containers.map(dockerContainer) };
}

const some = (v: unknown[] | null | undefined): boolean => (v?.length ?? 0) > 0;
const set = (v: unknown): boolean => v !== undefined && v !== null;

/**
 * The error Docker fails the create with for the merged answer, or undefined when it
 * takes it: updates, evictions, then checkForUnsupportedAdjustments (its order, joined
 * by "," with no space), then the mount options it cannot apply.
 */
export function dockerRefusal(merged: {
  adjust?: nri.IContainerAdjustment;
  updates: unknown[];
  evictions: unknown[];
}): string | undefined {
  if (merged.updates.length > 0) return 'container update is not supported';
  if (merged.evictions.length > 0) return 'container eviction is not supported';
  const adj = merged.adjust;
  if (!adj) return undefined;
  const unsupported: string[] = [];
  if (Object.keys(adj.annotations ?? {}).length > 0) unsupported.push('annotations');
  const h = adj.hooks;
  if (
    h &&
    (some(h.prestart) ||
      some(h.createRuntime) ||
      some(h.createContainer) ||
      some(h.startContainer) ||
      some(h.poststart) ||
      some(h.poststop))
  )
    unsupported.push('hooks');
  const l = adj.linux;
  if (l) {
    if (
      some(l.devices) ||
      (l.cgroupsPath ?? '') !== '' ||
      set(l.oomScoreAdj) ||
      set(l.ioPriority) ||
      set(l.seccompPolicy) ||
      some(l.namespaces)
    )
      unsupported.push('linux');
    const mem = l.resources?.memory;
    if (
      mem &&
      [
        mem.limit,
        mem.reservation,
        mem.swap,
        mem.kernel,
        mem.kernelTcp,
        mem.swappiness,
        mem.disableOomKiller,
        mem.useHierarchy,
      ].some(set)
    )
      unsupported.push('linux.resources.memory');
    const cpu = l.resources?.cpu;
    if (
      cpu &&
      ([cpu.shares, cpu.quota, cpu.period, cpu.realtimeRuntime, cpu.realtimePeriod].some(set) ||
        (cpu.cpus ?? '') !== '' ||
        (cpu.mems ?? '') !== '')
    )
      unsupported.push('linux.resources.cpu');
  }
  if (some(adj.rlimits)) unsupported.push('rlimits');
  if (some(adj.CDIDevices)) unsupported.push('CDI');
  if (some(adj.args)) unsupported.push('args');
  if (unsupported.length > 0) return `unsupported container adjustments: ${unsupported.join(',')}`;
  for (const kv of adj.env ?? [])
    if ((kv.key ?? '') === '') return 'applying environment variable adjustments: empty environment variable key';
  for (const m of adj.mounts ?? [])
    for (const opt of m.options ?? [])
      if (opt !== 'ro' && opt !== 'readonly')
        return `applying mount adjustments: mount option "${opt}" is not supported`;
  return undefined;
}

/** A plugin's UpdateContainers: updateFn answers `errors.New("not implemented")`. */
export const DOCKER_UPDATES_REFUSED = 'not implemented';
