// ttrpc unary round trips with a 1 KiB payload over a unix socket, plain and through the
// NRI mux (the way NRI runs it), with 1 and 64 calls in flight. The server runs in a
// child process so that each side has its own event loop, as a runtime and a plugin do.
// Prints p50/p99 latency and calls/s; asserts nothing.
import net from 'node:net';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Duplex } from 'node:stream';
import { TtrpcClient, TtrpcServer } from '../src/ttrpc/index.js';
import { Mux, PLUGIN_SERVICE_CONN } from '../src/mux/index.js';

const SVC = 'bench.v1.Echo';
const PAYLOAD = Buffer.alloc(1024, 0x5a);
const WARMUP = 5_000;
const CALLS = 40_000;

type Transport = 'plain' | 'mux';

function serve(path: string): void {
  const server = new TtrpcServer();
  server.register(SVC, 'Echo', (p) => p);
  const srv = net.createServer((sock) => {
    sock.on('error', () => {});
    sock.once('data', (first: Buffer) => {
      // The first byte says which transport this connection uses.
      const mode = first[0] === 0x6d ? 'mux' : 'plain';
      const rest = first.subarray(1);
      let stream: Duplex = sock;
      if (mode === 'mux') {
        const mux = new Mux(sock, { label: 'bench trunk' });
        stream = mux.open(PLUGIN_SERVICE_CONN);
      }
      server.serve(stream);
      if (rest.length) sock.emit('data', rest);
    });
  });
  srv.listen(path, () => process.send?.('ready'));
  process.on('disconnect', () => process.exit(0));
}

async function connect(path: string, transport: Transport): Promise<TtrpcClient> {
  const sock = net.connect(path);
  await new Promise<void>((resolve, reject) => {
    sock.once('connect', resolve);
    sock.once('error', reject);
  });
  sock.write(transport === 'mux' ? 'm' : 'p');
  if (transport === 'plain') return new TtrpcClient(sock);
  return new TtrpcClient(new Mux(sock, { label: 'bench trunk' }).open(PLUGIN_SERVICE_CONN));
}

async function run(
  client: TtrpcClient,
  calls: number,
  inFlight: number,
): Promise<{ lat: Float64Array; seconds: number; cpuUs: number }> {
  const lat = new Float64Array(calls);
  let next = 0;
  const cpu0 = process.cpuUsage();
  const start = process.hrtime.bigint();
  const worker = async () => {
    while (next < calls) {
      const i = next++;
      const t0 = process.hrtime.bigint();
      await client.call(SVC, 'Echo', PAYLOAD);
      lat[i] = Number(process.hrtime.bigint() - t0) / 1000;
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const cpu = process.cpuUsage(cpu0);
  return { lat, seconds, cpuUs: (cpu.user + cpu.system) / calls };
}

function pct(sorted: Float64Array, p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'ttrpc-bench-'));
  const path = join(dir, 's.sock');
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), 'serve', path], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  try {
    console.log(`ttrpc unary Echo, ${PAYLOAD.length} B payload, ${CALLS} calls per row, server in a child process`);
    console.log(
      `(load average ${loadavg()[0].toFixed(1)} on ${cpus().length} CPUs; client CPU is the caller's own cost per call)`,
    );
    console.log('transport  in-flight     p50 µs     p99 µs      calls/s  client CPU µs/call');
    for (const transport of ['plain', 'mux'] as const) {
      for (const inFlight of [1, 64]) {
        const client = await connect(path, transport);
        await run(client, WARMUP, inFlight);
        globalThis.gc?.();
        const { lat, seconds, cpuUs } = await run(client, CALLS, inFlight);
        lat.sort();
        console.log(
          `${transport.padEnd(9)}  ${String(inFlight).padStart(9)}  ${pct(lat, 50).toFixed(1).padStart(9)}  ${pct(
            lat,
            99,
          )
            .toFixed(1)
            .padStart(9)}  ${Math.round(CALLS / seconds)
            .toString()
            .padStart(11)}  ${cpuUs.toFixed(1).padStart(18)}`,
        );
        client.close();
      }
    }
  } finally {
    child.disconnect();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === 'serve') serve(process.argv[3]);
else await main();
