// CPU time of a running process, all its threads, in nanoseconds: the first field of
// /proc/PID/task/TID/schedstat (time on CPU). /proc/PID/stat counts in clock ticks
// (10 ms), too coarse for a run of 300 cycles; schedstat is exact but forgets threads
// that exited, which neither node's nor Go's runtime does while it works.
import { readdirSync, readFileSync } from 'node:fs';

export function processCpuNs(pid: number): number {
  let ns = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return ns;
}

/** The same for every direct child of `pid` (the runtime's plugins), summed. */
export function childrenCpuNs(pid: number): number {
  let ns = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    let children: string[];
    try {
      children = readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').split(' ').filter(Boolean);
    } catch {
      continue; // the thread ended
    }
    for (const child of children) {
      try {
        ns += processCpuNs(Number(child));
      } catch {
        // The child exited.
      }
    }
  }
  return ns;
}
