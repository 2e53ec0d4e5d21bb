// From the flags of `nrictl update` to the LinuxResources of an NRI ContainerUpdate.
// Two steps: parseResourceFlags judges every value offline (before anything connects),
// buildLinuxResources then needs the container's current resources only for
// --cpu-limit, whose quota depends on the period in force.
import { optionalInt64, optionalString, optionalUInt64, type nri } from '../api/index.js';
import { canonicalCpuset, CpusetError, parseCpuset, parseQuantity, plural, QuantityError } from '../units/index.js';
import { optionalValue } from '../output/index.js';
import { ControlInputError } from './errors.js';

/** The flag values as typed (all text), keyed by flag name without dashes. */
export interface ResourceFlagValues {
  cpus?: string | undefined;
  mems?: string | undefined;
  'cpu-shares'?: string | undefined;
  'cpu-quota'?: string | undefined;
  'cpu-period'?: string | undefined;
  'cpu-limit'?: string | undefined;
  'cpu-realtime-runtime'?: string | undefined;
  'cpu-realtime-period'?: string | undefined;
  memory?: string | undefined;
  'memory-reservation'?: string | undefined;
  'memory-swap'?: string | undefined;
  swappiness?: string | undefined;
  'hugepage-limit'?: readonly string[] | undefined;
  'blockio-class'?: string | undefined;
  'rdt-class'?: string | undefined;
  'pids-limit'?: string | undefined;
  unified?: readonly string[] | undefined;
}

export const RESOURCE_FLAG_NAMES = [
  'cpus',
  'mems',
  'cpu-shares',
  'cpu-quota',
  'cpu-period',
  'cpu-limit',
  'cpu-realtime-runtime',
  'cpu-realtime-period',
  'memory',
  'memory-reservation',
  'memory-swap',
  'swappiness',
  'hugepage-limit',
  'blockio-class',
  'rdt-class',
  'pids-limit',
  'unified',
] as const satisfies ReadonlyArray<keyof ResourceFlagValues>;

/** What the operator asked for, validated; undefined fields stay unset in the update. */
export interface ResourceChange {
  cpus?: string;
  mems?: string;
  shares?: number;
  quota?: number;
  period?: number;
  /** --cpu-limit: CPUs' worth of time per period (docker's --cpus); becomes a quota. */
  cpuLimit?: number;
  realtimeRuntime?: number;
  realtimePeriod?: number;
  memoryLimit?: number;
  memoryReservation?: number;
  memorySwap?: number;
  swappiness?: number;
  hugepageLimits?: Array<{ pageSize: string; limit: number }>;
  blockioClass?: string;
  rdtClass?: string;
  pidsLimit?: number;
  unified?: Record<string, string>;
}

// Kernel bounds: cpu.cfs_period_us takes 1 ms to 1 s; cpu.shares 2 to 262144.
const CPU_PERIOD_MIN = 1000;
const CPU_PERIOD_MAX = 1_000_000;
const CPU_SHARES_MIN = 2;
const CPU_SHARES_MAX = 262_144;
/** The kernel's CFS period when none is set. */
const DEFAULT_CPU_PERIOD = 100_000;

const INTEGER = /^[+-]?\d+$/;

function integer(flag: string, text: string, min: number, max: number, hint = ''): number {
  const t = text.trim();
  if (!INTEGER.test(t)) throw new ControlInputError(flag, `${flag} "${text}" is not a whole number${hint}`);
  const n = Number(t);
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    throw new ControlInputError(flag, `${flag} ${t} is out of range: it must be from ${min} to ${max}${hint}`);
  }
  return n;
}

/** docker's --cpus 1.5 is a quota; NRI's cpus is a set. Point whoever wrote a fraction at the quota. */
const CPU_COUNT = /^\s*\d*\.\d+\s*$/;

function cpuset(flag: string, text: string, what: string): string {
  if (flag === '--cpus' && CPU_COUNT.test(text)) {
    const n = text.trim();
    throw new ControlInputError(
      flag,
      `--cpus ${n} is not a list of CPUs: --cpus says which CPUs (0-3,8), not how many; for ${n} CPUs' worth of time, as docker's --cpus means, use --cpu-limit ${n}`,
    );
  }
  try {
    if (parseCpuset(text).length === 0)
      throw new ControlInputError(flag, `${flag} is empty: give ${what} as a list such as 0-3,8`);
    return canonicalCpuset(text);
  } catch (err) {
    if (err instanceof CpusetError)
      throw new ControlInputError(flag, `${flag}: ${err.message}; write ${what} as a list such as 0-3,8`);
    throw err;
  }
}

