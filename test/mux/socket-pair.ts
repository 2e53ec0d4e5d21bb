import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export interface SocketPair {
  /** The side that dialled. */
  client: net.Socket;
  /** The side the listener accepted. */
  server: net.Socket;
  socketPath: string;
  cleanup(): Promise<void>;
}

/** Two ends of a real unix stream connection in a fresh temporary directory. */
export async function socketPair(): Promise<SocketPair> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'mux-'));
  const socketPath = path.join(dir, 's');
  const listener = net.createServer();
  await new Promise<void>((resolve, reject) => {
    listener.once('error', reject);
    listener.listen(socketPath, resolve);
  });
  const accepted = new Promise<net.Socket>((resolve) => listener.once('connection', resolve));
  const client = net.connect(socketPath);
  await new Promise<void>((resolve, reject) => {
    client.once('connect', resolve);
    client.once('error', reject);
  });
  const server = await accepted;
  listener.close();
  return {
    client,
    server,
    socketPath,
    async cleanup() {
      client.destroy();
      server.destroy();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Resolves with everything the stream yields until it ends or fails; never rejects. */
export function collect(stream: NodeJS.ReadableStream): Promise<{ data: Buffer; error?: Error }> {
  return new Promise((resolve) => {
    const parts: Buffer[] = [];
    stream.on('data', (b: Buffer) => parts.push(b));
    stream.on('end', () => resolve({ data: Buffer.concat(parts) }));
    stream.on('error', (error: Error) => resolve({ data: Buffer.concat(parts), error }));
  });
}

/** Reads until at least n bytes arrived (then resolves with all of them so far). */
export function readBytes(stream: NodeJS.ReadableStream, n: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let got = 0;
    const onData = (b: Buffer) => {
      parts.push(b);
      got += b.length;
      if (got >= n) {
        stream.off('data', onData);
        stream.off('error', reject);
        resolve(Buffer.concat(parts));
      }
    };
    stream.on('data', onData);
    stream.once('error', reject);
  });
}

/** Deterministic bytes so a mismatch points at an offset, not at luck. */
export function pattern(length: number, seed: number): Buffer {
  const b = Buffer.allocUnsafe(length);
  let x = (seed * 2654435761) >>> 0 || 1;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    b[i] = x & 0xff;
  }
  return b;
}

export function once<T = unknown>(emitter: NodeJS.EventEmitter, event: string): Promise<T> {
  return new Promise((resolve) => emitter.once(event, (value: T) => resolve(value)));
}
