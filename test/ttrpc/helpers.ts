// Real unix sockets in a temporary directory for the ttrpc tests.
import net from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  TtrpcClient,
  type ServerConnection,
  type TtrpcClientOptions,
  type TtrpcServer,
} from '../../src/ttrpc/index.js';

export interface Listening {
  path: string;
  /** Every connection the server accepted, in order. */
  served: ServerConnection[];
  /** Resolves with the next accepted connection. */
  nextServed(): Promise<ServerConnection>;
  close(): Promise<void>;
}

export async function listen(server: TtrpcServer): Promise<Listening> {
  const dir = await mkdtemp(join(tmpdir(), 'ttrpc-'));
  const path = join(dir, 's.sock');
  const served: ServerConnection[] = [];
  const waiting: Array<(c: ServerConnection) => void> = [];
  const sockets = new Set<net.Socket>();
  const srv = net.createServer((sock) => {
    sockets.add(sock);
    sock.on('close', () => sockets.delete(sock));
    const conn = server.serve(sock);
    served.push(conn);
    waiting.shift()?.(conn);
  });
  await new Promise<void>((resolve, reject) => {
    srv.once('error', reject);
    srv.listen(path, resolve);
  });
  return {
    path,
    served,
    nextServed: () => new Promise((resolve) => waiting.push(resolve)),
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => srv.close(() => resolve()));
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export async function connectRaw(path: string): Promise<net.Socket> {
  const sock = net.connect(path);
  await new Promise<void>((resolve, reject) => {
    sock.once('connect', resolve);
    sock.once('error', reject);
  });
  return sock;
}

export async function connectClient(path: string, opts?: TtrpcClientOptions): Promise<TtrpcClient> {
  return new TtrpcClient(await connectRaw(path), opts);
}

/** A raw listening socket for tests that play a misbehaving peer by hand. */
export async function rawPeer(): Promise<{ path: string; accepted: Promise<net.Socket>; close(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'ttrpc-raw-'));
  const path = join(dir, 's.sock');
  let onAccept!: (s: net.Socket) => void;
  const accepted = new Promise<net.Socket>((resolve) => (onAccept = resolve));
  const sockets: net.Socket[] = [];
  const srv = net.createServer((s) => {
    sockets.push(s);
    s.on('error', () => {});
    onAccept(s);
  });
  await new Promise<void>((resolve) => srv.listen(path, resolve));
  return {
    path,
    accepted,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => srv.close(() => resolve()));
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export function once<T = unknown>(emitter: NodeJS.EventEmitter, event: string): Promise<T> {
  return new Promise((resolve) => emitter.once(event, (v: T) => resolve(v)));
}

export function deferred<T>(): { promise: Promise<T>; resolve(v: T): void; reject(e: unknown): void } {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