/** Bytes; "-1" (unlimited) only where the kernel takes it. */
function bytes(flag: string, text: string, opts: { unlimited?: boolean } = {}): number {
  if (opts.unlimited && text.trim() === '-1') return -1;
  try {
    const n = parseQuantity(text);
    if (n === 0)
      throw new ControlInputError(
        flag,
        `${flag} 0 would leave no memory at all; give a size such as 512Mi${opts.unlimited ? ', or -1 for no limit' : ''}`,
      );
    return n;
  } catch (err) {
    if (err instanceof QuantityError) {
      const negative =
        /negative/.test(err.message) && opts.unlimited ? ' (-1 means no limit; other negative sizes do not exist)' : '';
      throw new ControlInputError(flag, `${flag}: ${err.message}${negative}`);
    }
    throw err;
  }
}

function nonEmpty(flag: string, text: string, example: string): string {
  const t = text.trim();
  if (t === '') throw new ControlInputError(flag, `${flag} is empty: give a class name such as ${example}`);
  return t;
}

// Hugepage sizes as the OCI spec writes them ("2MB", "1GB"); 2M, 2Mi and 2MiB mean the same here.
const PAGE_SIZE = /^(\d+)([KMG])(?:B|i|iB)?$/i;

function hugepageLimit(text: string): { pageSize: string; limit: number } {
  const flag = '--hugepage-limit';
  const eq = text.indexOf('=');
  if (eq <= 0)
    throw new ControlInputError(flag, `${flag} "${text}" is not SIZE=LIMIT: write it as --hugepage-limit 2MB=1Gi`);
  const m = PAGE_SIZE.exec(text.slice(0, eq).trim());
  if (!m || Number(m[1]) === 0)
    throw new ControlInputError(
      flag,
      `${flag} "${text}": page size "${text.slice(0, eq)}" is not a size like 2MB or 1GB`,
    );
  const pageSize = `${Number(m[1])}${m[2].toUpperCase()}B`;
  const limitText = text.slice(eq + 1);
  if (limitText.trim() === '')
    throw new ControlInputError(flag, `${flag} "${text}" has no limit after '=': write it as ${pageSize}=1Gi`);
  try {
    return { pageSize, limit: parseQuantity(limitText) };
  } catch (err) {
    if (err instanceof QuantityError) throw new ControlInputError(flag, `${flag} ${pageSize}: ${err.message}`);
    throw err;
  }
}

// cgroup v2 interface files are "<controller>.<name>" (memory.high, io.weight, cpu.max).
const UNIFIED_KEY = /^[a-z][a-z0-9_]*\.[a-z0-9_.]+$/;

function unifiedEntry(text: string): [string, string] {
  const flag = '--unified';
  const eq = text.indexOf('=');
  if (eq <= 0)
    throw new ControlInputError(flag, `${flag} "${text}" is not key=value: write it as --unified memory.high=1G`);
  const key = text.slice(0, eq).trim();
  if (!UNIFIED_KEY.test(key))
    throw new ControlInputError(
      flag,
      `${flag} "${text}": "${key}" is not a cgroup v2 file name such as memory.high or io.weight`,
    );
  return [key, text.slice(eq + 1)];
}

