// Runs every bench/*.bench.ts in its own process, one after the other, so that one
// benchmark's garbage and warm JIT do not colour the next. Benchmarks print figures;
// they assert nothing about time. `npm run bench -- ttrpc` runs only matching files.
import { readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const here = dirname(fileURLToPath(import.meta.url));
const filter = process.argv.slice(2);
const files = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => filter.length === 0 || filter.some((w) => f.includes(w)))
  .sort();
let failed = 0;
for (const f of files) {
  console.log(`\n## ${f.replace('.bench.ts', '')}`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--expose-gc', join(here, f)], { stdio: 'inherit' });
  if (r.status !== 0) {
    failed++;
    console.log(`(benchmark ${f} exited with ${r.status ?? r.signal})`);
  }
}
process.exitCode = failed ? 1 : 0;
