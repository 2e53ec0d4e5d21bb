// Times whole processes from outside, start to exit, in alternating rounds: wall clock,
// and, where GNU time is installed (/usr/bin/time), user + system CPU of the process and
// the children it waited for, and its peak RSS. Output goes to /dev/null.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const GNU_TIME = '/usr/bin/time';
const hasGnuTime = existsSync(GNU_TIME);

export interface Command {
  label: string;
  command: string;
  args: string[];
}

export interface Timing {
  wallMs: number;
  cpuMs?: number;
  peakMb?: number;
}

function timeOnce(c: Command, scratch: string): Timing {
  const out = path.join(scratch, 'time.txt');
  const [cmd, args] = hasGnuTime
    ? [GNU_TIME, ['-o', out, '-f', '%U %S %M', c.command, ...c.args]]
    : [c.command, c.args];
  const t0 = performance.now();
  const r = spawnSync(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  const wallMs = performance.now() - t0;
  if (r.status !== 0)
    throw new Error(`${c.label}: exited ${r.status ?? r.signal}: ${r.stderr.trim().split('\n').slice(-3).join(' | ')}`);
  if (!hasGnuTime) return { wallMs };
  const [user, sys, kb] = readFileSync(out, 'utf8').trim().split('\n').pop()!.split(' ').map(Number);
  return { wallMs, cpuMs: (user + sys) * 1000, peakMb: kb / 1024 };
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export interface Summary {
  label: string;
  wallMs: number;
  minWallMs: number;
  maxWallMs: number;
  cpuMs?: number;
  peakMb?: number;
}

/** Each command once per round, `rounds` rounds after one unmeasured warm-up round; medians. */
export function timeInTurns(commands: Command[], rounds: number): Summary[] {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'vs-go-time-'));
  try {
    for (const c of commands) timeOnce(c, scratch);
    const samples = commands.map(() => [] as Timing[]);
    for (let r = 0; r < rounds; r++) commands.forEach((c, i) => samples[i].push(timeOnce(c, scratch)));
    return commands.map((c, i) => {
      const s = samples[i];
      const wall = s.map((x) => x.wallMs);
      const summary: Summary = {
        label: c.label,
        wallMs: median(wall),
        minWallMs: Math.min(...wall),
        maxWallMs: Math.max(...wall),
      };
      if (hasGnuTime) {
        summary.cpuMs = median(s.map((x) => x.cpuMs!));
        summary.peakMb = median(s.map((x) => x.peakMb!));
      }
      return summary;
    });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

export function formatSummary(s: Summary, base?: Summary): string {
  let line = `  ${s.label.padEnd(58)} wall ${s.wallMs.toFixed(0).padStart(5)} ms (${s.minWallMs.toFixed(0)}-${s.maxWallMs.toFixed(0)})`;
  if (s.cpuMs !== undefined)
    line += `  cpu ${s.cpuMs.toFixed(0).padStart(5)} ms  peak ${s.peakMb!.toFixed(0).padStart(4)} MB`;
  if (base) line += `  ${(s.wallMs / base.wallMs).toFixed(2)}x wall of ${base.label}`;
  return line;
}
