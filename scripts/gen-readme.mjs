#!/usr/bin/env node
// Writes the generated parts of README.md, so that what the README shows is what
// nrictl prints:
//
//   <!-- tour:ID --> ... <!-- /tour:ID -->     a real run of each example in TOUR below
//   <!-- commands --> ... <!-- /commands -->   `nrictl <command> --help` for every command
//   <!-- exit-codes --> ... <!-- /exit-codes --> the table in src/cli/exit-codes.ts
//
//   node scripts/gen-readme.mjs            rewrite README.md
//   node scripts/gen-readme.mjs --check    exit 1 if README.md is stale (CI)
//
// Every command runs from the TypeScript sources (bin/dev.js), not dist/ (only a plugin
// bundle, which resolves nrictl/plugin through package.json exports, reads dist/: the
// npm scripts build first): no other process rebuilding dist/ can pull the sources from
// under us. Runs are
// deterministic: a fixed scenario (examples/demo.yaml), plugin and config directories
// made fresh in a temporary directory and named relatively, no colour, 80 columns;
// clock times and temporary paths become placeholders. The prose around the markers
// is written by hand; a command without a tour section fails the run.
import { spawn } from 'node:child_process';
import { chmodSync, copyFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const README = join(root, 'README.md');
const check = process.argv.includes('--check');
const FIXTURE = '<fixture>';

/**
 * The tour: per command, the invocations to show. `cwd: FIXTURE` runs in the
 * temporary directory made by makeFixture (plugins/, conf.d/); otherwise in the repository.
 */
const TOUR = {
  logs: [{ args: ['logs', '--sim', 'examples/demo.yaml'] }],
  'sync dump': [{ args: ['sync', 'dump', '--sim', 'examples/demo.yaml', '-o', 'wide'] }],
  validate: [{ args: ['validate', 'plugins'], cwd: FIXTURE }],
  lint: [{ args: ['lint', 'conf.d', '--plugin-path', 'plugins'], cwd: FIXTURE }],
  update: [{ args: ['update', 'shop/redis-0/redis', '--cpus', '0-1', '--memory', '2Gi', '--sim', 'examples/demo.yaml', '--yes'] }],
  evict: [{ args: ['evict', 'shop/redis-0/redis-exporter', '--reason', 'leaking memory', '--sim', 'examples/demo.yaml', '--yes'] }],
  sim: [{ args: ['sim', '--scenario', 'examples/demo.yaml', '--no-interactive'] }],
  doctor: [{ args: ['doctor', '--root', 'node', '--sim', 'examples/demo.yaml'], cwd: FIXTURE }],
  // Timings vary from run to run: `timings` masks them (see maskTimings), the rest is as printed.
  trace: [{ args: ['trace', '--sim', 'examples/demo.yaml', '--plugin-dir', 'examples/trace-plugins'], timings: true }],
  'plugin new': [{ args: ['plugin', 'new', 'demo'], cwd: FIXTURE }],
  // Bundles resolve nrictl/plugin through the package's exports, i.e. the built dist/.
  'plugin bundle': [{ args: ['plugin', 'bundle', 'examples/plugins-ts/cpu-pinner/index.ts', '-o', 'build/10-cpu-pinner'], cwd: FIXTURE }],
};

/**
 * A node's NRI directories in miniature: two good plugins, a misnamed one, configs
 * good, broken and orphaned; and under node/ a root with containerd's config for doctor.
 */
function makeFixture() {
  const dir = mkdtempSync(join(tmpdir(), 'nrictl-readme-'));
  mkdirSync(join(dir, 'plugins'));
  mkdirSync(join(dir, 'conf.d'));
  for (const name of ['10-logger', '20-resources', 'topology']) {
    writeFileSync(join(dir, 'plugins', name), '#!/bin/sh\nexit 0\n');
    chmodSync(join(dir, 'plugins', name), 0o755);
  }
  writeFileSync(join(dir, 'conf.d', '10-logger.conf'), 'logLevel: info\n');
  writeFileSync(join(dir, 'conf.d', '20-resources.conf'), 'reservedCpus: [0-1\n');
  writeFileSync(join(dir, 'conf.d', '30-balloons.conf'), 'balloonTypes: []\n');
  mkdirSync(join(dir, 'node/etc/containerd'), { recursive: true });
  mkdirSync(join(dir, 'node/opt/nri/plugins'), { recursive: true });
  mkdirSync(join(dir, 'node/etc/nri/conf.d'), { recursive: true });
  writeFileSync(
    join(dir, 'node/etc/containerd/config.toml'),
    'version = 2\n\n[plugins."io.containerd.nri.v1.nri"]\n  disable = false\n  plugin_path = "/opt/nri/plugins"\n  plugin_config_path = "/etc/nri/conf.d"\n  socket_path = "/var/run/nri/nri.sock"\n',
  );
  writeFileSync(join(dir, 'node/opt/nri/plugins/10-logger'), '#!/bin/sh\nexit 0\n');
  chmodSync(join(dir, 'node/opt/nri/plugins/10-logger'), 0o755);
  writeFileSync(join(dir, 'node/etc/nri/conf.d/10-logger.conf'), 'logLevel: info\n');
  mkdirSync(join(dir, 'examples'));
  copyFileSync(join(root, 'examples/demo.yaml'), join(dir, 'examples/demo.yaml'));
  // A plugin project's view: the example plugin, and nrictl installed beside it.
  cpSync(join(root, 'examples/plugins-ts'), join(dir, 'examples/plugins-ts'), { recursive: true });
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(root, join(dir, 'node_modules', 'nrictl'));
  return dir;
}

const tsx = import.meta.resolve('tsx');
const ENV = (() => {
  const env = { ...process.env, NO_COLOR: '1', OCLIF_COLUMNS: '80', CI: 'true', TZ: 'UTC' };
  // COLUMNS too: the runs are piped, and the README must not depend on the shell that made it.
  for (const k of Object.keys(env)) if (k.startsWith('NRICTL_') || k.startsWith('NRI_') || k === 'FORCE_COLOR' || k === 'NODE_ENV' || k === 'COLUMNS') delete env[k];
  return env;
})();

/** Runs nrictl from the sources; resolves { stdout, stderr, code }. */
function nrictl(args, cwd) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', tsx, '--no-warnings', join(root, 'bin', 'dev.js'), ...args], { cwd, env: ENV, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (signal) reject(new Error(`nrictl ${args.join(' ')}: killed by ${signal}`));
      else resolve({ stdout, stderr, code });
    });
  });
}

