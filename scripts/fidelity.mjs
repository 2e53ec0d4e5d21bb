#!/usr/bin/env node
// Regenerates docs/fidelity.md: the presets of nrictl's simulator held to the real runtimes
// of the real-runtimes kit (see the page for what it shows).
//
//   npm run fidelity                       build, then run what can run and write the page
//   node scripts/fidelity.mjs [--only IDS] [--no-real] [--no-critest] [--no-conformance]
//
// It runs what it can: every preset (no kit needed); a real runtime when the kit's runtime
// is up (NRI_REAL_OUT names the kit's output directory; CRI-O's row depends on the image
// policy it was started with); critest when NRI_REAL_OUT/bin/critest is built. It never
// starts, stops or reconfigures a runtime. What it cannot run it says on stderr, and the
// page keeps the last real result of docs/fidelity/*.json, marked as carried over. Real
// results measured now are written there, machine paths stripped. Child output goes to a
// log directory, kept and named when something went wrong.
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseConformanceReport } from './fidelity/conformance.mjs';
import { critestSummary, foldRuns, parseCritestJunit } from './fidelity/junit.mjs';
import { mergeResults } from './fidelity/merge.mjs';
import { pathStripper, stripPaths } from './fidelity/paths.mjs';
import { renderPage } from './fidelity/render.mjs';
import { killGroup, runCommand, socketAnswers } from './fidelity/run.mjs';
import {
  CONFORMANCE_TARGETS,
  CRITEST_RACES,
  CRITEST_TARGETS,
  crioImagePolicy,
  kitEndpoints,
} from './fidelity/targets.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const PAGE = join(root, 'docs', 'fidelity.md');
const DATA = join(root, 'docs', 'fidelity');
const CLI = join(root, 'bin', 'run.js');
const IMAGE = 'localhost/busybox:latest';
const CONFORMANCE_DEADLINE_MS = 5 * 60_000;
const CRITEST_DEADLINE_MS = 10 * 60_000;
const DEFAULT_RACE_RUNS = 5;
/** ginkgo's focus (a regular expression) for the race specs alone. */
const RACE_FOCUS = CRITEST_RACES.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');

const USAGE = `usage: node scripts/fidelity.mjs [--only IDS] [--no-real] [--no-critest] [--no-conformance] [--race-runs N]

Regenerates docs/fidelity.md (npm run fidelity builds nrictl first).
  --only IDS     measure only these real runtimes (comma-separated: ${CONFORMANCE_TARGETS.map((t) => t.id).join(', ')});
                 the others are carried over. Presets always run.
  --no-real      measure no real runtime: the page from the presets and the kept results
  --no-critest   leave critest out (its results are carried over)
  --no-conformance  run no real conformance (carried over; presets still run)
  --race-runs N  run critest's race specs N more times on each side, on their own (default ${DEFAULT_RACE_RUNS})
Env: NRI_REAL_OUT  the real-runtimes kit's output directory (unset: no real runtime)
     NRI_REAL_KIT  the kit's scripts (default: ../shared/tools/real-runtimes from the checkout)
Exit: 0 page written, 1 page written but a run failed, 2 bad usage or nrictl not built.`;

function parseArgs(argv) {
  const opts = { only: undefined, real: true, critest: true, conformance: true, raceRuns: DEFAULT_RACE_RUNS };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--help' || a === '-h') {
      console.log(USAGE);
      process.exit(0);
    } else if (a === '--no-real') opts.real = false;
    else if (a === '--no-critest') opts.critest = false;
    else if (a === '--no-conformance') opts.conformance = false;
    else if (a === '--race-runs' || a.startsWith('--race-runs=')) {
      const v = a.includes('=') ? a.slice('--race-runs='.length) : argv[++i];
      if (!/^\d+$/.test(v ?? '')) usageError(`--race-runs: ${v ?? '(none)'} is not a whole number`);
      opts.raceRuns = Number(v);
    } else if (a === '--only' || a.startsWith('--only=')) {
      const v = a.includes('=') ? a.slice('--only='.length) : argv[++i];
      const ids = (v ?? '').split(',').filter(Boolean);
      const known = new Set(CONFORMANCE_TARGETS.map((t) => t.id));
      const bad = ids.filter((id) => !known.has(id));
      if (ids.length === 0 || bad.length > 0) usageError(`--only: unknown runtime ${bad.join(', ') || '(none)'}`);
      opts.only = new Set(ids);
    } else usageError(`unknown argument ${a}`);
  }
  return opts;
}

