// A peer that sends requests as fast as the socket takes them and never reads an answer
// must not grow the server's memory: the server stops reading while its answers wait,
// as the Go server stops when its writer blocks.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import {
  Code,
  encodeFrame,
  encodeRequest,
  MessageType,
  TtrpcClient,
  TtrpcError,
  TtrpcServer,
} from '../../src/ttrpc/index.js';
import { connectRaw, deferred, listen, rawPeer } from './helpers.js';

const MiB = 1 << 20;
const BOUND = 64 * MiB;
const here = path.dirname(fileURLToPath(import.meta.url));
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0)) await fn();
});

/** Writes requests until `total` bytes went out or the socket took nothing for `stallMs`. */
async function flood(sock: net.Socket, total: number, stallMs: number): Promise<{ sent: number; stalled: boolean }> {
  const payload = Buffer.alloc(64 * 1024, 1);
  let sent = 0;
  let id = 1;
  while (sent < total) {
    const frame = encodeFrame(
      id,
      MessageType.Request,
      encodeRequest({ service: 'flood.v1.Echo', method: 'Echo', payload, timeoutNano: 0, metadata: [] }),
    );
    id += 2;
    sent += frame.length;
    if (!sock.write(frame)) {
      const drained = await Promise.race([
        new Promise<boolean>((r) => sock.once('drain', () => r(true))),
        new Promise<boolean>((r) => setTimeout(() => r(false), stallMs).unref()),
      ]);
      if (!drained) return { sent, stalled: true };
    }
  }
  return { sent, stalled: false };
}

describe('ttrpc flow control', () => {
  it('keeps a server within 64 MiB while a peer floods it with requests and never reads the answers', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'flood-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const socketPath = path.join(dir, 's.sock');
    const child = spawn(
      process.execPath,
      ['--import', import.meta.resolve('tsx'), '--expose-gc', path.join(here, 'flood-server.ts'), socketPath],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    cleanups.push(() => child.kill('SIGKILL'));
    let out = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString()));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', () => out.includes('ready') && resolve());
      child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
    });

    const sock = net.connect(socketPath);
    sock.on('error', () => undefined);
    sock.pause(); // never read an answer
    await new Promise((r) => sock.once('connect', r));
    const result = await flood(sock, 512 * MiB, 1500);

    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    child.kill('SIGTERM');
    await exited;
    sock.destroy();
    // What the server held while the flood stood stalled, against what it held when ready.
    const { ready, now } = JSON.parse(out.slice(out.indexOf('{'))) as { ready: number; now: number };
    // The server stopped reading: the flood stalled long before it was all sent.
    expect(result.stalled).toBe(true);
    expect(result.sent).toBeLessThan(BOUND);
    expect(now - ready).toBeLessThan(BOUND);
  }, 60_000);

  it('handles at most maxInFlight requests at once on a connection and reads the rest as calls finish', async () => {
    const gates: Array<() => void> = [];
    let running = 0;
    let most = 0;
    const server = new TtrpcServer({ maxInFlight: 2 });
    server.register('s', 'Wait', async (p) => {
      most = Math.max(most, ++running);
      await new Promise<void>((r) => gates.push(r));
      running--;
      return p;
    });
    const l = await listen(server);
    cleanups.push(() => l.close());
    const client = new TtrpcClient(await connectRaw(l.path));
    cleanups.push(() => client.close());
    const calls = Array.from({ length: 5 }, (_, i) =>
      client.call('s', 'Wait', Buffer.from([i]), { timeoutMs: 10_000 }),
    );
    await new Promise((r) => setTimeout(r, 200));
    expect(running).toBe(2);
    while (gates.length > 0 || running > 0) {
      gates.shift()?.();
      await new Promise((r) => setTimeout(r, 20));
    }
    expect((await Promise.all(calls)).map((b) => b[0])).toEqual([0, 1, 2, 3, 4]);
    expect(most).toBe(2);
  });

  it('fails a call at once with ResourceExhausted when maxInFlight calls already wait for a peer that does not answer', async () => {
    const peer = await rawPeer();
    cleanups.push(() => peer.close());
    const client = new TtrpcClient(await connectRaw(peer.path), { maxInFlight: 3 });
    cleanups.push(() => client.close());
    const waiting = Array.from({ length: 3 }, () =>
      client.call('s', 'M', Buffer.alloc(1), { timeoutMs: 300 }).catch((e: unknown) => e),
    );
    const refused = deferred<unknown>();
    client.call('s', 'M', Buffer.alloc(1), { timeoutMs: 300 }).then(
      (v) => refused.resolve(v),
      (e: unknown) => refused.resolve(e),
    );
    const err = await refused.promise;
    expect(err).toBeInstanceOf(TtrpcError);
    expect((err as TtrpcError).code).toBe(Code.ResourceExhausted);
    // The three in flight end with their own deadlines, not with a hang.
    for (const e of await Promise.all(waiting)) expect((e as TtrpcError).code).toBe(Code.DeadlineExceeded);
  });
});
