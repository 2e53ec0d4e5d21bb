// nrictl conformance against the simulator: how long the whole suite takes, each check,
// and where the time goes.
//
// 1. The suite in this process (runOnSimulator, preset newest) RUNS times: wall time of
//    each run, then per check the median of its duration and of its split: time in CRI
//    calls (the client's wall time per call, summed; calls in flight together count each),
//    waiting for NRI (test plugins' registration, events and canaries awaited), and
//    deliberate waits (windows watched during a hold, the settle of a call issued during a
//    hold, exit polls). What is left is the runner's own work and cleanup's calls.
// 2. The built CLI as a user runs it, whole processes: `nrictl conformance --sim` and
//    `nrictl conformance --sim --preset all` (the README's matrix, which CI's check:readme
//    re-runs).
//
// Figures, no verdicts. BENCH_RUNS (default 5).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runOnSimulator, type CheckVerdict } from '../src/conformance/index.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const repo = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(repo, 'bin', 'run.js');

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const ms = (x: number): string => `${x.toFixed(0)} ms`;
const pad = (s: string, n: number): string => s.padEnd(n);

const walls: number[] = [];
const perCheck = new Map<string, CheckVerdict[]>();
const signal = new AbortController().signal;
// One run to warm the JIT and the CRI bindings, not counted.
await runOnSimulator({ signal });
for (let i = 0; i < RUNS; i++) {
  const t = performance.now();
  const r = await runOnSimulator({ signal });
  walls.push(performance.now() - t);
  if (r.summary.passed !== r.summary.total)
    console.log(`(run ${i + 1}: ${r.summary.passed}/${r.summary.total} passed)`);
  for (const v of r.verdicts) perCheck.set(v.name, [...(perCheck.get(v.name) ?? []), v]);
}

console.log(`\nThe suite against the simulator (preset newest, in process), ${RUNS} runs after one not counted:`);
console.log(`  wall: median ${ms(median(walls))}, min ${ms(Math.min(...walls))}, max ${ms(Math.max(...walls))}`);

const rows = [...perCheck.entries()].map(([name, vs]) => {
  const total = median(vs.map((v) => v.durationMs));
  const cri = median(vs.map((v) => v.split.criMs));
  const nri = median(vs.map((v) => v.split.nriMs));
  const wait = median(vs.map((v) => v.split.waitMs));
  return { name, total, cri, nri, wait };
});
const sum = (k: 'total' | 'cri' | 'nri' | 'wait') => rows.reduce((n, r) => n + r[k], 0);
console.log(
  `\n  ${pad('CHECK (medians)', 42)} ${pad('TOTAL', 8)} ${pad('CRI', 8)} ${pad('NRI', 8)} ${pad('WAIT', 8)} REST`,
);
for (const r of rows)
  console.log(
    `  ${pad(r.name, 42)} ${pad(ms(r.total), 8)} ${pad(ms(r.cri), 8)} ${pad(ms(r.nri), 8)} ${pad(ms(r.wait), 8)} ${ms(Math.max(0, r.total - r.cri - r.nri - r.wait))}`,
  );
const total = sum('total');
const share = (x: number) => `${((100 * x) / total).toFixed(0)}%`;
console.log(
  `  ${pad('sum of the medians', 42)} ${pad(ms(total), 8)} ${pad(ms(sum('cri')), 8)} ${pad(ms(sum('nri')), 8)} ${pad(ms(sum('wait')), 8)} ${ms(total - sum('cri') - sum('nri') - sum('wait'))}`,
);
console.log(
  `  split: CRI ${share(sum('cri'))}, NRI ${share(sum('nri'))}, deliberate waits ${share(sum('wait'))}, the rest ${share(total - sum('cri') - sum('nri') - sum('wait'))}`,
);

function processWall(args: string[]): { ms: number; code: number | null } {
  const t = performance.now();
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  return { ms: performance.now() - t, code: r.status };
}
console.log('\nThe built CLI, whole processes (median of 3):');
for (const args of [
  ['conformance', '--sim'],
  ['conformance', '--sim', '--preset', 'all'],
]) {
  const runs = [0, 1, 2].map(() => processWall(args));
  console.log(`  nrictl ${args.join(' ')}: ${ms(median(runs.map((r) => r.ms)))} (exit ${runs[0].code})`);
}
