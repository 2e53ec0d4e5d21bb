// CRI against the simulator, and what loading CRI costs a command's start-up.
//
// 1. Round trips: `nrictl sim --cri-socket` (the built CLI, its own process) driven by
//    the CRI client (src/cri) from this process over the unix socket, one call at a time:
//    RunPodSandbox (a new pod each time) and CreateContainer (a new container each time),
//    median and p99 of the client's wall time per call, with no plugin and with one
//    pre-started SDK plugin (plain node on the built SDK) that adjusts every container.
// 2. Cold start, whole processes in turns (bench/process-time.ts): `node -e 0`, `nrictl
//    --version`, `nrictl sim EMPTY` and `nrictl sim EMPTY --cri-socket`, which loads gRPC
//    and the CRI bindings and serves CRI before its empty script ends it; and `nrictl
//    doctor` against a `sim --cri-socket` running beside (an empty node root, the sim's
//    NRI socket), without a CRI socket to ask (it says "not checked", gRPC never loads)
//    and with --cri-socket (the CRI client loaded: Version, the lists before and after
//    the Synchronize, the comparison). Each pair's difference is what CRI adds.
//
// Figures, no verdicts. BENCH_RUNS (cold-start rounds, default 11), CRI_CALLS (round trips
// per row, default 400).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openCriClient, type CriClient } from '../src/cri/index.js';
import { writeChildPlugin } from './child-plugin.js';
import { interleavedMedians } from './process-time.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 11);
const CALLS = Number(process.env.CRI_CALLS ?? 400);
const WARM_UP = 40;
const repo = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(repo, 'bin', 'run.js');
const work = mkdtempSync(path.join(os.tmpdir(), 'cri-bench-'));

function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
}

async function startSim(args: string[]): Promise<{ child: ChildProcess; criSocket: string }> {
  const dir = mkdtempSync(path.join(work, 'sim-'));
  const criSocket = path.join(dir, 'cri.sock');
  const child = spawn(
    process.execPath,
    [BIN, 'sim', '--cri-socket', criSocket, '-o', 'json', '--no-interactive', ...args],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, NO_COLOR: '1' },
    },
  );
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('"api":"cri"')) resolve();
    });
    child.once('close', (code) => reject(new Error(`sim exited ${code}`)));
  });
  child.stdout.resume();
  return { child, criSocket };
}

async function roundTrips(label: string, client: CriClient): Promise<void> {
  let n = 0;
  const pod = (i: number) => ({ metadata: { name: `pod-${i}`, namespace: 'bench', uid: `uid-${i}`, attempt: 0 } });
  const run: number[] = [];
  for (let i = 0; i < WARM_UP + CALLS; i++) {
    const t = performance.now();
    await client.runPodSandbox(pod(n++));
    if (i >= WARM_UP) run.push(performance.now() - t);
  }
  const home = pod(n);
  const { podSandboxId } = await client.runPodSandbox(home);
  const create: number[] = [];
  for (let i = 0; i < WARM_UP + CALLS; i++) {
    const config = { metadata: { name: `ctr-${i}` }, image: { image: 'busybox' }, command: ['top'] };
    const t = performance.now();
    await client.createContainer(podSandboxId, config, home);
    if (i >= WARM_UP) create.push(performance.now() - t);
  }
  for (const [call, xs] of [
    ['RunPodSandbox', run],
    ['CreateContainer', create],
  ] as const)
    console.log(
      `${label.padEnd(26)} ${call.padEnd(16)} median ${quantile(xs, 0.5).toFixed(2).padStart(6)} ms   p99 ${quantile(xs, 0.99).toFixed(2).padStart(6)} ms   (${xs.length} calls)`,
    );
}

try {
  console.log(`round trips: ${CALLS} calls each after ${WARM_UP}, one at a time, client wall time per call`);
  const plugins = path.join(work, 'plugins');
  mkdirSync(plugins);
  await writeChildPlugin(
    path.join(plugins, '10-adjust'),
    `await new Stub({ runPodSandbox: () => {}, createContainer: () => ({ adjust: { env: [{ key: 'ADJUSTED', value: '1' }] } }) }, { name: 'adjust', index: '10' }).start();`,
  );
  for (const [label, args] of [
    ['no plugin', []],
    ['1 plugin (SDK, adjusts)', ['--plugin-dir', plugins, '--plugin-output', 'none']],
  ] as const) {
    const { child, criSocket } = await startSim([...args]);
    const client = await openCriClient({ socketPath: criSocket, timeoutMs: 10_000 });
    try {
      await roundTrips(label, client);
    } finally {
      client.close();
      child.kill('SIGTERM');
      await new Promise((r) => child.once('close', r));
    }
  }

  const empty = path.join(work, 'empty.yaml');
  writeFileSync(empty, '');
  const cri = path.join(work, 'cold');
  mkdirSync(cri, { mode: 0o700 });
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', CI: '1' };
  // doctor's questions go to a simulator of its own, with the demo's pods and containers.
  const beside = path.join(work, 'beside');
  mkdirSync(beside, { mode: 0o700 });
  const root = path.join(work, 'root');
  mkdirSync(root);
  const nriSocket = path.join(beside, 'nri.sock');
  const { child: sim, criSocket } = await startSim([
    path.join(repo, 'examples', 'demo.yaml'),
    '--keep-running',
    '--socket',
    nriSocket,
  ]);
  const doctor = [BIN, 'doctor', '--root', root, '--socket', nriSocket];
  const targets = [
    { label: 'node -e 0', args: ['-e', '0'] },
    { label: 'nrictl --version', args: [BIN, '--version'] },
    { label: 'nrictl sim EMPTY', args: [BIN, 'sim', empty, '--socket', path.join(cri, 'n.sock')] },
    {
      label: 'nrictl sim EMPTY --cri-socket',
      args: [BIN, 'sim', empty, '--socket', path.join(cri, 'n.sock'), '--cri-socket', path.join(cri, 'c.sock')],
    },
    { label: 'nrictl doctor (CRI not checked)', args: doctor },
    { label: 'nrictl doctor --cri-socket', args: [...doctor, '--cri-socket', criSocket] },
  ];
  try {
    console.log(`\ncold start: ${RUNS} rounds, each command once per round; medians`);
    const rows = interleavedMedians(targets, { runs: RUNS, env, cwd: work });
    const node = rows[0];
    for (const [i, t] of rows.entries())
      console.log(
        `${t.label.padEnd(34)} wall ${t.wallMs.toFixed(0).padStart(4)} ms (min ${t.minWallMs.toFixed(0)})   cpu ${t.cpuMs.toFixed(0).padStart(4)} ms${i === 0 ? '' : `   ${(t.wallMs / node.wallMs).toFixed(2)}x wall, ${(t.cpuMs / node.cpuMs).toFixed(2)}x cpu`}`,
      );
    console.log(
      `CRI adds to sim's start: ${(rows[3].wallMs - rows[2].wallMs).toFixed(0)} ms wall, ${(rows[3].cpuMs - rows[2].cpuMs).toFixed(0)} ms cpu`,
    );
    console.log(
      `CRI adds to doctor: ${(rows[5].wallMs - rows[4].wallMs).toFixed(0)} ms wall, ${(rows[5].cpuMs - rows[4].cpuMs).toFixed(0)} ms cpu`,
    );
  } finally {
    sim.kill('SIGTERM');
    await new Promise((r) => sim.once('close', r));
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
