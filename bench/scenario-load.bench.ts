// What loading a large scenario costs the whole `nrictl sim` process: a valid 25 MB
// scenario (about 25,000 pods and as many containers) written as YAML and as JSON, and
// one over the 64 MiB limit, which must be refused before it is read. Wall clock, CPU
// time and peak RSS of the built CLI (npm run bench builds). Prints; asserts nothing.
// NRICTL_BENCH_ROOT points at another build (a checkout of an older commit) to compare.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeBigScenario } from './big-scenario.js';

const root = process.env.NRICTL_BENCH_ROOT ?? join(dirname(fileURLToPath(import.meta.url)), '..');
const runJs = join(root, 'bin', 'run.js');
const RUNS = Number(process.env.NRICTL_BENCH_RUNS ?? 3);
const MB = 1e6;

if (!existsSync(join(root, 'dist', 'commands', 'sim.js'))) {
  console.log('dist/ has no sim command: run `npm run build` first (npm run bench does).');
  process.exit(0);
}

// The child reports its own CPU time and peak RSS as it exits.
const REPORT =
  'data:text/javascript,' +
  encodeURIComponent(
    'import { writeSync } from "node:fs";' +
      'process.on("exit", () => { const u = process.resourceUsage(); writeSync(2, `\\n@usage ${(u.userCPUTime + u.systemCPUTime) / 1000} ${u.maxRSS}\\n`); });',
  );

interface Sample {
  wallMs: number;
  cpuMs: number;
  rssMiB: number;
  status: number | null;
  firstLine: string;
}

function runOnce(scenario: string): Sample {
  const start = process.hrtime.bigint();
  const r = spawnSync(process.execPath, ['--import', REPORT, runJs, 'sim', scenario, '--no-interactive'], {
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
    maxBuffer: 64 * MB,
  });
  const wallMs = Number(process.hrtime.bigint() - start) / 1e6;
  const m = /@usage ([\d.]+) (\d+)/.exec(r.stderr);
  return {
    wallMs,
    cpuMs: m ? Number(m[1]) : NaN,
    rssMiB: m ? Number(m[2]) / 1024 : NaN,
    status: r.status,
    firstLine:
      r.stderr
        .replace(/\n@usage .*\n/, '')
        .trim()
        .split('\n')[0] ?? '',
  };
}

function report(label: string, scenario: string): void {
  const samples = Array.from({ length: RUNS }, () => runOnce(scenario));
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const s = samples[samples.length - 1];
  console.log(
    `${label.padEnd(44)} exit ${String(s.status).padStart(3)}  wall median ${med(samples.map((x) => x.wallMs))
      .toFixed(0)
      .padStart(6)} ms` +
      `  cpu median ${med(samples.map((x) => x.cpuMs))
        .toFixed(0)
        .padStart(6)} ms  peak RSS median ${med(samples.map((x) => x.rssMiB))
        .toFixed(0)
        .padStart(5)} MiB`,
  );
  if (s.status !== 0 && s.firstLine) console.log(`  ${s.firstLine.slice(0, 160)}`);
}

const work = mkdtempSync(join(tmpdir(), 'nribench-scenario-'));
try {
  const yaml = writeBigScenario(join(work, 'big.yaml'), 25 * MB, 'yaml');
  const json = writeBigScenario(join(work, 'big.json'), 25 * MB, 'json');
  const small = join(work, 'small.yaml');
  writeFileSync(small, 'pods: [{id: p0}]\n');
  // Over the limit without writing 100 MB: a sparse file has the size and no data.
  const over = join(work, 'over.yaml');
  writeFileSync(over, '');
  truncateSync(over, 100 * 1024 * 1024);
  console.log(`runs: ${RUNS} each; scenarios in ${work}`);
  report('1 pod (start-up and the simulator alone)', small);
  report(`${(yaml.bytes / MB).toFixed(1)} MB YAML, ${yaml.pods} pods`, yaml.path);
  report(`${(json.bytes / MB).toFixed(1)} MB JSON, ${json.pods} pods`, json.path);
  report('100 MiB file, over the 64 MiB limit', over);
} finally {
  rmSync(work, { recursive: true, force: true });
}
