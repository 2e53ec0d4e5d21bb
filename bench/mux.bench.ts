// Mux throughput over a real unix socket: one connection with large writes, one with
// ttrpc-sized small writes, and the pure decoder on a pre-built stream. Prints figures only.
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import { Mux, MuxDecoder, encodeMuxHeader } from '../src/mux/index.js';

async function connectedPair(dir: string): Promise<[net.Socket, net.Socket]> {
  const socketPath = path.join(dir, 's');
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  const accepted = new Promise<net.Socket>((resolve) => server.once('connection', resolve));
  const client = net.connect(socketPath);
  await new Promise((resolve) => client.once('connect', resolve));
  const peer = await accepted;
  server.close();
  return [client, peer];
}

async function pump(from: Duplex, to: Duplex, chunk: Buffer, total: number): Promise<number> {
  const done = new Promise<void>((resolve) => {
    let got = 0;
    const onData = (b: Buffer) => {
      got += b.length;
      if (got >= total) {
        to.off('data', onData);
        resolve();
      }
    };
    to.on('data', onData);
  });
  const start = process.hrtime.bigint();
  for (let sent = 0; sent < total; sent += chunk.length) {
    if (!from.write(chunk)) await new Promise((r) => from.once('drain', r));
  }
  await done;
  return Number(process.hrtime.bigint() - start) / 1e9;
}

const dir = await mkdtemp(path.join(os.tmpdir(), 'muxb-'));
try {
  const [a, b] = await connectedPair(dir);
  const ma = new Mux(a);
  const mb = new Mux(b);
  const from = ma.open(1);
  const to = mb.open(1);
  for (const s of [from, to]) s.on('error', () => {});

  const bigTotal = 256 * 1024 * 1024;
  const bigSecs = await pump(from, to, Buffer.alloc(64 * 1024, 1), bigTotal);
  console.log(`64 KiB writes: ${(bigTotal / bigSecs / 1e6).toFixed(0)} MB/s over ${bigTotal / 1024 / 1024} MiB`);

  const smallCount = 200_000;
  const smallSecs = await pump(from, to, Buffer.alloc(100, 2), smallCount * 100);
  console.log(`100-byte writes: ${(smallCount / smallSecs / 1000).toFixed(0)}k frames/s (${smallCount} frames)`);

  const frame = Buffer.concat([encodeMuxHeader(1, 100), Buffer.alloc(100)]);
  const stream = Buffer.concat(new Array(10_000).fill(frame));
  const decoder = new MuxDecoder();
  const rounds = 100;
  const t0 = process.hrtime.bigint();
  let frames = 0;
  for (let i = 0; i < rounds; i++) {
    for (let off = 0; off < stream.length; off += 65536)
      frames += decoder.push(stream.subarray(off, off + 65536)).length;
  }
  const decSecs = Number(process.hrtime.bigint() - t0) / 1e9;
  console.log(`decoder, 108-byte frames in 64 KiB reads: ${(frames / decSecs / 1e6).toFixed(2)}M frames/s`);
  ma.close();
  mb.close();
} finally {
  await rm(dir, { recursive: true, force: true });
}
