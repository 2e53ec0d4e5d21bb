// Times a whole node process: wall clock and the CPU time the process itself used.
// On a loaded machine the wall clock mostly measures the scheduler; CPU time (user +
// system, reported by the child at exit) tracks what our code costs.
//
// The child reports through a CommonJS preload (--require), not an ES module one
// (--import): an --import makes Node start its ES module loader and run even a CommonJS
// entry point through it, ~8 ms that `node -e 0` and bin/run.js do not otherwise pay,
// which inflated the baseline and flattened every ratio to it.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const preloadDir = mkdtempSync(path.join(os.tmpdir(), 'process-time-'));
process.once('exit', () => rmSync(preloadDir, { recursive: true, force: true }));
const REPORT_CPU = path.join(preloadDir, 'report-cpu.cjs');
writeFileSync(
  REPORT_CPU,
  'const { writeSync } = require("node:fs");' +
    'process.on("exit", () => { const u = process.cpuUsage(); writeSync(2, `\\n@cpu ${(u.user + u.system) / 1000}\\n`); });',
);

export interface ProcessTime {
  wallMs: number;
  cpuMs: number;
  status: number | null;
  stderr: string;
}

export function runTimed(args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): ProcessTime {
  const start = process.hrtime.bigint();
  const r = spawnSync(process.execPath, ['--require', REPORT_CPU, ...args], {
    encoding: 'utf8',
    cwd: opts.cwd,
    env: opts.env ?? process.env,
  });
  const wallMs = Number(process.hrtime.bigint() - start) / 1e6;
  const m = /@cpu ([\d.]+)/.exec(r.stderr);
  return { wallMs, cpuMs: m ? Number(m[1]) : NaN, status: r.status, stderr: r.stderr.replace(/\n@cpu [\d.]+\n/, '') };
}

/** Median wall and CPU time over `runs` runs; one line of figures. Stops at an unexpected exit status. */
export function medianLine(
  label: string,
  args: string[],
  opts: { runs: number; cwd?: string; env?: NodeJS.ProcessEnv; okStatus?: number[] },
): { wallMs: number; cpuMs: number } {
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < opts.runs; i++) {
    const r = runTimed(args, opts);
    if (!(opts.okStatus ?? [0]).includes(r.status ?? -1)) {
      console.log(`${label}: exited ${r.status}: ${r.stderr.trim().split('\n')[0]}`);
      return { wallMs: NaN, cpuMs: NaN };
    }
    wall.push(r.wallMs);
    cpu.push(r.cpuMs);
  }
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const w = med(wall);
  const c = med(cpu);
  console.log(
    `${label.padEnd(46)} wall median ${w.toFixed(0).padStart(5)} ms (min ${Math.min(...wall).toFixed(0)})   cpu median ${c.toFixed(0).padStart(5)} ms (min ${Math.min(...cpu).toFixed(0)})`,
  );
  return { wallMs: w, cpuMs: c };
}

/**
 * Median wall and CPU time of several commands run in turns (one run of each per round,
 * `runs` rounds), so that a change in the machine's load during the measurement falls on
 * all of them alike instead of on whichever ran last. Stops at an unexpected exit status.
 */
export function interleavedMedians(
  commands: Array<{ label: string; args: string[] }>,
  opts: { runs: number; cwd?: string; env?: NodeJS.ProcessEnv },
): Array<{ label: string; wallMs: number; cpuMs: number; minWallMs: number }> {
  const samples = commands.map(() => ({ wall: [] as number[], cpu: [] as number[] }));
  for (let round = 0; round < opts.runs; round++) {
    commands.forEach((c, i) => {
      const r = runTimed(c.args, opts);
      if (r.status !== 0) throw new Error(`${c.label}: exited ${r.status}: ${r.stderr.trim().split('\n')[0]}`);
      samples[i].wall.push(r.wallMs);
      samples[i].cpu.push(r.cpuMs);
    });
  }
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  return commands.map((c, i) => ({
    label: c.label,
    wallMs: med(samples[i].wall),
    cpuMs: med(samples[i].cpu),
    minWallMs: Math.min(...samples[i].wall),
  }));
}
