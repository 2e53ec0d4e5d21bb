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

/** A resource field as people read it: its label and its value in words. */
export type ResourceField = readonly [label: string, value: string];

const SUMMARY_LABELS: ReadonlyArray<readonly [keyof ResourceSummary, string]> = [
  ['cpus', 'cpus'],
  ['mems', 'mems'],
  ['memoryLimit', 'memory'],
  ['quota', 'quota'],
  ['period', 'period'],
  ['shares', 'shares'],
];

// The byte quantities past the summary's memory limit: in binary units, a negative one
// (the kernel's "max") as unlimited.
const MEMORY_BYTES = ['reservation', 'swap', 'kernel', 'kernelTcp'] as const;

/**
 * The fields of a LinuxResources that are set, in words: first the summary's (cpus, mems,
 * memory, quota, period, shares, as summariseResources writes them); with `all`, then every
 * other field under its protojson path (`memory.swap`, `hugepageLimits.2MB`, `blockioClass`,
 * `unified.memory.high`, `devices.allow`, `pids.limit` ...). Each value is one word: a value
 * with a space, a quote or a control character in it is written as a JSON string.
 */
export function resourceFields(res: Resources | null | undefined, all = false): ResourceField[] {
  const summary = summariseResources(res);
  const fields: ResourceField[] = [];
  for (const [key, label] of SUMMARY_LABELS) {
    const value = summary[key];
    // The summary as narrow lines have always shown it; a wide line's words are whole.
    if (value !== undefined) fields.push([label, all ? oneWord(value) : value]);
  }
  if (!all || !res) return fields;
  const add = (label: string, value: string | number | boolean | null | undefined): void => {
    if (value !== undefined && value !== null) fields.push([oneWord(label), oneWord(String(value))]);
  };
  const cpu = res.cpu ?? undefined;
  const memory = res.memory ?? undefined;
  add('cpu.realtimeRuntime', optionalValue(cpu?.realtimeRuntime));
  add('cpu.realtimePeriod', optionalValue(cpu?.realtimePeriod));
  for (const k of MEMORY_BYTES) {
    const bytes = optionalValue(memory?.[k]);
    add(`memory.${k}`, bytes === undefined ? undefined : formatMemoryLimit(Number(bytes)));
  }
  add('memory.swappiness', optionalValue(memory?.swappiness));
  add('memory.disableOomKiller', optionalValue(memory?.disableOomKiller));
  add('memory.useHierarchy', optionalValue(memory?.useHierarchy));
  for (const h of res.hugepageLimits ?? [])
    add(`hugepageLimits.${h.pageSize ?? ''}`, formatBytes(Number(h.limit ?? 0)));
  add('blockioClass', optionalValue(res.blockioClass));
  add('rdtClass', optionalValue(res.rdtClass));
  for (const [k, v] of Object.entries(res.unified ?? {})) add(`unified.${k}`, v);
  for (const d of res.devices ?? [])
    add(
      `devices.${d.allow ? 'allow' : 'deny'}`,
      [d.type || 'a', optionalValue(d.major) ?? '*', optionalValue(d.minor) ?? '*', d.access ?? ''].join(':'),
    );
  if (res.pids) add('pids.limit', res.pids.limit ?? 0);
  return fields;
}

/**
 * The text as one word of a line that is split at spaces, quoted as a JSON string when it
 * is empty or holds a space, a quote, a backslash or a control character (C1 and DEL too,
 * which JSON leaves as they are: a terminal would act on them).
 */
export function oneWord(text: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what must not reach the terminal raw
  if (text !== '' && !/[\s"\\\x00-\x1f\x7f-\x9f]/.test(text)) return text;
  return JSON.stringify(text).replace(/[\x7f-\x9f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
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
