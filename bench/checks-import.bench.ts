// What the offline checks and their commands cost to load, each module in a fresh
// process against `node -e 0`: the checks must not pay for the protobuf bindings or
// parsers they do not use. Runs the built modules (npm run bench builds);
// NRICTL_BENCH_ROOT points at another build (a checkout of an older commit) to compare.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { medianLine } from './process-time.js';

const root = process.env.NRICTL_BENCH_ROOT ?? join(dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = 9;

const modules = [
  'dist/src/api/plugin-name.js',
  'dist/src/api/index.js',
  'dist/src/checks/plugin-dir.js',
  'dist/src/checks/conf-dir.js',
  'dist/src/checks/index.js',
];
// The commands themselves are in the one bundle (dist/cli.cjs) since it is code-cached:
// bench/cold-start.bench.ts times them as whole processes.

const base = medianLine('node -e 0', ['-e', '0'], { runs: RUNS, cwd: root });
for (const m of modules) {
  const file = join(root, m);
  if (!existsSync(file)) continue;
  const t = medianLine(
    `import ${m.replace(/^dist\//, '')}`,
    ['--input-type=module', '-e', `await import(${JSON.stringify(pathToFileURL(file).href)})`],
    { runs: RUNS, cwd: root },
  );
  console.log(
    `${''.padEnd(46)} +${(t.wallMs - base.wallMs).toFixed(0)} ms wall, +${(t.cpuMs - base.cpuMs).toFixed(0)} ms cpu over node -e 0`,
  );
}
