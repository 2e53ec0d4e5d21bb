// The CRI server's handlers over a real unix socket: the signal a handler is given says
// that the caller gave up, and only that (grpc-js says 'cancelled' after answered calls too).
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCriServer, openCriClient, type CriHandlers } from '../../src/cri/index.js';

const closers: Array<() => void> = [];
afterEach(() => {
  for (const c of closers.splice(0).reverse()) c();
});

const VERSION = { version: '0.1.0', runtimeName: 'test', runtimeVersion: '1', runtimeApiVersion: 'v1' };

/** A server of these handlers (Version always) on a socket in a temp dir, and a client of it. */
async function serve(handlers: CriHandlers) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cri-server-'));
  closers.push(() => rmSync(dir, { recursive: true, force: true }));
  const server = await createCriServer({ Version: async () => VERSION, ...handlers });
  closers.push(() => server.close());
  const socketPath = path.join(dir, 'cri.sock');
  const listener = net.createServer((s) => server.accept(s));
  await new Promise<void>((resolve) => listener.listen(socketPath, resolve));
  closers.push(() => listener.close());
  const client = await openCriClient({ socketPath, timeoutMs: 2000 });
  closers.push(() => client.close());
  return client;
}

describe('a handler’s signal', () => {
  it('is aborted when the caller gives up before the answer', async () => {
    let gaveUp!: () => void;
    const aborted = new Promise<void>((resolve) => (gaveUp = resolve));
    const client = await serve({
      ListPodSandbox: (_req, signal) => {
        signal.addEventListener('abort', () => gaveUp(), { once: true });
        return new Promise(() => {}); // never answers
      },
    });
    await expect(client.listPodSandbox(undefined, { timeoutMs: 100 })).rejects.toMatchObject({ code: 'no-answer' });
    await aborted;
  });

  it('is never aborted once the handler answered', async () => {
    const signals: AbortSignal[] = [];
    const client = await serve({
      ListPodSandbox: async (_req, signal) => {
        signals.push(signal);
        return { items: [] };
      },
      PodSandboxStatus: async (_req, signal) => {
        signals.push(signal);
        throw new Error('no such pod');
      },
    });
    await client.listPodSandbox();
    await expect(client.podSandboxStatus('x')).rejects.toThrow(/no such pod/);
    // grpc-js says 'cancelled' on the tick after it sent the status: before the client reads it.
    expect(signals.map((s) => s.aborted)).toEqual([false, false]);
  });
});
