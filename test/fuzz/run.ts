// `npm run fuzz`: the properties of targets.ts, run long. Prints executions and crashes
// per target and in total, and exits 1 on any crash, printing what fast-check needs to
// replay it.
//
//   npm run fuzz                                   1,000,000 executions over all targets
//   npm run fuzz -- --runs 5000000                 more
//   npm run fuzz -- --target scenario --runs 200000
//   npm run fuzz -- --target "scenario parser (YAML and JSON)" --seed 42 --path "3:1:0"   replays one crash
//
// Each target runs in batches of --batch executions (default 10,000), batch k with seed
// base + k: a crash ends its batch, is counted, shrunk and printed, and the next batch
// goes on, so one long run finds more than its first crash. The base seed is random
// unless --seed is given.
import fc from 'fast-check';
import { parseArgs } from 'node:util';
import { TARGETS, type FuzzTarget } from './targets.js';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '1000000' },
    batch: { type: 'string', default: '10000' },
    target: { type: 'string' },
    seed: { type: 'string' },
    path: { type: 'string' },
  },
});

const totalRuns = Number(values.runs);
const batch = Number(values.batch);
if (!Number.isInteger(totalRuns) || totalRuns < 1 || !Number.isInteger(batch) || batch < 1) {
  console.error('--runs and --batch take a whole number of executions, such as --runs 1000000');
  process.exit(2);
}
const targets = TARGETS.filter((t) => values.target === undefined || t.name.includes(values.target));
if (targets.length === 0) {
  console.error(
    `no target matches ${JSON.stringify(values.target)}; targets:\n${TARGETS.map((t) => `  ${t.name}`).join('\n')}`,
  );
  process.exit(2);
}

interface Crash {
  target: string;
  seed: number;
  path: string | undefined;
  error: string;
  counterexample: string;
}

const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

// A replay: the one counterexample, at the seed and path fast-check reported.
if (values.path !== undefined) {
  if (values.seed === undefined || targets.length !== 1) {
    console.error('a replay takes --seed, --path and a --target that names one target');
    process.exit(2);
  }
  const d = fc.check(targets[0].property(), { seed: Number(values.seed), path: values.path, numRuns: 1 });
  console.log(
    d.failed ? `crash reproduced: ${String(d.errorInstance)}\n${fc.stringify(d.counterexample)}` : 'no crash',
  );
  process.exit(d.failed ? 1 : 0);
}

const baseSeed = values.seed !== undefined ? Number(values.seed) : Math.floor(Math.random() * 0x7fffffff);
const perTarget = Math.ceil(totalRuns / targets.length);
const crashes: Crash[] = [];
let executions = 0;
const started = performance.now();
console.log(
  `fuzz: ${targets.length} targets, ${perTarget} executions each in batches of ${batch}, base seed ${baseSeed}`,
);

function runTarget(t: FuzzTarget): { executions: number; crashes: number; ms: number } {
  const t0 = performance.now();
  let done = 0;
  let found = 0;
  for (let k = 0; done < perTarget; k++) {
    const seed = (baseSeed + k) | 0;
    const numRuns = Math.min(batch, perTarget - done);
    const d = fc.check(t.property(), { seed, numRuns });
    done += d.numRuns;
    if (d.failed) {
      found++;
      const error =
        d.errorInstance instanceof Error
          ? `${d.errorInstance.name}: ${d.errorInstance.message}`
          : String(d.errorInstance);
      crashes.push({
        target: t.name,
        seed: d.seed,
        path: d.counterexamplePath ?? undefined,
        error: error.split('\n')[0].slice(0, 300),
        counterexample: fc.stringify(d.counterexample).slice(0, 500),
      });
      if (d.numRuns === 0) break; // fails on nothing: it would fail every batch
    }
  }
  return { executions: done, crashes: found, ms: performance.now() - t0 };
}

const rows: Array<[string, number, number, number]> = [];
for (const t of targets) {
  const r = runTarget(t);
  executions += r.executions;
  rows.push([t.name, r.executions, r.crashes, r.ms]);
  console.log(
    `  ${t.name.padEnd(90)} ${String(r.executions).padStart(9)} executions ${String(r.crashes).padStart(3)} crashes ${(r.ms / 1000).toFixed(1).padStart(7)} s`,
  );
}
const seconds = (performance.now() - started) / 1000;
console.log(
  `fuzz: ${executions} executions, ${crashes.length} crashes in ${seconds.toFixed(1)} s (${Math.round(executions / seconds)} per second), base seed ${baseSeed}`,
);
for (const c of crashes) {
  console.log(`\ncrash in ${c.target}: ${c.error}`);
  console.log(`  counterexample: ${c.counterexample}`);
  console.log(`  replay: npm run fuzz -- --target ${quote(c.target)} --seed ${c.seed} --path ${quote(c.path ?? '')}`);
}
process.exitCode = crashes.length > 0 ? 1 : 0;
