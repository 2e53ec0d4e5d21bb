// Cgroup resources between CRI's form (LinuxContainerResources: plain numbers) and NRI's
// (LinuxResources: Optional wrappers), as containerd converts them for its NRI plugins
// (internal/cri/nri/nri_api_linux.go fromCRILinuxResources / toCRIResources): every CRI
// field is carried, zeros included; NRI fields CRI has no room for are dropped.
import { getOptionalInt64, getOptionalUInt64, type nri } from '../../../api/index.js';
import type { cri } from '../../../cri/index.js';

/** CRI's resources as NRI hands them to plugins; undefined when CRI gave none. */
export function nriResources(c: cri.ILinuxContainerResources | null | undefined): nri.ILinuxResources | undefined {
  if (!c) return undefined;
  const r: nri.ILinuxResources = {
    cpu: {
      shares: { value: num(c.cpuShares) },
      quota: { value: num(c.cpuQuota) },
      period: { value: num(c.cpuPeriod) },
      cpus: c.cpusetCpus ?? '',
      mems: c.cpusetMems ?? '',
    },
    memory: { limit: { value: num(c.memoryLimitInBytes) } },
  };
  if (c.hugepageLimits?.length)
    r.hugepageLimits = c.hugepageLimits.map((l) => ({ pageSize: l.pageSize ?? '', limit: num(l.limit) }));
  if (c.unified && Object.keys(c.unified).length > 0) r.unified = { ...c.unified };
  return r;
}

/** A container's NRI resources as CRI reports them (ContainerStatus, verbose info). */
export function criResources(
  r: nri.ILinuxResources | null | undefined,
  oomScoreAdj: number | undefined,
): cri.ILinuxContainerResources | undefined {
  if (!r) return undefined;
  const o: cri.ILinuxContainerResources = {};
  if (r.memory) {
    o.memoryLimitInBytes = getOptionalInt64(r.memory.limit) ?? 0;
    o.oomScoreAdj = oomScoreAdj ?? 0;
    const swap = getOptionalInt64(r.memory.swap);
    if (swap !== undefined) o.memorySwapLimitInBytes = swap;
  }
  if (r.cpu) {
    o.cpuShares = getOptionalUInt64(r.cpu.shares) ?? 0;
    o.cpuPeriod = getOptionalUInt64(r.cpu.period) ?? 0;
    o.cpuQuota = getOptionalInt64(r.cpu.quota) ?? 0;
    o.cpusetCpus = r.cpu.cpus ?? '';
    o.cpusetMems = r.cpu.mems ?? '';
  }
  if (r.hugepageLimits?.length)
    o.hugepageLimits = r.hugepageLimits.map((l) => ({ pageSize: l.pageSize ?? '', limit: num(l.limit) }));
  if (r.unified && Object.keys(r.unified).length > 0) o.unified = { ...r.unified };
  return o;
}

/** The OCI runtime spec's linux.resources for NRI's, as containerd's spec shows them (verbose info). */
export function ociResources(r: nri.ILinuxResources | null | undefined): Record<string, unknown> | undefined {
  if (!r) return undefined;
  const out: Record<string, unknown> = {};
  const defined = (o: Record<string, unknown>): Record<string, unknown> =>
    Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== ''));
  if (r.memory)
    out.memory = defined({
      limit: getOptionalInt64(r.memory.limit),
      reservation: getOptionalInt64(r.memory.reservation),
      swap: getOptionalInt64(r.memory.swap),
      swappiness: getOptionalUInt64(r.memory.swappiness),
    });
  if (r.cpu)
    out.cpu = defined({
      shares: getOptionalUInt64(r.cpu.shares),
      quota: getOptionalInt64(r.cpu.quota),
      period: getOptionalUInt64(r.cpu.period),
      realtimeRuntime: getOptionalInt64(r.cpu.realtimeRuntime),
      realtimePeriod: getOptionalUInt64(r.cpu.realtimePeriod),
      cpus: r.cpu.cpus ?? '',
      mems: r.cpu.mems ?? '',
    });
  if (r.hugepageLimits?.length)
    out.hugepageLimits = r.hugepageLimits.map((l) => ({ pageSize: l.pageSize ?? '', limit: num(l.limit) }));
  if (r.unified && Object.keys(r.unified).length > 0) out.unified = { ...r.unified };
  if (r.pids) out.pids = { limit: num(r.pids.limit) };
  return out;
}

/** 64-bit fields decode as numbers here (src/api/protobuf.ts); an unset one reads as 0. */
function num(v: number | null | undefined): number {
  return v ?? 0;
}
