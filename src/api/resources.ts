// Field-wise overlay of LinuxResources: what a runtime does when it applies an
// NRI adjustment or update to a container's cgroup settings. Fields the update
// leaves unset keep their value.
import { plainCopy } from './plain-copy.js';
import type { nri } from './schema.js';

type Resources = nri.ILinuxResources;

const MEMORY_FIELDS = [
  'limit',
  'reservation',
  'swap',
  'kernel',
  'kernelTcp',
  'swappiness',
  'disableOomKiller',
  'useHierarchy',
] as const;
const CPU_OPTIONAL_FIELDS = ['shares', 'quota', 'period', 'realtimeRuntime', 'realtimePeriod'] as const;

function cloneResources(r: Resources | null | undefined): Resources {
  return r ? plainCopy(r) : {};
}

/** Returns a new LinuxResources: `base` with every field that `update` sets replaced. */
export function overlayResources(base: Resources | null | undefined, update: Resources | null | undefined): Resources {
  const out = cloneResources(base);
  if (!update) return out;
  if (update.memory) {
    // Object.assign, not a spread: fields are added below, and an object that begins as a
    // spread gets a hidden class of its own each time (src/runtime/README.md).
    const mem: nri.ILinuxMemory = Object.assign({}, out.memory);
    for (const f of MEMORY_FIELDS) {
      const v = update.memory[f];
      if (v) (mem as Record<string, unknown>)[f] = { value: v.value ?? 0 };
    }
    out.memory = mem;
  }
  if (update.cpu) {
    const cpu: nri.ILinuxCPU = Object.assign({}, out.cpu);
    for (const f of CPU_OPTIONAL_FIELDS) {
      const v = update.cpu[f];
      if (v) (cpu as Record<string, unknown>)[f] = { value: v.value ?? 0 };
    }
    if (update.cpu.cpus) cpu.cpus = update.cpu.cpus;
    if (update.cpu.mems) cpu.mems = update.cpu.mems;
    out.cpu = cpu;
  }
  if (update.hugepageLimits?.length) {
    const bySize = new Map((out.hugepageLimits ?? []).map((l) => [l.pageSize ?? '', l]));
    for (const l of update.hugepageLimits) bySize.set(l.pageSize ?? '', { ...l });
    out.hugepageLimits = [...bySize.values()];
  }
  if (update.unified && Object.keys(update.unified).length > 0)
    out.unified = { ...(out.unified ?? {}), ...update.unified };
  if (update.devices?.length) out.devices = [...(out.devices ?? []), ...plainCopy(update.devices)];
  if (update.blockioClass) out.blockioClass = { value: update.blockioClass.value ?? '' };
  if (update.rdtClass) out.rdtClass = { value: update.rdtClass.value ?? '' };
  if (update.pids) out.pids = { limit: update.pids.limit ?? 0 };
  return out;
}
