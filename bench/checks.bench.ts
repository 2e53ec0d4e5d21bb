// Whole-process cost of `nrictl validate` on 200 plugin entries and `nrictl lint` on 200
// configuration files, against `node -e 0`. Runs the built CLI (npm run bench builds).
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
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

function median(cmd: string[], label: string): number {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = process.hrtime.bigint();
    const r = spawnSync(process.execPath, cmd, { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
    if (r.status !== 0 && r.status !== 1 && r.status !== 3) {
      console.log(`${label}: exited ${r.status}: ${r.stderr.split('\n')[0]}`);
      break;
    }
  }
  times.sort((a, b) => a - b);
  const m = times[Math.floor(times.length / 2)]!;
  console.log(`${label.padEnd(44)} median ${m.toFixed(0).padStart(5)} ms  (min ${times[0]!.toFixed(0)}, max ${times.at(-1)!.toFixed(0)}, ${times.length} runs)`);
  return m;
}

try {
  median(['-e', '0'], 'node -e 0');
  median([runJs, 'validate', plugins, '--plugin-config-path', conf, '-o', 'json'], `nrictl validate (${ENTRIES} entries, json)`);
  median([runJs, 'validate', plugins, '--plugin-config-path', conf], `nrictl validate (${ENTRIES} entries, table)`);
  median([runJs, 'lint', conf, '--plugin-path', plugins, '-o', 'json'], `nrictl lint (${ENTRIES} files, json)`);
  median([runJs, 'lint', conf, '--plugin-path', plugins], `nrictl lint (${ENTRIES} files, table)`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
