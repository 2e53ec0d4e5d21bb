// Exact attribution from a ValidateContainerAdjustment request (NRI v0.10+): the runtime
// names the plugin that claimed each adjusted field (pkg/api owners), per container.
// Maps trace's view keys (view.ts) to the runtime's Field numbers.
import { nri } from '../api/index.js';
import type { Change } from './view.js';

const F = nri.Field;

const COMPOUND: Record<string, number> = {
  annotations: F.Annotations,
  mounts: F.Mounts,
  env: F.Env,
  devices: F.Devices,
  rlimits: F.Rlimits,
};

const SIMPLE: Record<string, number> = {
  'memory.limit': F.MemLimit,
  'memory.reservation': F.MemReservation,
  'memory.swap': F.MemSwapLimit,
  'memory.kernel': F.MemKernelLimit,
  'memory.kernelTcp': F.MemTCPLimit,
  'memory.swappiness': F.MemSwappiness,
  'memory.disableOomKiller': F.MemDisableOomKiller,
  'memory.useHierarchy': F.MemUseHierarchy,
  'cpu.shares': F.CPUShares,
  'cpu.quota': F.CPUQuota,
  'cpu.period': F.CPUPeriod,
  'cpu.realtimeRuntime': F.CPURealtimeRuntime,
  'cpu.realtimePeriod': F.CPURealtimePeriod,
  'cpu.cpus': F.CPUSetCPUs,
  'cpu.mems': F.CPUSetMems,
  'pids.limit': F.PidsLimit,
  blockioClass: F.BlockioClass,
  rdtClass: F.RdtClass,
};

/** The plugin ("NN-name") the runtime recorded as owner of what this change touched, if it says. */
export function ownerOf(owners: nri.IFieldOwners | null | undefined, change: Change): string | undefined {
  if (!owners) return undefined;
  if (change.field === 'hooks') return undefined; // hooks accumulate; the runtime records no owner
  if (change.field === 'resources') {
    if (change.key.startsWith('unified.'))
      return owners.compound?.[F.CgroupsUnified]?.owners?.[change.key.slice('unified.'.length)] ?? undefined;
    const f = SIMPLE[change.key];
    return f === undefined ? undefined : (owners.simple?.[f] ?? undefined);
  }
  const f = COMPOUND[change.field];
  if (f === undefined) return undefined;
  return owners.compound?.[f]?.owners?.[change.key] ?? undefined;
}

/** The two-digit index of an owner name "NN-name". */
export function ownerIndex(owner: string): string | undefined {
  return /^(\d\d)-/.exec(owner)?.[1];
}