/** Validates every given flag; throws ControlInputError naming the first bad one. */
export function parseResourceFlags(v: ResourceFlagValues): ResourceChange {
  const c: ResourceChange = {};
  if (v.cpus !== undefined) c.cpus = cpuset('--cpus', v.cpus, 'CPUs');
  if (v.mems !== undefined) c.mems = cpuset('--mems', v.mems, 'memory nodes');
  if (v['cpu-shares'] !== undefined)
    c.shares = integer(
      '--cpu-shares',
      v['cpu-shares'],
      CPU_SHARES_MIN,
      CPU_SHARES_MAX,
      " (the kernel's cpu.shares range; 1024 is one CPU's weight)",
    );
  if (v['cpu-period'] !== undefined) {
    c.period = integer(
      '--cpu-period',
      v['cpu-period'],
      CPU_PERIOD_MIN,
      CPU_PERIOD_MAX,
      ' microseconds (1ms to 1s; the kernel default is 100000)',
    );
  }
  if (v['cpu-quota'] !== undefined && v['cpu-limit'] !== undefined) {
    throw new ControlInputError('--cpu-limit', '--cpu-limit and --cpu-quota both set the CFS quota: give one of them');
  }
  if (v['cpu-quota'] !== undefined) {
    c.quota = integer(
      '--cpu-quota',
      v['cpu-quota'],
      -1,
      Number.MAX_SAFE_INTEGER,
      ' microseconds per period (-1 for no limit)',
    );
    if (c.quota === 0)
      throw new ControlInputError(
        '--cpu-quota',
        "--cpu-quota 0 would stop the container's CPU time; give microseconds per period, or -1 for no limit",
      );
  }
  if (v['cpu-limit'] !== undefined) {
    const t = v['cpu-limit'].trim();
    const n = /^\d*\.?\d+$/.test(t) ? Number(t) : NaN;
    if (!(n > 0) || !Number.isFinite(n)) {
      throw new ControlInputError(
        '--cpu-limit',
        `--cpu-limit "${v['cpu-limit']}" is not a positive number of CPUs such as 1.5 (to choose which CPUs, use --cpus 0-3)`,
      );
    }
    c.cpuLimit = n;
  }
  if (v['cpu-realtime-runtime'] !== undefined) {
    c.realtimeRuntime = integer(
      '--cpu-realtime-runtime',
      v['cpu-realtime-runtime'],
      -1,
      Number.MAX_SAFE_INTEGER,
      ' microseconds (-1 for no limit)',
    );
  }
  if (v['cpu-realtime-period'] !== undefined) {
    c.realtimePeriod = integer('--cpu-realtime-period', v['cpu-realtime-period'], 1, CPU_PERIOD_MAX, ' microseconds');
  }
  if (c.realtimeRuntime !== undefined && c.realtimePeriod !== undefined && c.realtimeRuntime > c.realtimePeriod) {
    throw new ControlInputError(
      '--cpu-realtime-runtime',
      `--cpu-realtime-runtime ${c.realtimeRuntime} is longer than --cpu-realtime-period ${c.realtimePeriod}`,
    );
  }
  if (v.memory !== undefined) c.memoryLimit = bytes('--memory', v.memory, { unlimited: true });
  if (v['memory-reservation'] !== undefined)
    c.memoryReservation = bytes('--memory-reservation', v['memory-reservation']);
  if (v['memory-swap'] !== undefined) c.memorySwap = bytes('--memory-swap', v['memory-swap'], { unlimited: true });
  if (
    c.memorySwap !== undefined &&
    c.memorySwap !== -1 &&
    c.memoryLimit !== undefined &&
    c.memoryLimit !== -1 &&
    c.memorySwap < c.memoryLimit
  ) {
    throw new ControlInputError(
      '--memory-swap',
      `--memory-swap ${v['memory-swap']} is less than --memory ${v.memory}: it is memory plus swap, so it must be at least the memory limit`,
    );
  }
  if (v.swappiness !== undefined) c.swappiness = integer('--swappiness', v.swappiness, 0, 100);
  if (v['hugepage-limit']?.length) {
    const bySize = new Map<string, number>();
    for (const text of v['hugepage-limit']) {
      const h = hugepageLimit(text);
      bySize.set(h.pageSize, h.limit);
    }
    c.hugepageLimits = [...bySize].map(([pageSize, limit]) => ({ pageSize, limit }));
  }
  if (v['blockio-class'] !== undefined) c.blockioClass = nonEmpty('--blockio-class', v['blockio-class'], 'throttled');
  if (v['rdt-class'] !== undefined) c.rdtClass = nonEmpty('--rdt-class', v['rdt-class'], 'guaranteed');
  if (v['pids-limit'] !== undefined) {
    c.pidsLimit = integer('--pids-limit', v['pids-limit'], -1, Number.MAX_SAFE_INTEGER, ' (-1 for no limit)');
    if (c.pidsLimit === 0)
      throw new ControlInputError(
        '--pids-limit',
        '--pids-limit 0 is read as "no limit" by some runtimes and as none allowed by others: give a positive number, or -1 for no limit',
      );
  }
  if (v.unified?.length) c.unified = Object.fromEntries(v.unified.map(unifiedEntry));
  return c;
}

