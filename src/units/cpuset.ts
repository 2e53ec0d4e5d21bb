// Linux cpuset lists ("0-3,8"), the format of cpuset.cpus / cpuset.mems and of
// the cpus and mems fields of NRI's LinuxCPU.

import type { ErrorKind } from '../errors/index.js';
/** Well above any kernel's NR_CPUS; it stops "0-4000000000" from allocating a huge list. */
const CPUSET_MAX = 65535;

export class CpusetError extends Error {
  readonly kind: ErrorKind = 'usage';
  readonly input: string;
  constructor(input: string, reason: string) {
    super(`invalid cpuset '${input}': ${reason}`);
    this.name = 'CpusetError';
    this.input = input;
  }
}

const NUMBER = /^\d+$/;

function cpuNumber(input: string, text: string): number {
  if (!NUMBER.test(text)) {
    const why = text.startsWith('-') ? 'negative CPU numbers do not exist' : 'expected a CPU number';
    throw new CpusetError(input, `'${text}': ${why}`);
  }
  const n = Number(text);
  if (n > CPUSET_MAX) throw new CpusetError(input, `CPU ${text} is out of range (at most ${CPUSET_MAX})`);
  return n;
}

/**
 * Parses a cpuset list into sorted, distinct numbers: "0-3,8" -> [0,1,2,3,8].
 * Overlaps and duplicates are allowed (the kernel accepts them); empty items,
 * reversed ranges, negatives and anything not a number are rejected. An empty or
 * blank string is an empty set.
 */
export function parseCpuset(input: string): number[] {
  const text = input.trim();
  if (text === '') return [];
  const cpus = new Set<number>();
  for (const raw of text.split(',')) {
    const item = raw.trim();
    if (item === '') throw new CpusetError(input, 'empty item (two commas, or a comma at an end)');
    const dash = item.indexOf('-', 1);
    if (dash === -1) {
      cpus.add(cpuNumber(input, item));
      continue;
    }
    const first = cpuNumber(input, item.slice(0, dash).trim());
    const last = cpuNumber(input, item.slice(dash + 1).trim());
    if (last < first) throw new CpusetError(input, `range '${item}' is reversed; write ${last}-${first}`);
    for (let cpu = first; cpu <= last; cpu++) cpus.add(cpu);
  }
  return [...cpus].sort((a, b) => a - b);
}

/** The canonical list for a set of CPUs: ranges for runs, ascending: [3,0,1,2,8] -> "0-3,8". */
export function formatCpuset(cpus: Iterable<number>): string {
  const sorted = [...new Set(cpus)].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length;) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j] + 1) j++;
    parts.push(j === i ? String(sorted[i]) : `${sorted[i]}-${sorted[j]}`);
    i = j + 1;
  }
  return parts.join(',');
}

/** Validates and rewrites a cpuset in canonical form: "8,0-2,3" -> "0-3,8". */
export function canonicalCpuset(input: string): string {
  return formatCpuset(parseCpuset(input));
}

const LISTED_MAX = 16;

/**
 * A cpuset in words for messages: "CPUs 0,1,2,3,8", "CPU 3", "no CPUs"; long sets
 * are summarised ("64 CPUs: 0-63"). `noun` names other things (memory nodes).
 */
export function describeCpuset(
  cpuset: string | Iterable<number>,
  noun: [singular: string, plural: string] = ['CPU', 'CPUs'],
): string {
  const cpus = typeof cpuset === 'string' ? parseCpuset(cpuset) : [...new Set(cpuset)].sort((a, b) => a - b);
  if (cpus.length === 0) return `no ${noun[1]}`;
  if (cpus.length === 1) return `${noun[0]} ${cpus[0]}`;
  if (cpus.length > LISTED_MAX) return `${cpus.length} ${noun[1]}: ${formatCpuset(cpus)}`;
  return `${noun[1]} ${cpus.join(',')}`;
}