/** Runs the jobs, a few at a time (each is a whole Node process with tsx). */
async function pool(jobs, width = 4) {
  const results = new Array(jobs.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, jobs.length) }, async () => {
      while (next < jobs.length) {
        const i = next++;
        results[i] = await jobs[i]();
      }
    }),
  );
  return results;
}

function escapeRegExp(s) {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Clock times and temporary paths vary from run to run; everything else must not. */
function normalise(text, fixture) {
  let out = text.replace(/\r/g, '');
  for (const dir of new Set([fixture, realpathSync(fixture)])) out = out.replaceAll(dir, '.');
  for (const t of new Set([tmpdir(), realpathSync(tmpdir())])) {
    out = out.replace(new RegExp(`${escapeRegExp(t)}/([A-Za-z][A-Za-z-]*?)[A-Za-z0-9]{6}\\b`, 'g'), '/tmp/$1XXXXXX');
  }
  out = out.replace(/\b\d\d:\d\d:\d\d\.\d{3}\b/g, 'hh:mm:ss.mmm');
  out = out.replace(/\b\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z\b/g, 'YYYY-MM-DDThh:mm:ssZ');
  return out.replace(/[ \t]+$/gm, '').replace(/\n+$/, '');
}

/** Decimal milliseconds and percentages become placeholders of the same width, so columns stay aligned. */
function maskTimings(text) {
  return text.replace(/( +)(\d+\.\d+)( ms|%)/g, (m, sp, _n, unit) => {
    const placeholder = unit === '%' ? 'n.n%' : 'n.nn ms';
    return sp.length > 1 ? placeholder.padStart(m.length) : ` ${placeholder}`;
  });
}

function shellWord(w) {
  return /^[A-Za-z0-9_./:=,@%+-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`;
}

function commandIds() {
  const ids = [];
  const walk = (dir, prefix) => {
    for (const f of readdirSync(dir).sort()) {
      const p = join(dir, f);
      if (statSync(p).isDirectory()) walk(p, [...prefix, f]);
      else if (f.endsWith('.ts') && !f.endsWith('.d.ts') && f !== 'index.ts') ids.push([...prefix, f.slice(0, -3)].join(' '));
    }
  };
  walk(join(root, 'commands'), []);
  return ids.sort();
}

function exitCodeTable() {
  const src = readFileSync(join(root, 'src/cli/exit-codes.ts'), 'utf8');
  const rows = [...src.matchAll(/\/\*\*((?:(?!\*\/)[\s\S])*)\*\/\s*\n\s*([A-Z_]+):\s*(\d+),/g)].map(([, doc, name, code]) => {
    const text = doc.split('\n').map((l) => l.replace(/^\s*\*\s?/, '').trim()).join(' ').trim();
    return `| ${code} | \`${name}\` | ${text.replace(/\|/g, '\\|')} |`;
  });
  if (rows.length === 0) throw new Error('src/cli/exit-codes.ts: no exit codes found');
  return ['| Code | Name | Meaning |', '|---:|---|---|', ...rows].join('\n');
}