function usageError(message) {
  process.stderr.write(`fidelity: ${message}; see --help\n`);
  process.exit(2);
}

const say = (line) => process.stderr.write(`fidelity: ${line}\n`);
const secs = (ms) => `${(ms / 1000).toFixed(1)} s`;

function git(...args) {
  const r = spawnSync('git', args, { cwd: root, encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

/** The commit measured, "+changes" when the checkout differs from it (the page and its data aside). */
function nrictlCommit() {
  const head = git('rev-parse', '--short', 'HEAD') ?? 'unknown';
  const changed = (git('status', '--porcelain', '--untracked-files=no') ?? '')
    .split('\n')
    .filter((l) => l && !/ docs\/fidelity(\.md|\/)/.test(l));
  return changed.length > 0 ? `${head}+changes` : head;
}

function readKept() {
  const kept = {};
  if (!existsSync(DATA)) return kept;
  for (const f of readdirSync(DATA).filter((n) => n.endsWith('.json'))) {
    try {
      const r = JSON.parse(readFileSync(join(DATA, f), 'utf8'));
      kept[f.replace(/\.json$/, '')] = r;
    } catch (e) {
      say(`docs/fidelity/${f}: ${e.message}; not carried over`);
    }
  }
  return kept;
}

function writeAtomically(path, text) {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.tmp-${process.pid}`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}

/** Pod ids on a CRI socket (crictl), or undefined when it could not list them. */
function podIds(out, cri) {
  const r = spawnSync(
    join(out, 'bin', 'crictl'),
    ['--config', '/dev/null', '-r', `unix://${cri}`, '-t', '10s', 'pods', '-q'],
    { encoding: 'utf8', timeout: 20_000 },
  );
  return r.status === 0 ? r.stdout.split('\n').filter(Boolean) : undefined;
}

/** "containerd v2.3.4", "cri-o 1.32.13": CRI Version through crictl, as conformance names it. */
function runtimeVersion(out, cri) {
  const r = spawnSync(
    join(out, 'bin', 'crictl'),
    ['--config', '/dev/null', '-r', `unix://${cri}`, '-t', '10s', 'version'],
    {
      encoding: 'utf8',
      timeout: 20_000,
    },
  );
  const field = (name) => new RegExp(`^${name}:\\s*(.+)$`, 'm').exec(r.stdout ?? '')?.[1]?.trim();
  const name = field('RuntimeName');
  const version = field('RuntimeVersion');
  return name && version ? `${name} ${version}` : undefined;
}

/** Whether a kit runtime is up: its CRI and NRI sockets answer. */
async function runtimeUp(ep) {
  return existsSync(ep.cri) && existsSync(ep.nri) && (await socketAnswers(ep.cri)) && (await socketAnswers(ep.nri));
}

class Fidelity {
  constructor(opts) {
    this.opts = opts;
    this.out = process.env.NRI_REAL_OUT ? resolve(process.env.NRI_REAL_OUT) : undefined;
    this.kit = resolve(process.env.NRI_REAL_KIT ?? join(root, '..', 'shared', 'tools', 'real-runtimes'));
    this.logs = mkdtempSync(join(tmpdir(), 'nrictl-fidelity-'));
    this.failed = [];
    this.times = {};
    this.fresh = {};
    this.why = {};
    this.measured = { date: new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC', nrictl: nrictlCommit() };
    this.strip = pathStripper({
      ...(this.out ? { [this.out]: '$NRI_REAL_OUT' } : {}),
      [this.kit]: '<kit>',
      [root]: '<repo>',
      [tmpdir()]: '<tmp>',
      [homedir()]: '~',
    });
  }

  time(id, what, ms) {
    (this.times[id] ??= []).push([what, ms]);
  }

  log(name) {
    return join(this.logs, `${name}.log`);
  }

  fail(id, message) {
    this.why[id] = message;
    this.failed.push(`${id}: ${message}`);
    say(`${id}: ${message}`);
  }

  /** conformance -o json, parsed; throws with the reason when it gave no report. */
  async conformance(args, logName) {
    const r = await runCommand(process.execPath, [CLI, 'conformance', ...args, '-o', 'json', '--no-color'], {
      env: { ...process.env, NO_COLOR: '1' },
      cwd: root,
      log: this.log(logName),
      timeoutMs: CONFORMANCE_DEADLINE_MS,
      capture: true,
    });
    if (r.timedOut) throw new Error(`no end within ${secs(CONFORMANCE_DEADLINE_MS)} (log: ${this.log(logName)})`);
    if (r.code !== 0 && r.code !== 1)
      throw new Error(`conformance exited ${r.code ?? r.signal} (log: ${this.log(logName)})`);
    return { report: parseConformanceReport(r.stdout), ms: r.ms };
  }

  /** Every preset's conformance; targets that imitate with the same arguments share one run. */
  async presets() {
    const results = {};
    const byArgs = new Map();
    for (const t of CONFORMANCE_TARGETS) {
      const key = t.presetArgs.join(' ');
      if (byArgs.has(key)) {
        results[t.id] = byArgs.get(key);
        say(`${t.id}: preset as for ${key} (same run)`);
        continue;
      }
      say(`${t.id}: conformance --sim ${key} ...`);
      try {
        const { report, ms } = await this.conformance(['--sim', ...t.presetArgs], `preset-${t.id}`);
        results[t.id] = { report };
        this.time(t.id, 'preset', ms);
        say(`${t.id}: preset done in ${secs(ms)}`);
      } catch (e) {
        results[t.id] = { error: e.message };
        this.failed.push(`${t.id} preset: ${e.message}`);
        say(`${t.id}: preset: ${e.message}`);
      }
      byArgs.set(key, results[t.id]);
    }
    return results;
  }

  /** Why a real target cannot be measured now, or undefined when it can. */
  async cannotMeasure(t) {
    if (!this.opts.real) return '--no-real';
    if (this.opts.only && !this.opts.only.has(t.id)) return 'left out by --only';
    if (!this.out) return 'NRI_REAL_OUT is not set';
    const ep = kitEndpoints(this.out, t.runtime);
    if (!(await runtimeUp(ep))) return `${t.runtime} of the kit is not up (no answer on ${this.strip(ep.cri)})`;
    if (t.mode) {
      const conf = existsSync(ep.config) ? readFileSync(ep.config, 'utf8') : '';
      const mode = crioImagePolicy(conf);
      if (mode !== t.mode)
        return `CRI-O runs with the ${mode ?? 'unknown'} image policy, not ${t.mode} (CRIO_SIGNATURE_POLICY=${t.mode === 'verify' ? 'kit' : 'system'} start.sh crio)`;
    }
    return undefined;
  }

  async realConformance(t) {
    const id = `conformance-${t.id}`;
    const why = this.opts.conformance ? await this.cannotMeasure(t) : '--no-conformance';
    if (why) {
      this.why[id] = why;
      say(`${t.id}: real runtime not measured: ${why}`);
      return;
    }
    const ep = kitEndpoints(this.out, t.runtime);
    const before = podIds(this.out, ep.cri);
    say(`${t.id}: conformance against the real ${t.runtime} ...`);
    try {
      const { report, ms } = await this.conformance(
        ['--socket', ep.nri, '--cri-socket', ep.cri, '--image', IMAGE, '--yes'],
        `real-${t.id}`,
      );
      this.time(t.id, 'conformance', ms);
      say(
        `${t.id}: ${report.runtime}: ${report.summary.passed} passed, ${report.summary.failed} failed, ${report.summary.skipped} skipped, ${report.summary.errors} errors in ${secs(ms)}`,
      );
      if (report.interrupted) throw new Error('the run was interrupted');
      this.fresh[id] = stripPaths(
        {
          id,
          kind: 'conformance',
          target: t.id,
          measured: this.measured,
          ...(t.mode ? { mode: t.mode } : {}),
          wallMs: Math.round(ms),
          ...report,
        },
        this.strip,
      );
    } catch (e) {
      this.fail(id, e.message);
    }
    await this.afterRealRun(t.id, t.runtime, ep, before);
  }

  /** Says whether the runtime is still up and whether the run left pods on it. */
  async afterRealRun(id, runtime, ep, before) {
    if (!(await runtimeUp(ep))) {
      this.failed.push(`${id}: ${runtime} no longer answers after the run`);
      say(`${id}: ${runtime} NO LONGER ANSWERS after the run; see its log`);
      return;
    }
    const after = podIds(this.out, ep.cri);
    if (!before || !after) return say(`${id}: could not list ${runtime}'s pods with crictl to look for leftovers`);
    const left = after.filter((p) => !before.includes(p));
    if (left.length > 0) {
      this.failed.push(`${id}: ${left.length} pod(s) left on ${runtime}`);
      say(`${id}: ${left.length} pod(s) left on ${runtime}: ${left.join(' ')}`);
    }
  }

  critestReady() {
    if (!this.opts.critest) return '--no-critest';
    if (!this.out) return 'NRI_REAL_OUT is not set';
    if (!existsSync(join(this.out, 'bin', 'critest'))) return 'critest is not built ($NRI_REAL_OUT/bin/critest)';
    if (!existsSync(join(this.kit, 'run-critest.sh')))
      return `no run-critest.sh in ${this.kit} (set NRI_REAL_KIT to the kit's directory)`;
    return undefined;
  }

  /**
   * The kit's run-critest.sh with a JUnit report in the log directory, parsed; then the
   * race specs (CRITEST_RACES) again, on their own, --race-runs times, each folded into one
   * verdict over all its runs.
   */
  async critest(args, logName) {
    const result = await this.critestOnce(args, logName);
    const runs = [];
    for (let i = 1; i <= this.opts.raceRuns; i++) {
      const again = await this.critestOnce(args, `${logName}-race${i}`, RACE_FOCUS);
      say(
        `  race run ${i}: ${CRITEST_RACES.map((n) => again.specs.find((x) => x.name.includes(n))?.status ?? 'not run').join(', ')}`,
      );
      runs.push(again);
      result.ms += again.ms;
    }
    if (runs.length === 0) return result;
    const specs = result.specs.map((spec) =>
      CRITEST_RACES.some((n) => spec.name.includes(n))
        ? foldRuns(spec.name, [spec, ...runs.map((r) => r.specs.find((x) => x.name === spec.name))])
        : spec,
    );
    return { ...result, specs };
  }

  async critestOnce(args, logName, focus) {
    const report = join(this.logs, `${logName}.xml`);
    const r = await runCommand(join(this.kit, 'run-critest.sh'), args, {
      env: { ...process.env, NRI_REAL_OUT: this.out, REPORT: report, ...(focus ? { FOCUS: focus } : {}) },
      cwd: root,
      log: this.log(logName),
      timeoutMs: CRITEST_DEADLINE_MS,
    });
    if (r.timedOut)
      throw new Error(`critest had no end within ${secs(CRITEST_DEADLINE_MS)} (log: ${this.log(logName)})`);
    if (!existsSync(report))
      throw new Error(`critest wrote no report (exit ${r.code ?? r.signal}; log: ${this.log(logName)})`);
    return { ...parseCritestJunit(readFileSync(report, 'utf8')), ms: r.ms };
  }

  critestRecord(id, t, side, against, result) {
    return stripPaths(
      {
        id,
        kind: 'critest',
        target: t.id,
        side,
        against,
        measured: this.measured,
        wallMs: Math.round(result.ms),
        counts: result.counts,
        specs: result.specs,
      },
      this.strip,
    );
  }

  async realCritest(t) {
    const id = `critest-${t.id}-real`;
    const notReady = this.critestReady() ?? (await this.cannotMeasure(CONFORMANCE_TARGETS.find((c) => c.id === t.id)));
    if (notReady) {
      this.why[id] = notReady;
      say(`${t.id}: critest on the real runtime not run: ${notReady}`);
      return;
    }
    const ep = kitEndpoints(this.out, t.runtime);
    const before = podIds(this.out, ep.cri);
    say(`${t.id}: critest against the real ${t.runtime} ...`);
    try {
      const result = await this.critest([t.runtime], `critest-real-${t.id}`);
      this.time(t.id, 'critest real', result.ms);
      say(`${t.id}: critest on ${t.runtime}: ${critestSummary(result.counts)} in ${secs(result.ms)}`);
      const runtime = runtimeVersion(this.out, ep.cri) ?? t.runtime;
      this.fresh[id] = this.critestRecord(id, t, 'real', runtime, result);
    } catch (e) {
      this.fail(id, e.message);
    }
    await this.afterRealRun(t.id, t.runtime, ep, before);
  }

  /** critest against `nrictl sim --cri-socket --preset P`, the simulator started and stopped here. */
  async simCritest(t) {
    const id = `critest-${t.id}-sim`;
    const notReady = this.critestReady();
    if (notReady) {
      this.why[id] = notReady;
      say(`${t.id}: critest on the simulator not run: ${notReady}`);
      return;
    }
    const dir = mkdtempSync(join(tmpdir(), 'nrictl-fidelity-sim-'));
    const nri = join(dir, 'nri.sock');
    const cri = join(dir, 'cri.sock');
    say(`${t.id}: critest against nrictl sim --cri-socket --preset ${t.preset} ...`);
    // stdin stays open (a pipe): the simulator serves until it is signalled.
    let simPid;
    let simEnded = false;
    const simDone = runCommand(
      process.execPath,
      [CLI, 'sim', '--socket', nri, '--cri-socket', cri, '--preset', t.preset, '--no-color'],
      {
        env: process.env,
        cwd: root,
        log: this.log(`sim-${t.id}`),
        timeoutMs: CRITEST_DEADLINE_MS + 60_000,
        stdin: 'pipe',
        onSpawn: (pid) => (simPid = pid),
      },
    ).then(
      () => (simEnded = true),
      () => (simEnded = true),
    );
    try {
      const deadline = Date.now() + 30_000;
      while (!(existsSync(cri) && existsSync(nri) && (await socketAnswers(cri)))) {
        if (simEnded) throw new Error(`the simulator ended before it served (log: ${this.log(`sim-${t.id}`)})`);
        if (Date.now() > deadline) throw new Error('the simulator did not serve its sockets within 30 s');
        await new Promise((r) => setTimeout(r, 200));
      }
      const result = await this.critest([cri, nri], `critest-sim-${t.id}`);
      this.time(t.id, 'critest sim', result.ms);
      say(`${t.id}: critest on the simulator: ${critestSummary(result.counts)} in ${secs(result.ms)}`);
      this.fresh[id] = this.critestRecord(id, t, 'sim', `nrictl sim --cri-socket --preset ${t.preset}`, result);
    } catch (e) {
      this.fail(id, e.message);
    } finally {
      if (!simEnded) await this.stopSim(simPid, simDone);
      rmSync(dir, { recursive: true, force: true });
    }
  }

  /** SIGTERM to the simulator's process group, SIGKILL if it is still there after 5 s. */
  async stopSim(pid, done) {
    if (pid === undefined) return;
    killGroup(pid, 'SIGTERM');
    const ended = await Promise.race([done.then(() => true), new Promise((r) => setTimeout(() => r(false), 5000))]);
    if (!ended) {
      say('the simulator did not end on SIGTERM within 5 s: killed');
      killGroup(pid, 'SIGKILL');
      await done;
    }
  }
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  if (!existsSync(join(root, 'dist', 'cli.cjs')))
    usageError('nrictl is not built: run npm run build (npm run fidelity does)');
  const f = new Fidelity(opts);
  const started = performance.now();
  say(`nrictl ${f.measured.nrictl}; kit output ${f.out ?? '(NRI_REAL_OUT not set)'}; logs in ${f.logs}`);
  const presets = await f.presets();
  for (const t of CONFORMANCE_TARGETS) await f.realConformance(t);
  for (const t of CRITEST_TARGETS) {
    await f.realCritest(t);
    await f.simCritest(t);
  }
  const kept = readKept();
  const ids = [
    ...CONFORMANCE_TARGETS.map((t) => `conformance-${t.id}`),
    ...CRITEST_TARGETS.flatMap((t) => [`critest-${t.id}-real`, `critest-${t.id}-sim`]),
  ];
  // The reasons go on the page: no log path of this machine in them.
  const slots = mergeResults(ids, kept, f.fresh, stripPaths(f.why, f.strip));
  for (const [id, record] of Object.entries(f.fresh))
    writeAtomically(join(DATA, `${id}.json`), `${JSON.stringify(record, null, 2)}\n`);
  writeAtomically(
    PAGE,
    renderPage({
      generated: f.measured,
      conformance: CONFORMANCE_TARGETS.map((t) => ({
        target: t,
        slot: slots[`conformance-${t.id}`],
        preset: stripPaths(presets[t.id], f.strip),
      })),
      critest: CRITEST_TARGETS.map((t) => ({
        target: t,
        real: slots[`critest-${t.id}-real`],
        sim: slots[`critest-${t.id}-sim`],
      })),
    }),
  );
  for (const [id, parts] of Object.entries(f.times))
    say(
      `${id}: total ${secs(parts.reduce((s, [, ms]) => s + ms, 0))} (${parts.map(([w, ms]) => `${w} ${secs(ms)}`).join(', ')})`,
    );
  const carried = ids.filter((id) => slots[id].state === 'carried');
  const missing = ids.filter((id) => slots[id].state === 'missing');
  if (carried.length) say(`carried over: ${carried.join(', ')}`);
  if (missing.length) say(`never measured: ${missing.join(', ')}`);
  say(
    `wrote docs/fidelity.md and ${Object.keys(f.fresh).length} result file(s) in ${secs(performance.now() - started)}`,
  );
  if (f.failed.length > 0) {
    say(`${f.failed.length} run(s) went wrong (logs kept in ${f.logs}):`);
    for (const line of f.failed) say(`  ${line}`);
    process.exitCode = 1;
  } else {
    rmSync(f.logs, { recursive: true, force: true });
  }
}

await main();
