import type { nri } from '../api/index.js';
import { formatBytes } from '../units/index.js';

// Reading NRI objects for display. Render works on both decoded messages (enums
// as numbers, unset optionals absent) and plain objects converted with enum
// names, so every accessor accepts either. Only types come from src/api: loading
// the generated module is left to the commands that speak the protocol.

export type Pod = nri.IPodSandbox;
export type Container = nri.IContainer;
export type Resources = nri.ILinuxResources;

const CONTAINER_STATES = ['Unknown', 'Created', 'Paused', 'Running', 'Stopped'] as const;
export type ContainerStateName = (typeof CONTAINER_STATES)[number];

/** "Running" for 3, "CONTAINER_RUNNING" or "Running"; "Unknown" for anything else. */
export function containerStateName(state: unknown): ContainerStateName {
  if (typeof state === 'number') return CONTAINER_STATES[state] ?? 'Unknown';
  if (typeof state === 'string') {
    const word = state.replace(/^CONTAINER_/, '').toLowerCase();
    return CONTAINER_STATES.find((s) => s.toLowerCase() === word) ?? 'Unknown';
  }
  return 'Unknown';
}

/** The value of an Optional* wrapper ({ value }), or undefined when unset. */
export function optionalValue<T>(wrapper: { value?: T | null } | null | undefined): T | undefined {
  if (wrapper === null || wrapper === undefined) return undefined;
  const v = wrapper.value;
  // A wrapper that is present but holds 0 decodes to the prototype default 0: a real value.
  return v === null || v === undefined ? undefined : v;
}

/** "namespace/name", as kubectl names a pod. */
export function podDisplayName(pod: Pod | undefined): string {
  if (!pod) return '';
  return pod.namespace ? `${pod.namespace}/${pod.name ?? ''}` : (pod.name ?? '');
}

export function containerResources(ctr: Container | undefined): Resources | undefined {
  return ctr?.linux?.resources ?? undefined;
}

/** The resource fields people ask about, each as display text or undefined when unset. */
export interface ResourceSummary {
  cpus?: string;
  mems?: string;
  memoryLimit?: string;
  quota?: string;
  period?: string;
  shares?: string;
}

export function summariseResources(res: Resources | null | undefined): ResourceSummary {
  const cpu = res?.cpu ?? undefined;
  const memory = res?.memory ?? undefined;
  const limit = optionalValue(memory?.limit);
  const quota = optionalValue(cpu?.quota);
  const period = optionalValue(cpu?.period);
  const shares = optionalValue(cpu?.shares);
  return {
    cpus: cpu?.cpus || undefined,
    mems: cpu?.mems || undefined,
    memoryLimit: limit === undefined ? undefined : formatMemoryLimit(Number(limit)),
    // A negative quota is the kernel's "max": no limit.
    quota: quota === undefined ? undefined : Number(quota) < 0 ? 'max' : String(quota),
    period: period === undefined ? undefined : String(period),
    shares: shares === undefined ? undefined : String(shares),
  };
}

function formatMemoryLimit(bytes: number): string {
  return bytes < 0 ? 'unlimited' : formatBytes(bytes);
}

// The numeric Optional* fields of LinuxCPU and LinuxMemory that an update request may carry.
const CPU_NUMBERS = ['shares', 'quota', 'period', 'realtimeRuntime', 'realtimePeriod'] as const;
const MEMORY_NUMBERS = ['limit', 'reservation', 'swap', 'kernel', 'kernelTcp', 'swappiness'] as const;

/**
 * What an UpdateContainer / UpdatePodSandbox request really asks for. containerd 1.7
 * builds the request from the CRI update, whose numbers are plain integers, so every
 * field the update does not touch arrives as a set wrapper holding 0
 * (`crictl update --cpu-share 300` sends shares 300 with memory, quota and period 0);
 * runc and crun read a zero there as "leave it", so do we: a zero in a request is not
 * set, and an empty cpuset or mems string neither. Returns a copy; the request is
 * left as it was (JSON output shows what the runtime sent).
 */
export function requestedResources(res: Resources | null | undefined): Resources | null | undefined {
  if (!res) return res;
  const out: Resources = { ...res };
  if (res.cpu) {
    const cpu: Record<string, unknown> = { ...res.cpu };
    for (const k of CPU_NUMBERS) if (isZero(res.cpu[k])) delete cpu[k];
    if (!res.cpu.cpus) delete cpu.cpus;
    if (!res.cpu.mems) delete cpu.mems;
    out.cpu = cpu;
  }
  if (res.memory) {
    const memory: Record<string, unknown> = { ...res.memory };
    for (const k of MEMORY_NUMBERS) if (isZero(res.memory[k])) delete memory[k];
    out.memory = memory;
  }
  return out;
}

function isZero(wrapper: { value?: unknown } | null | undefined): boolean {
  const v = optionalValue(wrapper);
  return v !== undefined && Number(v) === 0;
}
