import net from 'node:net';
import type { Duplex } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import {
  EARLY_DATA_MAX_BYTES,
  EARLY_DATA_MAX_CHUNKS,
  GO_READ_BUFFER,
  MUX_PAYLOAD_MAX,
  Mux,
  MuxClosedError,
  MuxDecoder,
  MuxProtocolError,
  PLUGIN_SERVICE_CONN,
  RUNTIME_SERVICE_CONN,
  encodeMuxHeader,
  type MuxFrame,
} from '../../src/mux/index.js';
import { collect, once, pattern, readBytes, socketPair, type SocketPair } from './socket-pair.js';

let pairs: SocketPair[] = [];

/** Logical connections report the trunk's end as 'error'; real users (ttrpc) always listen. */
function sink<T extends Duplex>(conn: T): T {
  conn.on('error', () => {});
  return conn;
}
async function pair(): Promise<SocketPair> {
  const p = await socketPair();
  pairs.push(p);
  return p;
}
afterEach(async () => {
  await Promise.all(pairs.map((p) => p.cleanup()));
  pairs = [];
});

function frame(connId: number, payload: Buffer | string): Buffer {
  const body = typeof payload === 'string' ? Buffer.from(payload) : payload;
  return Buffer.concat([encodeMuxHeader(connId, body.length), body]);
}

/** Writes every chunk, waiting for 'drain' whenever write() says so. */
async function writeAll(stream: Duplex, chunks: Buffer[]): Promise<{ sawBackpressure: boolean }> {
  let sawBackpressure = false;
  for (const chunk of chunks) {
    if (!stream.write(chunk)) {
      sawBackpressure = true;
      await once(stream, 'drain');
    }
  }
  return { sawBackpressure };
}

/** Raw frames read off a socket that is not behind a Mux. */
function rawFrames(socket: net.Socket, until: (frames: MuxFrame[]) => boolean): Promise<MuxFrame[]> {
  const decoder = new MuxDecoder();
  const frames: MuxFrame[] = [];
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      frames.push(...decoder.push(chunk));
      if (until(frames)) {
        socket.off('data', onData);
        resolve(frames);
      }
    };
    socket.on('data', onData);
    socket.once('error', reject);
  });
}

function sizes(seed: number, total: number): number[] {
  // Small ttrpc-like writes mixed with large ones, one of them over the frame maximum.
  const menu = [1, 10, 73, 1500, 16 * 1024, 70_000, 300_000, MUX_PAYLOAD_MAX + 5000];
  const out: number[] = [];
  let sum = 0;
  let x = seed;
  while (sum < total) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    const n = menu[(x >>> 16) % menu.length];
    out.push(n);
    sum += n;
  }
  return out;
}

function chunksOf(data: Buffer, lengths: number[]): Buffer[] {
  const out: Buffer[] = [];
  let off = 0;
  for (const n of lengths) {
    out.push(data.subarray(off, off + n));
    off += n;
  }
  return out;
}

