#!/usr/bin/env node
// Writes the generated parts of README.md, so that what the README shows is what
// nrictl prints:
//
//   <!-- tour:ID --> ... <!-- /tour:ID -->     a real run of each example in TOUR below
//   <!-- file:PATH --> ... <!-- /file:PATH --> the file PATH of the repository, as it is
//   <!-- commands --> ... <!-- /commands -->   one line per command: its summary (the manifest), -o, man page
//   <!-- exit-codes --> ... <!-- /exit-codes --> the table in src/cli/exit-codes.ts
//
//   node scripts/gen-readme.mjs            rewrite README.md
//   node scripts/gen-readme.mjs --check    exit 1 if README.md is stale (CI)
//   ... --from-sources                      run the tour from the checkout's sources (see below)
//
// Every command runs from nrictl as a user gets it: the checkout is packed (`npm pack`,
// as built: the npm scripts build first) and the tarball installed with `npm install -g`
// into a temporary prefix; each tour command runs exactly as printed from the installed
// package's directory, where the README tells a reader to run the tour after
// `npm install -g` (the plugin commands too: they write demo/ and build/ there, one after
// another in the order of TOUR). So what the package ships is what the tour uses, and no
// other process rebuilding the checkout's dist/ can pull it from under us. The install
// takes its dependencies from the npm cache (warm after `npm ci`). `--from-sources`
// runs the commands from the TypeScript sources of the checkout instead (bin/dev.mjs;
// the plugin commands in a scratch directory shaped as a plugin project, see SCRATCH):
// quicker, for trying a change, not for what the README says. Either way against what
// the repository ships
// (the built-in scenario `demo`, examples/plugins, examples/conf.d, examples/node), so
// a reader can run it too. A run whose exit status is not the one TOUR expects fails the
// generator, as does a command without a tour section. Runs are deterministic: no
// colour, 80 columns; clock times, process ids and temporary paths become placeholders.
// The prose around the markers is written by hand, and so is the plugin of "Write a
// plugin" (<!-- plugin:example -->): test/pack/plugin-author.test.ts takes it from the
// README, type-checks it against the packed package's declarations and runs it under
// the installed simulator.
import { spawn, spawnSync } from 'node:child_process';
import {
  cpSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  rmdirSync,
  symlinkSync,
  readdirSync,
  realpathSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { OCLIF_OWN_COMMANDS } from './oclif-own-commands.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const README = join(root, 'README.md');
const check = process.argv.includes('--check');
const fromSources = process.argv.includes('--from-sources');

/**
 * The tour: per command, the invocations to show, run in the repository, and the exit
 * status each must have (validate finds the misnamed plugin on purpose: 1).
 */
/**
 * `cwd: SCRATCH`: commands that create files. From the installed package they run in its
 * directory like the others; with --from-sources, in a fresh directory shaped as a plugin
 * author's project (the example plugins, nrictl installed beside them), not in the checkout.
 * They run one after another in the order of TOUR, as a reader would type them: the
 * `sim --expect` runs test the bundle that `plugin bundle` wrote.
 *
 * `section`: the README block, when it is not the command's own (tour:sim-expect).
 * `from`: the README shows the output from the first line matching `from` on, and says
 * how many lines it left out before it (the events of a run like the one shown above it).
 */
export const SCRATCH = '<scratch>';

/**
 * `background`: a command started before the entry's own, as a reader would with `&`
 * (its output to /dev/null), until every socket it names (after --socket, --cri-socket)
 * is there; stopped with SIGTERM once the entry ran, which it must survive with status
 * 0. It runs in the same directory; the directories it made for its sockets, empty once
 * it removed them, go too. The README shows it above the entry, and `kill %1` below.
 */
export const BACKGROUND_SUFFIX = ' > /dev/null &';

/** The sockets a background command serves: what the entry waits for. */
export function backgroundSockets(args) {
  return args.flatMap((a, i) => (a === '--socket' || a === '--cri-socket' ? [args[i + 1]] : []));
}

/**
 * Runs `job` with the entry's background command started and ready; resolves with the
 * job's result, and a problem when the background command failed to start or to stop.
 */
export async function withBackground(args, { cwd, env, argv, problems }, job) {
  const child = spawn(process.execPath, [...argv, ...args], { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
  const exited = new Promise((resolve) => child.once('close', (code, signal) => resolve({ code, signal })));
  const sockets = backgroundSockets(args).map((p) => join(cwd, p));
  const printed = `nrictl ${args.map(shellWord).join(' ')}`;
  try {
    for (let waited = 0; !sockets.every((p) => statSafe(p)?.isSocket()); waited += 20) {
      if (waited > 30_000 || child.exitCode !== null) {
        problems.push(`${printed}: not ready (its sockets ${sockets.join(', ')}): ${stderr.trim()}`);
        return undefined;
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    return await job();
  } finally {
    child.kill('SIGTERM');
    const end = await exited;
    if (end.code !== 0 && !problems.some((p) => p.startsWith(printed)))
      problems.push(`${printed}: ended with ${end.code ?? end.signal} on SIGTERM: ${stderr.trim()}`);
    for (const dir of new Set(sockets.map((p) => dirname(p)))) {
      try {
        if (dir !== cwd) rmdirSync(dir); // only when empty: the command removed its sockets
      } catch {
        problems.push(`${printed}: left ${dir} behind, not empty`);
      }
    }
  }
}

export const TOUR = {
  logs: [{ args: ['logs', '--sim', 'demo'], exit: 0 }],
  exporter: [{ args: ['exporter', '--sim', 'demo', '--metrics-addr', '127.0.0.1:0', '--duration', '2s'], exit: 0 }],
  // fleet reads a Prometheus, which the offline tour has none of: what a wrong URL gets.
  fleet: [{ args: ['fleet', '--prometheus', 'http://127.0.0.1:1/'], exit: 2 }],
  'sync dump': [{ args: ['sync', 'dump', '--sim', 'demo', '-o', 'wide'], exit: 0 }],
  validate: [{ args: ['validate', 'examples/plugins'], exit: 1 }],
  lint: [{ args: ['lint', 'examples/conf.d', '--plugin-dir', 'examples/plugins'], exit: 0 }],
  update: [
    { args: ['update', 'shop/redis-0/redis', '--cpus', '0-1', '--memory', '2Gi', '--sim', 'demo', '--yes'], exit: 0 },
  ],
  evict: [
    { args: ['evict', 'shop/redis-0/redis-exporter', '--reason', 'leaking memory', '--sim', 'demo', '--yes'], exit: 0 },
  ],
  doctor: [
    { args: ['doctor', '--root', 'examples/node', '--sim', 'demo'], exit: 0 },
    // The simulator in the background, serving CRI beside NRI (see BACKGROUND); doctor
    // asks both and compares what CRI lists with what NRI hands plugins.
    {
      background: [
        'sim',
        'examples/cri-node.yaml',
        '--preset',
        'containerd-2.3',
        '--keep-running',
        '--socket',
        'tour/nri.sock',
        '--cri-socket',
        'tour/cri.sock',
      ],
      args: ['doctor', '--root', 'examples/node', '--socket', 'tour/nri.sock', '--cri-socket', 'tour/cri.sock'],
      exit: 0,
      section: 'doctor-cri',
    },
  ],
  plugins: [{ args: ['plugins', '--root', 'examples/node'], exit: 0 }],
  // Timings vary from run to run: `timings` masks them (see maskTimings), the rest is as printed.
  trace: [
    { args: ['trace', '--sim', 'demo', '--plugin-dir', 'examples/trace-plugins'], exit: 0, timings: true },
    // Writes demo-trace.jsonl, which the replays under sim read (section record, in this order).
    {
      args: [
        'trace',
        '--sim',
        'demo',
        '--plugin-dir',
        'examples/trace-plugins',
        '--events',
        'create',
        '--record',
        'demo-trace.jsonl',
      ],
      exit: 0,
      cwd: SCRATCH,
      section: 'record',
      timings: true,
    },
  ],
  'plugin new': [{ args: ['plugin', 'new', 'demo'], exit: 0, cwd: SCRATCH }],
  // Bundles resolve nrictl/plugin through the package's exports, i.e. the built dist/.
  'plugin bundle': [
    {
      args: ['plugin', 'bundle', 'examples/plugins-ts/cpu-pinner/index.ts', '--out', 'build/10-cpu-pinner'],
      exit: 0,
      cwd: SCRATCH,
    },
  ],
  version: [{ args: ['version'], exit: 0 }],
  // One run's table (timings masked), then the matrix; both reproduce failures each runtime
  // is known for: exit 1, as on those runtimes.
  conformance: [
    {
      args: ['conformance', '--sim', '--preset', 'crio-1.36', '--focus', 'container-lifecycle,update-pod'],
      exit: 1,
      timings: true,
    },
    { args: ['conformance', '--sim', '--preset', 'all'], exit: 1 },
  ],
  sim: [
    { args: ['sim', 'demo'], exit: 0 },
    {
      args: ['sim', '--replay', 'demo-trace.jsonl', '--plugin-dir', 'examples/trace-plugins', '--compare'],
      exit: 0,
      cwd: SCRATCH,
      section: 'record',
    },
    // The same node as Docker 29 would run it: it refuses the creation after the plugins.
    {
      args: [
        'sim',
        '--replay',
        'demo-trace.jsonl',
        '--plugin-dir',
        'examples/trace-plugins',
        '--compare',
        '--preset',
        'docker-29',
      ],
      exit: 1,
      cwd: SCRATCH,
      section: 'record',
    },
    // The example's expectations hold; the deliberately wrong ones fail with the diff.
    {
      args: ['sim', '--plugin-dir', 'build', '--expect', 'examples/plugins-ts/cpu-pinner/expect.yaml'],
      exit: 0,
      cwd: SCRATCH,
      section: 'sim-expect',
      timings: true,
    },
    {
      args: ['sim', '--plugin-dir', 'build', '--expect', 'examples/plugins-ts/cpu-pinner/expect-wrong.yaml'],
      exit: 1,
      cwd: SCRATCH,
      section: 'sim-expect',
      timings: true,
      from: /^(PASS|FAIL) after step /,
    },
  ],
};

/**
 * validate, lint and doctor judge the examples' owners and modes, and git keeps neither
 * (only the execute bit). The tour shows what a checkout owned by root, made under umask
 * 022, gives: refuse to capture anything else rather than print findings a reader's
 * clone would not have, or miss ones it would.
 */
function examplesAsCloned() {
  const problems = [];
  if (typeof process.getuid === 'function' && process.getuid() !== 0) {
    problems.push(
      `the tour shows what root sees in a root-owned checkout, as on a node; run as root (uid ${process.getuid()} would see every example "not owned by root")`,
    );
  }
  const walk = (dir) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      const st = lstatSync(path);
      const mode = st.mode & 0o7777;
      const want = st.isDirectory() || (st.isFile() && mode & 0o100) ? 0o755 : 0o644;
      const rel = relative(root, path);
      if (!st.isDirectory() && !st.isFile())
        problems.push(`${rel}: only files and directories belong in examples/ (git would not keep this as it is)`);
      else if (mode !== want)
        problems.push(
          `${rel} has mode ${mode.toString(8).padStart(4, '0')}, not the ${want.toString(8).padStart(4, '0')} a clone under umask 022 gets: chmod ${want.toString(8)} ${rel}`,
        );
      if (st.uid !== 0) problems.push(`${rel} is owned by uid ${st.uid}, not root: chown -R root:root examples`);
      if (st.isDirectory()) walk(path);
    }
  };
  walk(join(root, 'examples'));
  return problems;
}

/** A plugin project's view: the example plugins, and nrictl installed beside them. */
function makeScratch() {
  const dir = mkdtempSync(join(tmpdir(), 'nrictl-readme-'));
  cpSync(join(root, 'examples/plugins-ts'), join(dir, 'examples/plugins-ts'), { recursive: true });
  // The trace plugins load the SDK next to their real path: linked, not copied.
  symlinkSync(join(root, 'examples/trace-plugins'), join(dir, 'examples/trace-plugins'));
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(root, join(dir, 'node_modules', 'nrictl'));
  return dir;
}

/**
 * The checkout packed as it is built and installed with `npm install -g` into a fresh
 * prefix, as a user installs it; returns the installed package's directory.
 */
function installPacked(work) {
  const npm = (args, what) => {
    const r = spawnSync('npm', [...args, '--no-audit', '--no-fund'], {
      cwd: work,
      env: { ...ENV, npm_config_update_notifier: 'false' },
      encoding: 'utf8',
      timeout: 300_000,
    });
    if (r.status !== 0)
      throw new Error(`${what} exited ${r.status ?? r.signal ?? r.error?.message}:\n${r.stdout}${r.stderr}`);
    return r.stdout;
  };
  // The npm scripts built dist/ just before: pack that build, without prepack's second one.
  const packed = JSON.parse(npm(['pack', root, '--ignore-scripts', '--json', '--pack-destination', work], 'npm pack'));
  const prefix = join(work, 'prefix');
  npm(['install', '-g', '--prefix', prefix, '--prefer-offline', join(work, packed[0].filename)], 'npm install -g');
  const name = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).name;
  return join(prefix, 'lib', 'node_modules', name);
}

const tsx = import.meta.resolve('tsx');
// A reader's shell: nothing of nrictl's set, no colour, 80 columns, and none of the npm_*
// variables an npm script (npm run gen:readme, npm test) hands its children, which the npm
// that `plugin new` runs would take as its configuration.
export const ENV = (() => {
  const env = { ...process.env, NO_COLOR: '1', OCLIF_COLUMNS: '80', CI: 'true', TZ: 'UTC' };
  for (const k of Object.keys(env))
    if (
      k.startsWith('NRICTL_') ||
      k.startsWith('NRI_') ||
      k.startsWith('npm_') ||
      k === 'FORCE_COLOR' ||
      k === 'NODE_ENV' ||
      k === 'COLUMNS'
    )
      delete env[k];
  return env;
})();

/** How nrictl starts from the checkout's sources (--from-sources). */
const FROM_SOURCES = ['--import', tsx, '--no-warnings', join(root, 'bin', 'dev.mjs')];

/** Runs nrictl as `entry` (node's arguments before nrictl's own) starts it; resolves { stdout, stderr, code }. */
function nrictl(entry, args, cwd, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...entry, ...args], {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
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
function normalise(text, scratch) {
  let out = text.replace(/\r/g, '');
  for (const dir of new Set([scratch, realpathSync(scratch)])) out = out.replaceAll(dir, '.');
  for (const dir of new Set([root, realpathSync(root)])) out = out.replaceAll(dir, '<checkout>');
  for (const t of new Set([tmpdir(), realpathSync(tmpdir())])) {
    out = out.replace(new RegExp(`${escapeRegExp(t)}/([A-Za-z][A-Za-z-]*?)[A-Za-z0-9]{6}\\b`, 'g'), '/tmp/$1XXXXXX');
  }
  out = out.replace(/\b\d\d:\d\d:\d\d\.\d{3}\b/g, 'hh:mm:ss.mmm');
  // `--metrics-addr 127.0.0.1:0` takes whatever port the kernel gives, and a timed run its own length.
  out = out.replace(/\bhttp:\/\/127\.0\.0\.1:\d+\/metrics\b/g, 'http://127.0.0.1:PORT/metrics');
  out = out.replace(/\b ran \d+(\.\d+)?s:/g, ' ran n.ns:');
  // A run's length is in ms or s as it happens to be: one placeholder whichever the machine's speed gave.
  out = out.replace(/\b(\d+ checks? in )\d+(\.\d+)? m?s\b/g, '$1n.n s');
  out = out.replace(/\(pid \d+,/g, '(pid NNNN,');
  // A bundle's size moves with every change to the SDK; the README shows its shape, not the byte count.
  out = out.replace(/\(\d+ KiB, mode/g, '(NNN KiB, mode');
  out = out.replace(/\b\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z\b/g, 'YYYY-MM-DDThh:mm:ssZ');
  // `nrictl version`: the Node (and machine) that ran the generator are not the reader's.
  out = out.replace(/^(Node +)v\d+\.\d+\.\d+ \(\w+-\w+\)$/gm, '$1vNN.NN.NN (os-arch)');
  return out.replace(/[ \t]+$/gm, '').replace(/\n+$/, '');
}

/** Decimal milliseconds and percentages become placeholders of the same width, so columns stay aligned. */
function maskTimings(text) {
  return text.replace(/\((\d+\.\d+) ms\)/g, '(n.nn ms)').replace(/( +)(\d+\.\d+)( ms| s\b|%)/g, (m, sp, _n, unit) => {
    const placeholder = unit === '%' ? 'n.n%' : unit === ' s' ? 'n.n s' : 'n.nn ms';
    return sp.length > 1 ? placeholder.padStart(m.length) : ` ${placeholder}`;
  });
}

export function shellWord(w) {
  return /^[A-Za-z0-9_./:=,@%+-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`;
}

function commandIds() {
  const ids = [];
  const walk = (dir, prefix) => {
    for (const f of readdirSync(dir).sort()) {
      const p = join(dir, f);
      if (statSync(p).isDirectory()) walk(p, [...prefix, f]);
      else if (f.endsWith('.ts') && !f.endsWith('.d.ts') && f !== 'index.ts')
        ids.push([...prefix, f.slice(0, -3)].join(' '));
    }
  };
  walk(join(root, 'commands'), []);
  return ids.filter((id) => !OCLIF_OWN_COMMANDS.has(id)).sort();
}

function exitCodeTable() {
  const src = readFileSync(join(root, 'src/cli/exit-codes.ts'), 'utf8');
  const rows = [...src.matchAll(/\/\*\*((?:(?!\*\/)[\s\S])*)\*\/\s*\n\s*([A-Z_]+):\s*(\d+),/g)].map(
    ([, doc, name, code]) => {
      const text = doc
        .split('\n')
        .map((l) => l.replace(/^\s*\*\s?/, '').trim())
        .join(' ')
        .trim();
      return `| ${code} | \`${name}\` | ${text.replace(/\|/g, '\\|')} |`;
    },
  );
  if (rows.length === 0) throw new Error('src/cli/exit-codes.ts: no exit codes found');
  return ['| Code | Name | Meaning |', '|---:|---|---|', ...rows].join('\n');
}

const slug = (id) => id.replace(/ /g, '-');

const FENCE = { yaml: 'yaml', yml: 'yaml', ts: 'ts', json: 'json', conf: 'yaml' };

/** Each <!-- file:PATH --> block: the repository's file PATH, fenced, as it is on disk. */
function fillFiles(text, problems) {
  let out = text;
  for (const [, path] of text.matchAll(/<!-- file:([^ ]+) -->/g)) {
    const full = join(root, path);
    if (relative(root, full).startsWith('..') || !statSafe(full)?.isFile()) {
      problems.push(`README.md shows ${path}, which is not a file of the repository`);
      continue;
    }
    const body = readFileSync(full, 'utf8').replace(/\n+$/, '');
    const fence = FENCE[path.split('.').pop()] ?? '';
    out = replaceBlock(out, `file:${path}`, ['```' + fence, body, '```'].join('\n'), problems);
  }
  return out;
}

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

/**
 * The commands of the README's index, each with what its --help opens with, taken from the
 * manifests the package ships: its summary, or the first line of its description when it
 * has none (as oclif's help does; autocomplete's is in its plugin's manifest), and its -o
 * formats. test/commands/help.test.ts holds every command's --help to these summaries.
 */
export function indexedCommands() {
  const ours = JSON.parse(readFileSync(join(root, 'oclif.manifest.json'), 'utf8')).commands;
  // The plugin exports only its lib/index.js: its manifest is beside lib/.
  const lib = dirname(createRequire(join(root, 'package.json')).resolve('@oclif/plugin-autocomplete'));
  const commands = { ...JSON.parse(readFileSync(join(lib, '..', 'oclif.manifest.json'), 'utf8')).commands, ...ours };
  return [...commandIds(), 'autocomplete'].map((id) => {
    const cmd = commands[id.replace(/ /g, ':')];
    const summary = (cmd?.summary ?? cmd?.description?.split('\n')[0] ?? '').replace(/\s+/g, ' ').trim();
    // The -o formats, as the command's flag declares them (test/commands/every-format.test.ts runs each).
    const formats = cmd?.flags.output?.helpValue?.split('|') ?? [];
    return { id, summary, formats };
  });
}

/** One line per command: what it does, and where its whole reference is. */
function commandIndex(problems) {
  const rows = indexedCommands().map(({ id, summary, formats }) => {
    if (!summary) problems.push(`nrictl ${id} has no summary in the manifest`);
    const page = `man/nrictl-${slug(id)}.1`;
    const man = statSafe(join(root, page)) ? `[${page}](${page})` : '-';
    const o = formats.length === 0 ? '-' : formats.join(', ');
    return `| \`nrictl ${id}\` | ${summary.replace(/\|/g, '\\|')} | ${o} | ${man} |`;
  });
  return ['| Command | What it does | `-o` | Man page |', '|---|---|---|---|', ...rows].join('\n');
}

function statSafe(path) {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

/**
 * README.md as the package installed at `installed` (by `npm install -g`) prints it: every
 * generated block rewritten from real runs, the tour's from that directory. Returns the
 * text it would write, the text it has, and the problems met (a command that exited
 * otherwise than its entry says, a missing block, examples not as a clone has them).
 * `env` adds to the runs' environment (ENV). test/pack/pack.test.ts holds the README to
 * it with the package that test installed, so `npm test` fails when the README is stale.
 */
export async function readmeFromInstalled(installed, env = {}) {
  const original = readFileSync(README, 'utf8');
  const runs = {
    entry: [join(installed, 'bin', 'run.js')],
    scratch: installed,
    home: installed,
    env: { ...ENV, ...env },
  };
  return { original, ...(await render(runs, original)) };
}

/**
 * Where two versions of README.md first differ, as one message that says how to mend it,
 * with the lines that follow on each side: a tour entry's output that differs by one
 * finding says which only a line or two later.
 */
export function staleness(original, text) {
  const a = original.split('\n');
  const b = text.split('\n');
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  const from = (lines) => (lines.length > i ? lines.slice(i, i + 3).join('\n         ') : '(end)');
  return `README.md is stale (first difference at line ${i + 1}); run \`node scripts/gen-readme.mjs\`\n  has:   ${from(a)}\n  wants: ${from(b)}`;
}

async function main() {
  let made;
  if (fromSources) {
    const original = readFileSync(README, 'utf8');
    const scratch = makeScratch();
    try {
      made = { original, ...(await render({ entry: FROM_SOURCES, scratch, home: root, env: ENV }, original)) };
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  } else {
    const work = mkdtempSync(join(tmpdir(), 'nrictl-readme-'));
    try {
      // Every command from the installed package's directory, as the README says to run the tour.
      made = await readmeFromInstalled(installPacked(work));
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }
  const { original, text, problems } = made;
  if (problems.length > 0) {
    process.stderr.write(`gen-readme:\n${problems.map((p) => `  ${p}\n`).join('')}`);
    process.exitCode = 1;
    return;
  }
  if (check) {
    if (text !== original) {
      process.stderr.write(`${staleness(original, text)}\n`);
      process.exitCode = 1;
    }
    return;
  }
  if (text !== original) writeFileSync(README, text);
  process.stderr.write(`README.md: ${text === original ? 'up to date' : 'rewritten'}\n`);
}

/** The output from the first line matching `from` on, after a note of how many lines it leaves out. */
function fromLine(out, from, printed, problems) {
  const lines = out.split('\n');
  const at = lines.findIndex((l) => from.test(l));
  if (at < 0) {
    problems.push(`${printed}: no line matches ${from}`);
    return out;
  }
  return [`[${at} line${at === 1 ? '' : 's'} of events left out]`, ...lines.slice(at)].join('\n');
}

/**
 * `original` (README.md) with its generated blocks made anew: `entry` starts nrictl,
 * `scratch` is where the SCRATCH commands run, `home` where the others do, `env` their
 * environment. Returns the text and the problems met.
 */
async function render({ entry, scratch, home, env }, original) {
  const problems = examplesAsCloned();
  const ids = commandIds();
  for (const id of ids) if (!TOUR[id]) problems.push(`command "${id}" has no tour entry in scripts/gen-readme.mjs`);
  const toured = Object.keys(TOUR).filter((id) => ids.includes(id));
  const entries = toured.flatMap((id) => TOUR[id].map((ex) => ({ id, ex })));
  const runOne = async ({ id, ex }) => {
    const cwd = ex.cwd === SCRATCH ? scratch : home;
    if (!ex.background) return { id, ex, r: await nrictl(entry, ex.args, cwd, env) };
    const background = { cwd, env, argv: entry, problems };
    const r = await withBackground(ex.background, background, () => nrictl(entry, ex.args, cwd, env));
    return { id, ex, r: r ?? { stdout: '', stderr: 'not run: its background command did not start', code: null } };
  };
  // The scratch runs build on each other's files: one job, in order.
  const inScratch = entries.filter((e) => e.ex.cwd === SCRATCH);
  const scratchJob = async () => {
    const done = [];
    for (const e of inScratch) done.push(await runOne(e));
    return done;
  };
  const tourJobs = [
    scratchJob,
    ...entries.filter((e) => e.ex.cwd !== SCRATCH).map((e) => async () => [await runOne(e)]),
  ];
  const results = await pool(tourJobs);
  const byEntry = new Map(results.flat().map((t) => [t.ex, t.r]));

  let text = original;
  const sections = [...new Set(entries.map(({ id, ex }) => ex.section ?? slug(id)))];
  for (const section of sections) {
    const blocks = entries
      .filter(({ id, ex }) => (ex.section ?? slug(id)) === section)
      .map(({ ex }) => {
        const r = byEntry.get(ex);
        const printed = `nrictl ${ex.args.map(shellWord).join(' ')}`;
        if (r.code !== ex.exit)
          problems.push(
            `${printed} exited ${r.code}, the tour expects ${ex.exit}: ${r.stderr.trim().split('\n')[0] ?? ''}`,
          );
        const mask = ex.timings ? maskTimings : (t) => t;
        let stdout = mask(normalise(r.stdout, scratch));
        if (ex.from) stdout = fromLine(stdout, ex.from, printed, problems);
        const out = [stdout, mask(normalise(r.stderr, scratch))].filter((s) => s !== '').join('\n');
        const status = r.code === 0 ? '' : `\n[exit status ${r.code}]`;
        if (!ex.background) return ['```console', `$ ${printed}`, out + status, '```'].join('\n');
        const background = `$ nrictl ${ex.background.map(shellWord).join(' ')}${BACKGROUND_SUFFIX}`;
        return ['```console', background, `$ ${printed}`, out + status, '$ kill %1', '```'].join('\n');
      });
    text = replaceBlock(text, `tour:${section}`, blocks.join('\n\n'), problems);
  }
  text = fillFiles(text, problems);
  text = replaceBlock(text, 'commands', commandIndex(problems), problems);
  text = replaceBlock(text, 'exit-codes', exitCodeTable(), problems);
  return { text, problems };
}

// Run, not imported (test/scripts/readme-tour.test.ts imports TOUR).
if (process.argv[1] && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) await main();
