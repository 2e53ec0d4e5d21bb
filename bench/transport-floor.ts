// The transport floor under the simulator's own cost: what one request/answer round trip
// to a child process costs the calling process when it does nothing else, measured as
// sim.bench.ts measures the simulator (process CPU time per round trip, p50 and p90).
// No runtime written in Node can relay a call for less on the same machine, so the
// simulator's figure is read against this one.
//
// Node: children on fd 3 of a socketpair, as the simulator launches plugins, each
// answering every read with a 20-byte reply. Go (when `go` is on PATH): the same shape in
// Go (bench/go-floor), the floor of the Go runtime library on this machine.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
/** About the size of a relayed CreateContainer request, and of a plugin's empty answer. */
const REQUEST_BYTES = 400;
const ANSWER_BYTES = 20;

export interface Floor {
  p50: number;
  p90: number;
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

/**
 * A child process answering every read on its fd 3 with ANSWER_BYTES bytes, on a
 * socketpair as the simulator launches plugins. `prelude` (module code) runs first in it
 * and `onRead` (a statement) before each answer: what a bench measures inside the child.
 * The child exits when its socket ends.
 */
export function spawnEchoChild(opts: { prelude?: string; onRead?: string } = {}): {
  child: ChildProcess;
  socket: Duplex;
} {
  const code = `${opts.prelude ?? ''}
import net from 'node:net';
const s = new net.Socket({ fd: 3, readable: true, writable: true });
const answer = Buffer.alloc(${ANSWER_BYTES}, 1);
s.on('data', () => { ${opts.onRead ?? ''} s.write(answer); });
s.on('error', () => process.exit(0));
s.on('end', () => process.exit(0));`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', code], {
    stdio: ['ignore', 'ignore', 'inherit', 'pipe'],
  });
  return { child, socket: child.stdio[3] as Duplex };
}

/** One request of REQUEST_BYTES to one of `sockets` at a time, resolved by its answer. */
export function roundTrips(sockets: Duplex[]): (socket: Duplex) => Promise<void> {
  let answered: (() => void) | undefined;
  for (const s of sockets) {
    s.on('data', () => {
      const done = answered;
      answered = undefined;
      done?.();
    });
  }
  const request = Buffer.alloc(REQUEST_BYTES, 7);
  return (socket) =>
    new Promise<void>((resolve) => {
      answered = resolve;
      socket.write(request);
    });
}

/** Node's floor with `children` echo processes called one after the other per round, as the runtime calls plugins. */
export async function nodeFloor(children: number, rounds: number, warmUp = 300): Promise<Floor> {
  const echoes = Array.from({ length: children }, () => spawnEchoChild());
  const sockets = echoes.map((e) => e.socket);
  const roundTrip = roundTrips(sockets);
  const perCall: number[] = [];
  for (let r = 0; r < warmUp + rounds; r++) {
    const cpu0 = process.cpuUsage();
    for (const s of sockets) await roundTrip(s);
    const cpu = process.cpuUsage(cpu0);
    if (r >= warmUp) perCall.push((cpu.user + cpu.system) / children);
  }
  for (const s of sockets) s.destroy();
  for (const e of echoes) e.child.kill();
  perCall.sort((a, b) => a - b);
  return { p50: quantile(perCall, 0.5), p90: quantile(perCall, 0.9) };
}

let goProgram: { bin: string } | { skipped: string } | undefined;

/** Builds bench/go-floor once per process with the `go` on PATH, offline; removed at exit. */
function buildGoFloor(): { bin: string } | { skipped: string } {
  if (goProgram) return goProgram;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'go-floor-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  const bin = path.join(dir, 'go-floor');
  const env = { ...process.env, GOPROXY: 'off', GOTOOLCHAIN: 'local' };
  const build = spawnSync('go', ['build', '-o', bin, '.'], { cwd: path.join(HERE, 'go-floor'), env, encoding: 'utf8' });
  if (build.error) goProgram = { skipped: 'no go on PATH' };
  else if (build.status !== 0) goProgram = { skipped: `go build failed: ${build.stderr.trim().split('\n')[0]}` };
  else goProgram = { bin };
  return goProgram;
}

/** Go's floor, or why it was not measured. */
export function goFloor(children: number, rounds: number): Floor | { skipped: string } {
  const program = buildGoFloor();
  if ('skipped' in program) return program;
  const run = spawnSync(program.bin, [String(children), String(rounds), String(REQUEST_BYTES), String(ANSWER_BYTES)], {
    encoding: 'utf8',
  });
  const m = /p50 ([\d.]+) p90 ([\d.]+)/.exec(run.stdout);
  if (run.status !== 0 || !m)
    return { skipped: `go-floor failed: ${(run.stderr || run.stdout).trim().split('\n')[0]}` };
  return { p50: Number(m[1]), p90: Number(m[2]) };
}
