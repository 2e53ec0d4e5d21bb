// What an update changes, current -> new for each field it sets, and the check that a
// later Synchronize shows the new values. Both walk the same field list.
import type { nri } from '../api/index.js';
import { optionalValue } from '../output/index.js';
import { describeCpuset, formatBytes } from '../units/index.js';

type Resources = nri.ILinuxResources | null | undefined;

export interface ResourceField {
  /** Where it sits in LinuxResources: "cpu.cpus", "hugepageLimits[2MB]", "unified[memory.high]". */
  path: string;
  label: string;
  /** The field's value in a LinuxResources, as display text; undefined when unset. */
  show(r: Resources): string | undefined;
}

export interface FieldChange {
  path: string;
  label: string;
  before: string | undefined;
  after: string;
  unchanged: boolean;
}

const num = (v: unknown): number | undefined => (v === undefined || v === null ? undefined : Number(v));
const micros = (v: number | undefined): string | undefined => (v === undefined ? undefined : `${v} µs`);
const sizeOrUnlimited = (v: number | undefined): string | undefined =>
  v === undefined ? undefined : v < 0 ? 'unlimited' : `${formatBytes(v)} (${v} bytes)`;

function scalarFields(): ResourceField[] {
  return [
    { path: 'cpu.cpus', label: 'cpuset CPUs', show: (r) => (r?.cpu?.cpus ? describeCpuset(r.cpu.cpus) : undefined) },
    {
      path: 'cpu.mems',
      label: 'cpuset memory nodes',
      show: (r) => (r?.cpu?.mems ? describeCpuset(r.cpu.mems, ['node', 'nodes']) : undefined),
    },
    { path: 'cpu.shares', label: 'CPU shares', show: (r) => optionalValue(r?.cpu?.shares)?.toString() },
    {
      path: 'cpu.quota',
      label: 'CPU quota',
      show: (r) => {
        const q = num(optionalValue(r?.cpu?.quota));
        return q === undefined ? undefined : q < 0 ? 'no limit' : micros(q);
      },
    },
    { path: 'cpu.period', label: 'CPU period', show: (r) => micros(num(optionalValue(r?.cpu?.period))) },
    {
      path: 'cpu.realtimeRuntime',
      label: 'CPU realtime runtime',
      show: (r) => micros(num(optionalValue(r?.cpu?.realtimeRuntime))),
    },
    {
      path: 'cpu.realtimePeriod',
      label: 'CPU realtime period',
      show: (r) => micros(num(optionalValue(r?.cpu?.realtimePeriod))),
    },
    { path: 'memory.limit', label: 'memory limit', show: (r) => sizeOrUnlimited(num(optionalValue(r?.memory?.limit))) },
    {
      path: 'memory.reservation',
      label: 'memory reservation',
      show: (r) => sizeOrUnlimited(num(optionalValue(r?.memory?.reservation))),
    },
    {
      path: 'memory.swap',
      label: 'memory + swap limit',
      show: (r) => sizeOrUnlimited(num(optionalValue(r?.memory?.swap))),
    },
    { path: 'memory.swappiness', label: 'swappiness', show: (r) => optionalValue(r?.memory?.swappiness)?.toString() },
    { path: 'blockioClass', label: 'block I/O class', show: (r) => optionalValue(r?.blockioClass) },
    { path: 'rdtClass', label: 'RDT class', show: (r) => optionalValue(r?.rdtClass) },
    {
      path: 'pids.limit',
      label: 'pids limit',
      show: (r) => {
        if (!r?.pids) return undefined;
        const n = Number(r.pids.limit ?? 0);
        return n < 0 ? 'no limit' : String(n);
      },
    },
  ];
}

/** The fields an update sets, including one per hugepage size and per unified key. */
function fieldsOf(update: Resources): ResourceField[] {
  const fields = scalarFields().filter((f) => f.show(update) !== undefined);
  for (const h of update?.hugepageLimits ?? []) {
    const size = h.pageSize ?? '';
    fields.push({
      path: `hugepageLimits[${size}]`,
      label: `hugepage limit ${size}`,
      show: (r) => {
        const found = r?.hugepageLimits?.find((x) => x.pageSize === size);
        return found ? sizeOrUnlimited(Number(found.limit ?? 0)) : undefined;
      },
    });
  }
  for (const key of Object.keys(update?.unified ?? {}).sort()) {
    fields.push({
      path: `unified[${key}]`,
      label: `cgroup v2 ${key}`,
      show: (r) => (r?.unified && Object.hasOwn(r.unified, key) ? JSON.stringify(r.unified[key]) : undefined),
    });
  }
  return fields;
}

/** current -> new for every field the update sets. */
export function diffResources(current: Resources, update: Resources): FieldChange[] {
  return fieldsOf(update).map((f) => {
    const before = f.show(current);
    const after = f.show(update)!;
    return { path: f.path, label: f.label, before, after, unchanged: before === after };
  });
}

export interface Verification {
  /** Fields the new state shows with the requested value. */
  confirmed: FieldChange[];
  /** Fields that still show something else: `before` here is what the new state shows. */
  differing: FieldChange[];
}

/** Compares a fresh view of the container's resources with what was requested. */
export function verifyResources(requested: Resources, observed: Resources): Verification {
  const out: Verification = { confirmed: [], differing: [] };
  for (const f of fieldsOf(requested)) {
    const after = f.show(requested)!;
    const seen = f.show(observed);
    const change = { path: f.path, label: f.label, before: seen, after, unchanged: seen === after };
    (seen === after ? out.confirmed : out.differing).push(change);
  }
  return out;
}