describe('Mux over a real unix socket', () => {
  it('carries interleaved traffic on connections 1 and 2 in both directions at once, in order', async () => {
    const p = await pair();
    const runtime = new Mux(p.server, { label: 'runtime end' });
    const plugin = new Mux(p.client, { label: 'plugin end' });
    const ends = {
      rt1: sink(runtime.open(PLUGIN_SERVICE_CONN)),
      rt2: sink(runtime.open(RUNTIME_SERVICE_CONN)),
      pl1: sink(plugin.open(PLUGIN_SERVICE_CONN)),
      pl2: sink(plugin.open(RUNTIME_SERVICE_CONN)),
    };
    const flows: Array<[Duplex, Duplex, number]> = [
      [ends.rt1, ends.pl1, 1],
      [ends.rt2, ends.pl2, 2],
      [ends.pl1, ends.rt1, 3],
      [ends.pl2, ends.rt2, 4],
    ];
    const results = await Promise.all(
      flows.map(async ([from, to, seed]) => {
        const lengths = sizes(seed, 6 * 1024 * 1024);
        const data = pattern(
          lengths.reduce((a, b) => a + b, 0),
          seed,
        );
        const received = readBytes(to, data.length);
        await writeAll(from, chunksOf(data, lengths));
        return { sent: data, got: await received };
      }),
    );
    for (const { sent, got } of results) {
      expect(got.length).toBe(sent.length);
      expect(got.equals(sent)).toBe(true);
    }
    expect(runtime.closed).toBe(false);
    expect(plugin.closed).toBe(false);
    plugin.close();
    await once(runtime, 'close');
  });

  it("frames each write as Go's 4096-byte bufio.Writer flushes it, so a Go reader can take every frame", async () => {
    const p = await pair();
    const mux = new Mux(p.client);
    const conn = sink(mux.open(PLUGIN_SERVICE_CONN));
    const sizes = [100, GO_READ_BUFFER, GO_READ_BUFFER + 1, 10_000, 2 * MUX_PAYLOAD_MAX + 123, 0, 1];
    const writes = sizes.map((n, i) => pattern(n, i + 1));
    const framesP = rawFrames(p.server, (f) => f.length === 11);
    for (const w of writes) conn.write(w);
    const frames = await framesP;
    expect(frames.map((f) => [f.connId, f.payload.length])).toEqual([
      [1, 100],
      [1, GO_READ_BUFFER],
      [1, GO_READ_BUFFER],
      [1, 1],
      [1, GO_READ_BUFFER],
      [1, 10_000 - GO_READ_BUFFER],
      // The rest of a write beyond any ttrpc message is cut at the mux maximum, as Go's mux refuses more.
      [1, GO_READ_BUFFER],
      [1, MUX_PAYLOAD_MAX],
      [1, MUX_PAYLOAD_MAX - GO_READ_BUFFER + 123],
      // Go frames an empty Write too; the reader sees a zero-length frame.
      [1, 0],
      [1, 1],
    ]);
    expect(Buffer.concat(frames.slice(6, 9).map((f) => f.payload)).equals(writes[4])).toBe(true);
    mux.close();
  });

  it('frames a direct write that leaves room for the header exactly as a plain write, the Go split included', async () => {
    const p = await pair();
    const mux = new Mux(p.client);
    const conn = sink(mux.open(PLUGIN_SERVICE_CONN));
    expect(conn.directHeadroom).toBe(8);
    const room = conn.directHeadroom;
    const writes = [100, GO_READ_BUFFER, GO_READ_BUFFER + 1, 0].map((n, i) => pattern(n, i + 1));
    // Plain writes first (5 frames: the third is split), then the same data written directly,
    // each buffer behind `room` bytes of junk the mux may overwrite.
    const framesP = rawFrames(p.server, (f) => f.length === 10);
    for (const w of writes) conn.write(w);
    await new Promise((r) => setImmediate(r));
    const roomy = writes.map((w) => Buffer.concat([Buffer.alloc(room, 0xee), w]));
    conn.writeDirect([roomy[0], roomy[1]], room);
    conn.writeDirect([roomy[2]], room);
    conn.writeDirect([roomy[3]], room);
    const frames = await framesP;
    const shape = (fs: MuxFrame[]) => fs.map((f) => [f.connId, f.payload.toString('hex')]);
    expect(shape(frames.slice(5))).toEqual(shape(frames.slice(0, 5)));
    expect(frames.slice(0, 5).map((f) => f.payload.length)).toEqual([100, GO_READ_BUFFER, GO_READ_BUFFER, 1, 0]);
    mux.close();
  });

  it('frames corked writes one by one, each in the Go shape', async () => {
    const p = await pair();
    const mux = new Mux(p.client);
    const conn = sink(mux.open(PLUGIN_SERVICE_CONN));
    const framesP = rawFrames(p.server, (f) => f.length === 4);
    conn.cork();
    for (const n of [100, 5000, 10]) conn.write(pattern(n, n & 0xff));
    conn.uncork();
    expect((await framesP).map((f) => f.payload.length)).toEqual([100, GO_READ_BUFFER, 5000 - GO_READ_BUFFER, 10]);
    mux.close();
  });

  it('keeps data that arrives before open() and delivers it on open()', async () => {
    const p = await pair();
    const mux = new Mux(p.server);
    const c1 = sink(mux.open(PLUGIN_SERVICE_CONN));
    p.client.write(Buffer.concat([frame(2, 'hello'), frame(0, 'reserved'), frame(2, ' world'), frame(1, 'ping')]));
    // Frames are handled in trunk order, so once conn 1 has its ping the earlier ones were seen.
    expect((await readBytes(c1, 4)).toString()).toBe('ping');
    const c2 = sink(mux.open(RUNTIME_SERVICE_CONN));
    expect((await readBytes(c2, 11)).toString()).toBe('hello world');
    // Conn 0 can never be opened; the Go mux drops its frames, and so do we (counted).
    expect(mux.dropped).toEqual({ frames: 1, bytes: 8 });
    expect(mux.open(RUNTIME_SERVICE_CONN)).toBe(c2);
    mux.close();
  });

  it('drops frames for a connection destroyed locally, and a reopened one gets only new data', async () => {
    const p = await pair();
    const mux = new Mux(p.server);
    const first = sink(mux.open(1));
    first.destroy();
    const c2 = sink(mux.open(2));
    p.client.write(Buffer.concat([frame(1, 'late'), frame(2, 'mark')]));
    await readBytes(c2, 4);
    expect(mux.dropped).toEqual({ frames: 1, bytes: 4 });
    const again = sink(mux.open(1));
    expect(again).not.toBe(first);
    p.client.write(frame(1, 'fresh'));
    expect((await readBytes(again, 5)).toString()).toBe('fresh');
    expect(mux.closed).toBe(false);
    mux.close();
  });

  it('closes with a protocol error when early data exceeds its byte bound', async () => {
    const p = await pair();
    const mux = new Mux(p.server, { label: 'nri.sock' });
    const c1 = collect(mux.open(1));
    const closed = once<Error>(mux, 'close');
    const slab = Buffer.alloc(1024 * 1024, 1);
    const count = Math.ceil(EARLY_DATA_MAX_BYTES / slab.length) + 1;
    p.client.on('error', () => {});
    for (let i = 0; i < count; i++) p.client.write(frame(9, slab));
    const err = await closed;
    expect(err).toBeInstanceOf(MuxProtocolError);
    expect(err.message).toMatch(/nri\.sock.*connection 9/);
    expect((await c1).error).toBe(err);
    await once(p.client, 'close');
  });

  it('closes with a protocol error when early data exceeds its chunk bound', async () => {
    const p = await pair();
    const mux = new Mux(p.server);
    const closed = once<Error>(mux, 'close');
    const frames = [];
    for (let i = 0; i <= EARLY_DATA_MAX_CHUNKS; i++) frames.push(frame(3, 'y'));
    p.client.on('error', () => {});
    p.client.write(Buffer.concat(frames));
    expect(await closed).toBeInstanceOf(MuxProtocolError);
  });

  it('a trunk that ends mid-frame fails every connection with a protocol error', async () => {
    const p = await pair();
    const mux = new Mux(p.client);
    const c1 = collect(mux.open(1));
    const c2 = collect(mux.open(2));
    const closed = once<Error>(mux, 'close');
    p.server.end(Buffer.concat([frame(2, 'whole'), encodeMuxHeader(1, 100), Buffer.alloc(50)]));
    const err = await closed;
    expect(err).toBeInstanceOf(MuxProtocolError);
    expect(err.message).toContain('middle of a frame');
    const [r1, r2] = await Promise.all([c1, c2]);
    expect(r1.error).toBe(err);
    expect(r2.error).toBe(err);
    expect(r2.data.toString()).toBe('whole');
  });

  it('a trunk that ends at a frame boundary fails every connection with MuxClosedError', async () => {
    const p = await pair();
    const mux = new Mux(p.client);
    const c1 = collect(mux.open(1));
    const c2 = collect(mux.open(2));
    const closed = once<Error | undefined>(mux, 'close');
    p.server.end(frame(1, 'bye'));
    expect(await closed).toBeUndefined();
    const [r1, r2] = await Promise.all([c1, c2]);
    expect(r1.data.toString()).toBe('bye');
    expect(r1.error).toBeInstanceOf(MuxClosedError);
    expect((r1.error as MuxClosedError).connId).toBe(1);
    expect(r2.error).toBeInstanceOf(MuxClosedError);
    expect(mux.closed).toBe(true);
  });

  it('the peer closing mid-stream fails writers and readers on both connections', async () => {
    const p = await pair();
    const writer = new Mux(p.client);
    const reader = new Mux(p.server);
    const w1 = sink(writer.open(1));
    const w2 = sink(writer.open(2));
    const w2result = collect(w2);
    const r1 = sink(reader.open(1));
    sink(reader.open(2));
    const writerClosed = once<Error | undefined>(writer, 'close');
    // Close the reading side after the first megabyte while the writer is still going.
    readBytes(r1, 1024 * 1024).then(
      () => reader.close(),
      () => {},
    );
    const writeErr = await new Promise<Error | undefined>((resolve) => {
      w1.on('error', resolve);
      const chunk = Buffer.alloc(64 * 1024, 5);
      const pump = () => {
        while (w1.write(chunk));
        w1.once('drain', pump);
      };
      pump();
    });
    await writerClosed;
    expect(writer.closed).toBe(true);
    expect(writeErr).toBeInstanceOf(Error);
    expect((await w2result).error).toBeInstanceOf(Error);
    expect(() => writer.open(1)).toThrow(MuxClosedError);
  });

  it('a trunk error reaches every connection as MuxClosedError carrying the cause', async () => {
    const p = await pair();
    const mux = new Mux(p.client, { label: 'plugin 10-logger' });
    const c1 = collect(mux.open(1));
    const c2 = collect(mux.open(2));
    const boom = new Error('boom');
    p.client.destroy(boom);
    const [r1, r2] = await Promise.all([c1, c2]);
    expect(r1.error).toBeInstanceOf(MuxClosedError);
    expect(r1.error?.message).toContain('plugin 10-logger');
    expect(r1.error?.cause).toBe(boom);
    expect(r2.error).toBe(r1.error);
  });

  it('ending one logical connection leaves the trunk and the other connection working', async () => {
    const p = await pair();
    const a = new Mux(p.client);
    const b = new Mux(p.server);
    const a1 = sink(a.open(1));
    const a2 = sink(a.open(2));
    const b1 = sink(b.open(1));
    const b2 = sink(b.open(2));
    a1.end();
    await once(a1, 'finish');
    a2.write('still here');
    expect((await readBytes(b2, 10)).toString()).toBe('still here');
    // Ending only stopped a1's writing; it still reads (Go has no half-close signal to send).
    b1.write('answer');
    expect((await readBytes(a1, 6)).toString()).toBe('answer');
    expect(a.closed).toBe(false);
    expect(b.closed).toBe(false);
    expect(p.client.destroyed).toBe(false);
    a.close();
    await once(b, 'close');
  });

  it('a clean close() flushes what was written before it', async () => {
    const p = await pair();
    const a = new Mux(p.client);
    const b = new Mux(p.server);
    const data = pattern(3 * 1024 * 1024, 11);
    const received = collect(b.open(1));
    const a1 = sink(a.open(1));
    a1.on('error', () => {});
    a1.write(data);
    const aClosed = once<Error | undefined>(a, 'close');
    a.close();
    expect(await aClosed).toBeUndefined();
    const r = await received;
    expect(r.data.equals(data)).toBe(true);
    expect(r.error).toBeInstanceOf(MuxClosedError);
  });

  it('destroy() tears the trunk down at once when the peer stopped reading; close() would wait its grace period', async () => {
    const { client, server } = await pair();
    server.pause(); // the peer stops reading
    const mux = new Mux(client);
    const conn = sink(mux.open(PLUGIN_SERVICE_CONN));
    // More than the kernel's buffers take: the rest waits in the socket for a reader that never comes.
    const chunk = Buffer.alloc(64 * 1024, 1);
    for (let i = 0; i < 64; i++) conn.write(chunk);
    await new Promise((r) => setTimeout(r, 50));
    expect(client.writableLength).toBeGreaterThan(0);
    const closed = once(client, 'close');
    const started = Date.now();
    mux.destroy();
    await closed;
    // Against close()'s grace period (END_GRACE_MS, 5 s): half of it is well past "at once".
    expect(Date.now() - started).toBeLessThan(2500);
    expect(mux.closed).toBe(true);
  });

  it('respects backpressure: a slow reader pauses the trunk and the writer waits for drain', async () => {
    const p = await pair();
    const a = new Mux(p.client);
    const b = new Mux(p.server);
    const a1 = sink(a.open(1));
    const b1 = sink(b.open(1)); // not read yet
    // Three times what the buffers on the way may hold (the reader's bound below; the writer
    // stalls after 256 KiB): a writer that does not stall sends it all.
    const total = 16 * 1024 * 1024;
    const data = pattern(total, 12);
    let sent = 0;
    const writing = (async () => {
      const chunks = chunksOf(data, new Array(total / (64 * 1024)).fill(64 * 1024));
      let sawBackpressure = false;
      for (const chunk of chunks) {
        sent += chunk.length;
        if (!a1.write(chunk)) {
          sawBackpressure = true;
          await once(a1, 'drain');
        }
      }
      return sawBackpressure;
    })();
    // Give the writer many turns; with nobody reading it must stall, not buffer everything.
    for (let i = 0; i < 200; i++) await new Promise((r) => setImmediate(r));
    expect(sent).toBeLessThan(total);
    expect(b1.readableLength).toBeLessThan(MUX_PAYLOAD_MAX + 1024 * 1024);
    const got = await readBytes(b1, total);
    expect(await writing).toBe(true);
    expect(got.equals(data)).toBe(true);
    a.close();
  });

  it('writeDirect and a reader handed frames at once keep the same backpressure: a reader that pauses stalls the writer, which waits for drain', async () => {
    const p = await pair();
    const a = new Mux(p.client);
    const b = new Mux(p.server);
    const a1 = sink(a.open(1));
    const b1 = sink(b.open(1));
    // As above: the writer stalls some 400 KiB after the reader's 1 MiB, short of it all.
    const total = 16 * 1024 * 1024;
    const data = pattern(total, 13);
    const got: Buffer[] = [];
    let gotBytes = 0;
    // A flowing reader (frames reach it straight from the mux) that stops after 1 MiB.
    b1.on('data', (chunk: Buffer) => {
      got.push(chunk);
      gotBytes += chunk.length;
      if (gotBytes >= 1024 * 1024 && gotBytes - chunk.length < 1024 * 1024) b1.pause();
    });
    let sent = 0;
    const writing = (async () => {
      let sawBackpressure = false;
      for (const chunk of chunksOf(data, new Array(total / (64 * 1024)).fill(64 * 1024))) {
        sent += chunk.length;
        if (!a1.writeDirect([chunk])) {
          sawBackpressure = true;
          await once(a1, 'drain');
        }
      }
      return sawBackpressure;
    })();
    for (let i = 0; i < 200; i++) await new Promise((r) => setImmediate(r));
    expect(b1.isPaused()).toBe(true);
    expect(sent).toBeLessThan(total);
    expect(b1.readableLength).toBeLessThan(MUX_PAYLOAD_MAX + 1024 * 1024);
    b1.resume();
    expect(await writing).toBe(true);
    while (gotBytes < total) await new Promise((r) => setImmediate(r));
    expect(Buffer.concat(got).equals(data)).toBe(true);
    a.close();
  });

  it('writeDirect keeps the order of writes made through write(), corked or not, and drops the room it was given when it has to queue', async () => {
    const p = await pair();
    const a = new Mux(p.client);
    const b = new Mux(p.server);
    const a1 = sink(a.open(1));
    const b1 = sink(b.open(1));
    a1.write(Buffer.from('1'));
    a1.writeDirect([Buffer.from('2')]);
    a1.cork();
    a1.write(Buffer.from('3'));
    a1.writeDirect([Buffer.from('4'), Buffer.from('5')]);
    // Behind the corked write these go through the stream: without their 8 bytes of room.
    a1.writeDirect([Buffer.from('xxxxxxxx6'), Buffer.from('xxxxxxxx7')], 8);
    a1.uncork();
    a1.writeDirect([Buffer.from('8')]);
    a1.writeDirect([Buffer.from('xxxxxxxx9')], 8);
    expect((await readBytes(b1, 9)).toString()).toBe('123456789');
    a.close();
    // On a closed trunk a direct write fails the connection as write() does.
    const failed = once<Error>(a1, 'error');
    expect(a1.writeDirect([Buffer.from('0')])).toBe(false);
    expect(await failed).toBeInstanceOf(MuxClosedError);
  });

  it('refuses ids outside 1..2^32-1, returns the live connection on reopen, fails writes after close', async () => {
    const p = await pair();
    const mux = new Mux(p.client);
    expect(() => mux.open(0)).toThrow(RangeError);
    expect(() => mux.open(1.5)).toThrow(RangeError);
    expect(() => mux.open(2 ** 32)).toThrow(RangeError);
    const c = sink(mux.open(1));
    expect(mux.open(1)).toBe(c);
    const result = collect(c);
    mux.close();
    expect((await result).error).toBeInstanceOf(MuxClosedError);
    expect(() => mux.open(2)).toThrow(MuxClosedError);
  });
});
