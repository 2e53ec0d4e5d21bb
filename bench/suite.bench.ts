// The test suite's own cost, as issue 37 asks for it: one `npm test` run (scripts/run-tests.mjs,
// dist/ built first when stale) with its wall clock, the machine's busy and idle core-seconds
// over the run (/proc/stat: the figure for a run's CPU on an otherwise idle machine, since
// the suite's work is spread over forks, children and grandchildren that no one process
// sees), and the slowest test files by vitest's own per-file times. A file's wall time
// stretches with whatever runs beside it; the per-file figures say where the time goes, the
// totals what a run costs. Nothing here asserts a time: `npm run bench -- suite`.
// `BENCH_SUITE_ARGS` passes arguments to vitest (a path filter, say).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const SLOWEST = 10;

interface CoreSeconds {
  busy: number;
  idle: number;
}

/** The machine's busy and idle time so far, in core-seconds (Linux), or undefined elsewhere. */
function coreSeconds(): CoreSeconds | undefined {
  if (!existsSync('/proc/stat')) return undefined;
  const ticks = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal; USER_HZ is 100 on Linux.
  const idle = ticks[3] + ticks[4];
  const all = ticks.slice(0, 8).reduce((a, b) => a + b, 0);
  return { busy: (all - idle) / 100, idle: idle / 100 };
}

interface FileResult {
  name: string;
  startTime: number;
  endTime: number;
  status: string;
}

const work = mkdtempSync(join(tmpdir(), 'nrictl-suite-bench-'));
try {
  const report = join(work, 'report.json');
  const extra = (process.env.BENCH_SUITE_ARGS ?? '').split(/\s+/).filter(Boolean);
  const before = coreSeconds();
  const started = performance.now();
  const run = spawnSync(
    process.execPath,
    [join(repo, 'scripts', 'run-tests.mjs'), '--reporter=json', `--outputFile=${report}`, ...extra],
    { cwd: repo, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const wallS = (performance.now() - started) / 1000;
  const after = coreSeconds();
  const files = existsSync(report)
    ? (JSON.parse(readFileSync(report, 'utf8')) as { testResults: FileResult[] }).testResults
    : [];
  console.log(`npm test: exit ${run.status ?? run.signal}, ${wallS.toFixed(1)} s wall, ${files.length} test files`);
  if (before && after)
    console.log(
      `machine: ${(after.busy - before.busy).toFixed(1)} busy core-seconds, ${(after.idle - before.idle).toFixed(1)} idle over the run`,
    );
  console.log(`\nslowest ${SLOWEST} files (wall s, beside whatever ran with them):`);
  const byTime = files
    .map((f) => ({ file: relative(repo, f.name), s: (f.endTime - f.startTime) / 1000, status: f.status }))
    .sort((a, b) => b.s - a.s);
  for (const f of byTime.slice(0, SLOWEST))
    console.log(`  ${f.s.toFixed(1).padStart(6)}  ${f.file}${f.status === 'passed' ? '' : ` (${f.status})`}`);
  process.exitCode = run.status === 0 ? 0 : 1;
} finally {
  rmSync(work, { recursive: true, force: true });
}