const slug = (id) => id.replace(/ /g, '-');

function replaceBlock(text, name, body, problems) {
  const open = `<!-- ${name} -->`;
  const close = `<!-- /${name} -->`;
  const a = text.indexOf(open);
  const b = text.indexOf(close);
  if (a < 0 || b < a) {
    problems.push(`README.md has no ${open} ... ${close} block`);
    return text;
  }
  return `${text.slice(0, a + open.length)}\n${body}\n${text.slice(b)}`;
}

async function main() {
  const ids = commandIds();
  const problems = [];
  for (const id of ids) if (!TOUR[id]) problems.push(`command "${id}" has no tour entry in scripts/gen-readme.mjs`);
  const fixture = makeFixture();
  try {
    const toured = ids.filter((id) => TOUR[id]);
    const tourJobs = toured.flatMap((id) => TOUR[id].map((ex) => async () => ({ id, ex, r: await nrictl(ex.args, ex.cwd === FIXTURE ? fixture : root) })));
    const helpJobs = [...ids, 'autocomplete'].map((id) => async () => ({ id, r: await nrictl([...id.split(' '), '--help'], root) }));
    const results = await pool([...tourJobs, ...helpJobs]);
    const tours = results.slice(0, tourJobs.length);
    const helps = results.slice(tourJobs.length);

    let text = readFileSync(README, 'utf8');
    const original = text;
    for (const id of toured) {
      const blocks = tours.filter((t) => t.id === id).map(({ ex, r }) => {
        const mask = ex.timings ? maskTimings : (t) => t;
        const out = [mask(normalise(r.stdout, fixture)), mask(normalise(r.stderr, fixture))].filter((s) => s !== '').join('\n');
        const status = r.code === 0 ? '' : `\n[exit status ${r.code}]`;
        return ['```console', `$ nrictl ${ex.args.map(shellWord).join(' ')}`, out + status, '```'].join('\n');
      });
      text = replaceBlock(text, `tour:${slug(id)}`, blocks.join('\n\n'), problems);
    }
    const reference = helps.map(({ id, r }) => {
      if (r.code !== 0) problems.push(`nrictl ${id} --help exited ${r.code}: ${r.stderr.trim()}`);
      return [`### nrictl ${id}`, '', '```text', normalise(r.stdout, fixture), '```'].join('\n');
    });
    text = replaceBlock(text, 'commands', reference.join('\n\n'), problems);
    text = replaceBlock(text, 'exit-codes', exitCodeTable(), problems);

    if (problems.length > 0) {
      process.stderr.write(`gen-readme:\n${problems.map((p) => `  ${p}\n`).join('')}`);
      process.exit(1);
    }
    if (check) {
      if (text !== original) {
        const a = original.split('\n');
        const b = text.split('\n');
        let i = 0;
        while (i < a.length && a[i] === b[i]) i++;
        process.stderr.write(`README.md is stale (first difference at line ${i + 1}); run \`node scripts/gen-readme.mjs\`\n  has:   ${a[i] ?? '(end)'}\n  wants: ${b[i] ?? '(end)'}\n`);
        process.exit(1);
      }
      return;
    }
    if (text !== original) writeFileSync(README, text);
    process.stderr.write(`README.md: ${toured.length} tour sections, ${ids.length} commands in the reference${text === original ? ' (unchanged)' : ''}\n`);
  } finally {
    rmSync(fixture, { recursive: true, force: true });
  }
}

await main();