export function isEmptyChange(c: ResourceChange): boolean {
  return Object.keys(c).length === 0;
}

/**
 * The LinuxResources to send: only the fields the change sets. --cpu-limit becomes a
 * quota over the period given, else the container's current period, else the kernel
 * default (which is then sent too, so the quota's meaning does not depend on it).
 */
export function buildLinuxResources(
  c: ResourceChange,
  current: nri.ILinuxResources | null | undefined,
): nri.ILinuxResources {
  const r: nri.ILinuxResources = {};
  const cpu: nri.ILinuxCPU = {};
  let period = c.period;
  let quota = c.quota;
  if (c.cpuLimit !== undefined) {
    const currentPeriod = optionalValue(current?.cpu?.period);
    const base =
      period ?? (currentPeriod !== undefined && Number(currentPeriod) > 0 ? Number(currentPeriod) : undefined);
    if (base === undefined) period = DEFAULT_CPU_PERIOD;
    quota = Math.max(1, Math.round(c.cpuLimit * (base ?? DEFAULT_CPU_PERIOD)));
  }
  if (c.cpus !== undefined) cpu.cpus = c.cpus;
  if (c.mems !== undefined) cpu.mems = c.mems;
  if (c.shares !== undefined) cpu.shares = optionalUInt64(c.shares);
  if (quota !== undefined) cpu.quota = optionalInt64(quota);
  if (period !== undefined) cpu.period = optionalUInt64(period);
  if (c.realtimeRuntime !== undefined) cpu.realtimeRuntime = optionalInt64(c.realtimeRuntime);
  if (c.realtimePeriod !== undefined) cpu.realtimePeriod = optionalUInt64(c.realtimePeriod);
  if (Object.keys(cpu).length > 0) r.cpu = cpu;

  const memory: nri.ILinuxMemory = {};
  if (c.memoryLimit !== undefined) memory.limit = optionalInt64(c.memoryLimit);
  if (c.memoryReservation !== undefined) memory.reservation = optionalInt64(c.memoryReservation);
  if (c.memorySwap !== undefined) memory.swap = optionalInt64(c.memorySwap);
  if (c.swappiness !== undefined) memory.swappiness = optionalUInt64(c.swappiness);
  if (Object.keys(memory).length > 0) r.memory = memory;

  if (c.hugepageLimits) r.hugepageLimits = c.hugepageLimits.map((h) => ({ pageSize: h.pageSize, limit: h.limit }));
  if (c.blockioClass !== undefined) r.blockioClass = optionalString(c.blockioClass);
  if (c.rdtClass !== undefined) r.rdtClass = optionalString(c.rdtClass);
  if (c.pidsLimit !== undefined) r.pids = { limit: c.pidsLimit };
  if (c.unified) r.unified = { ...c.unified };
  return r;
}

/** The quota --cpu-limit stood for, for the preview: "1.5 CPUs". */
export function describeCpuLimit(c: ResourceChange): string | undefined {
  return c.cpuLimit === undefined ? undefined : plural(c.cpuLimit, 'CPU');
}

// Below this a byte count given without a unit is almost surely a forgotten "Mi":
// no container runs in less than a mebibyte.
const SUSPICIOUS_BYTES = 1 << 20;

/** Values that parse but are almost surely a mistake: "--memory 100" is 100 bytes. */
export function unitWarnings(v: ResourceFlagValues): string[] {
  const out: string[] = [];
  for (const flag of ['memory', 'memory-reservation', 'memory-swap'] as const) {
    const text = v[flag]?.trim();
    if (text === undefined || !/^\d+$/.test(text)) continue;
    const n = Number(text);
    if (n > 0 && n < SUSPICIOUS_BYTES)
      out.push(
        `--${flag} ${text} means ${text} bytes, which is almost surely a missing unit: did you mean ${text}Mi or ${text}Gi?`,
      );
  }
  return out;
}
