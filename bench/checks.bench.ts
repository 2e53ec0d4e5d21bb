// Whole-process cost of `nrictl validate` on 200 plugin entries and `nrictl lint` on 200
// configuration files, against `node -e 0`: wall clock and CPU time. Runs the built CLI
// (npm run bench builds). The working tree has no oclif manifest (it is written at pack
// time), so oclif imports every command file here; a packed nrictl loads only the one
// it runs. To see both, point NRICTL_BENCH_ROOT at a copy with `oclif manifest` run in it.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { medianLine } from './process-time.js';

// NRICTL_BENCH_ROOT points at another build (a checkout of an older commit) to compare.
const root = process.env.NRICTL_BENCH_ROOT ?? join(dirname(fileURLToPath(import.meta.url)), '..');
const runJs = join(root, 'bin', 'run.js');
const RUNS = 7;
const ENTRIES = 200;

if (!existsSync(join(root, 'dist', 'commands', 'validate.js'))) {
  console.log('dist/ has no validate command: run `npm run build` first (npm run bench does).');
  process.exit(0);
}

const work = mkdtempSync(join(tmpdir(), 'nribench-'));
const plugins = join(work, 'plugins');
const conf = join(work, 'conf.d');
mkdirSync(plugins);
mkdirSync(conf);
const elf = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(56)]);
for (let i = 0; i < ENTRIES; i++) {
  const name = `${String(i % 100).padStart(2, '0')}-plugin${i}`;
  writeFileSync(join(plugins, name), elf);
  chmodSync(join(plugins, name), 0o755);
  writeFileSync(join(conf, `${name}.conf`), `plugin: ${i}\nlevels: [1, 2, 3]\nnested:\n  key: value\n`);
}

const okStatus = [0, 1, 3];
const median = (cmd: string[], label: string) =>
  medianLine(label, cmd, { runs: RUNS, env: { ...process.env, NO_COLOR: '1' }, okStatus, cwd: root });

try {
  median(['-e', '0'], 'node -e 0');
  median(
    [runJs, 'validate', plugins, '--plugin-config-path', conf, '-o', 'json'],
    `nrictl validate (${ENTRIES} entries, json)`,
  );
  median([runJs, 'validate', plugins, '--plugin-config-path', conf], `nrictl validate (${ENTRIES} entries, table)`);
  median([runJs, 'lint', conf, '--plugin-path', plugins, '-o', 'json'], `nrictl lint (${ENTRIES} files, json)`);
  median([runJs, 'lint', conf, '--plugin-path', plugins], `nrictl lint (${ENTRIES} files, table)`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
