// `nrictl sync dump` of a node-sized state (1,000 pods, 5,000 containers: the reference's
// scenario-large.json) from the Go NRI adaptation (refrt), table and -o json, against the
// Go template plugin synchronizing with the same runtime; in alternating rounds.
// Prints: start to last byte of nrictl's output (and to exit), its CPU and peak RSS (GNU
// time, where installed), and the Synchronize round trip as the runtime sees it (refrt's
// Synchronize event, dur_us: from the first sync request to the last answer) for each.
//
// refrt runs with a 10 s request timeout so that a slow round is measured rather than
// dropped; the library's default is 2 s.
//
// Also, as an experiment, an SDK plugin that answers Synchronize before decoding it (the
// SDK's synchronizeRaw), to show what sync dump's round trip could be.
//
// Knobs: VS_GO_SYNC_ROUNDS (5), VS_GO_NODE_FLAGS (node flags for nrictl's process),
// VS_GO_BASELINE_NRICTL (another build's bin/run.js, e.g. main's: its sync dump runs in
// the same turns, a before/after pair on the same load).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { JsonLines, type Line } from './vs-go/json-lines.js';
import { runToLastByte, type LastByte } from './vs-go/last-byte.js';
import { syncDumpArgv } from './vs-go/nrictl.js';
import { goReferenceOrSkip } from './vs-go/reference.js';
import { refrtArgs } from './vs-go/refrt.js';

const ref = goReferenceOrSkip('vs-go-sync-dump');
const RAW_SYNC = fileURLToPath(new URL('./vs-go/experiments/raw-sync.mjs', import.meta.url));
const ROUNDS = Number(process.env.VS_GO_SYNC_ROUNDS ?? 5);
const dir = mkdtempSync(path.join(os.tmpdir(), 'vs-go-sync-'));
const socket = path.join(dir, 'nri.sock');
const refrt = spawn(ref.refrt, refrtArgs({ socket, scenario: ref.largeScenario, requestTimeoutMs: 10_000 }), {
  stdio: ['ignore', 'pipe', 'inherit'],
});
const events = new JsonLines(refrt.stdout);
const isSync = (l: Line): boolean => l.ev === 'event' && l.op === 'Synchronize';

interface Sample {
  syncMs: number;
  run?: LastByte;
}

/** One nrictl sync dump, with the Synchronize round trip refrt saw for it. */
async function dump(output: 'table' | 'json', bin?: string): Promise<Sample> {
  const synced = events.next(isSync);
  const run = await runToLastByte(process.execPath, syncDumpArgv(socket, output, bin));
  const sync = await synced;
  if (sync.ok !== true) throw new Error(`refrt: Synchronize failed: ${String(sync.error)}`);
  return { syncMs: Number(sync.dur_us) / 1000, run };
}

/** The Go template plugin connecting externally, until refrt has synchronized it. */
async function goTemplate(): Promise<Sample> {
  const synced = events.next(isSync);
  const plugin = spawn(ref.plugin('template'), ['-idx', '20', '-socket', socket], { stdio: 'ignore' });
  const sync = await synced;
  const exited = new Promise((r) => plugin.once('close', r));
  plugin.kill('SIGTERM');
  await exited;
  return { syncMs: Number(sync.dur_us) / 1000 };
}

/** Experiment: an SDK plugin that answers Synchronize before it decodes (vs-go/experiments/raw-sync.mjs). */
async function rawSdkPlugin(): Promise<Sample> {
  const synced = events.next(isSync);
  const run = await runToLastByte(process.execPath, [RAW_SYNC, socket]);
  const sync = await synced;
  return { syncMs: Number(sync.dur_us) / 1000, run };
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (xs: number[]): string =>
  `${median(xs).toFixed(0).padStart(5)} ms (${Math.min(...xs).toFixed(0)}-${Math.max(...xs).toFixed(0)})`;

try {
  const started = await events.next((l) => l.ev === 'started');
  if (started.external !== true) throw new Error('refrt did not listen');
  const kinds = [
    { label: 'Go template plugin', take: goTemplate },
    { label: 'SDK plugin answering unread (experiment)', take: rawSdkPlugin },
    { label: 'nrictl sync dump (table)', take: () => dump('table') },
    { label: 'nrictl sync dump -o json', take: () => dump('json') },
  ];
  const baseline = process.env.VS_GO_BASELINE_NRICTL;
  if (baseline)
    kinds.push(
      { label: 'baseline sync dump (table)', take: () => dump('table', baseline) },
      { label: 'baseline sync dump -o json', take: () => dump('json', baseline) },
    );
  for (const k of kinds) await k.take(); // warm-up round: page cache, refrt's first sync
  const samples = kinds.map(() => [] as Sample[]);
  for (let r = 0; r < ROUNDS; r++) for (const [i, k] of kinds.entries()) samples[i].push(await k.take());
  console.log(
    `sync dump of 1,000 pods / 5,000 containers from refrt, ${ROUNDS} rounds in turns after a warm-up round; medians (min-max); ${os.cpus().length} CPUs`,
  );
  for (const [i, k] of kinds.entries()) {
    const s = samples[i];
    let line = `  ${k.label.padEnd(42)} Synchronize round trip seen by the runtime ${ms(s.map((x) => x.syncMs))}`;
    const runs = s.flatMap((x) => (x.run ? [x.run] : []));
    if (runs.length > 0) {
      line += `   start to last byte ${ms(runs.map((x) => x.lastByteMs))}, to exit ${median(runs.map((x) => x.exitMs)).toFixed(0)} ms, ${(runs[0].bytes / 1024).toFixed(0)} KiB`;
      if (runs[0].cpuMs !== undefined)
        line += `, cpu ${median(runs.map((x) => x.cpuMs!)).toFixed(0)} ms, peak ${median(runs.map((x) => x.peakMb!)).toFixed(0)} MB`;
    }
    console.log(line);
  }
} finally {
  refrt.kill('SIGTERM');
  await new Promise((r) => refrt.once('close', r));
  rmSync(dir, { recursive: true, force: true });
}
