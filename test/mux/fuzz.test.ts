import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import {
  MUX_HEADER_LENGTH,
  MUX_PAYLOAD_MAX,
  Mux,
  MuxClosedError,
  MuxDecoder,
  MuxProtocolError,
  encodeMuxHeader,
  type MuxFrame,
} from '../../src/mux/index.js';
import { socketPair, type SocketPair } from './socket-pair.js';

const frameArb = fc.record({
  connId: fc.oneof(fc.constantFrom(0, 1, 2), fc.integer({ min: 0, max: 0xffff_ffff })),
  payload: fc.uint8Array({ maxLength: 300 }).map((a) => Buffer.from(a)),
});

function encode(frames: Array<{ connId: number; payload: Buffer }>): Buffer {
  return Buffer.concat(frames.flatMap((f) => [encodeMuxHeader(f.connId, f.payload.length), f.payload]));
}

/** Cuts a buffer at the given (unsorted, possibly repeated) offsets. */
function split(bytes: Buffer, cuts: number[]): Buffer[] {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const pieces: Buffer[] = [];
  let from = 0;
  for (const p of [...points, bytes.length]) {
    pieces.push(bytes.subarray(from, p));
    from = p;
  }
  return pieces;
}

/** Flips, overwrites or inserts bytes; headers are where it hurts, so they get hit often. */
const mutationArb = fc.array(
  fc.record({
    at: fc.nat(),
    kind: fc.constantFrom('xor', 'set', 'insert', 'delete'),
    value: fc.integer({ min: 0, max: 255 }),
  }),
  { minLength: 1, maxLength: 6 },
);
function mutate(bytes: Buffer, mutations: Array<{ at: number; kind: string; value: number }>): Buffer {
  let out = Buffer.from(bytes);
  for (const m of mutations) {
    const at = out.length === 0 ? 0 : m.at % out.length;
    if (m.kind === 'insert') out = Buffer.concat([out.subarray(0, at), Buffer.from([m.value]), out.subarray(at)]);
    else if (out.length === 0) continue;
    else if (m.kind === 'delete') out = Buffer.concat([out.subarray(0, at), out.subarray(at + 1)]);
    else if (m.kind === 'xor') out[at] = out[at] ^ (m.value || 0x80);
    else out[at] = m.value;
  }
  return out;
}

/** Everything the decoder yields, or the one error it may throw: MuxProtocolError. */
function decodeAll(pieces: Buffer[]): { frames: MuxFrame[]; error?: unknown; midFrame: boolean } {
  const decoder = new MuxDecoder();
  const frames: MuxFrame[] = [];
  try {
    for (const piece of pieces) frames.push(...decoder.push(piece));
  } catch (error) {
    return { frames, error, midFrame: decoder.midFrame };
  }
  return { frames, midFrame: decoder.midFrame };
}

describe('MuxDecoder under fast-check', () => {
  it('round-trips any frame sequence under any split', () => {
    fc.assert(
      fc.property(fc.array(frameArb, { maxLength: 20 }), fc.array(fc.nat(), { maxLength: 30 }), (frames, cuts) => {
        const result = decodeAll(split(encode(frames), cuts));
        expect(result.error).toBeUndefined();
        expect(result.midFrame).toBe(false);
        expect(result.frames).toEqual(frames);
      }),
      { numRuns: 500 },
    );
  });

  it('on random bytes either decodes a consistent prefix or throws MuxProtocolError, nothing else', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2000 }), fc.array(fc.nat(), { maxLength: 20 }), (raw, cuts) => {
        const bytes = Buffer.from(raw);
        const result = decodeAll(split(bytes, cuts));
        if (result.error !== undefined) expect(result.error).toBeInstanceOf(MuxProtocolError);
        // What came out is exactly a prefix of the input, re-encoded.
        const consumed = encode(result.frames);
        expect(consumed.equals(bytes.subarray(0, consumed.length))).toBe(true);
        for (const f of result.frames) expect(f.payload.length).toBeLessThanOrEqual(MUX_PAYLOAD_MAX);
      }),
      { numRuns: 1000 },
    );
  });

  it('on mutated valid streams never throws anything but MuxProtocolError', () => {
    fc.assert(
      fc.property(
        fc.array(frameArb, { minLength: 1, maxLength: 10 }),
        mutationArb,
        fc.array(fc.nat(), { maxLength: 20 }),
        (frames, mutations, cuts) => {
          const bytes = mutate(encode(frames), mutations);
          const result = decodeAll(split(bytes, cuts));
          if (result.error !== undefined) expect(result.error).toBeInstanceOf(MuxProtocolError);
          const consumed = encode(result.frames);
          expect(consumed.equals(bytes.subarray(0, consumed.length))).toBe(true);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('refuses an oversize length as soon as the header is complete, without buffering', () => {
    fc.assert(
      fc.property(fc.integer({ min: MUX_PAYLOAD_MAX + 1, max: 0xffff_ffff }), fc.nat(0xffff_ffff), (length, connId) => {
        const header = Buffer.alloc(MUX_HEADER_LENGTH);
        header.writeUInt32BE(connId, 0);
        header.writeUInt32BE(length, 4);
        expect(decodeAll([header]).error).toBeInstanceOf(MuxProtocolError);
      }),
      { numRuns: 200 },
    );
  });
});

describe('a live Mux fed garbage over a unix socket', () => {
  let pairs: SocketPair[] = [];
  afterEach(async () => {
    await Promise.all(pairs.map((p) => p.cleanup()));
    pairs = [];
  });

  /**
   * Sends the bytes in pieces, then ends the trunk. The Mux must close (the trunk is gone)
   * with no error, MuxClosedError or MuxProtocolError, tell both connections, and never
   * throw out of an event handler (vitest fails the run on any uncaught exception).
   */
  async function feed(bytes: Buffer, cuts: number[]): Promise<void> {
    const p = await socketPair();
    pairs.push(p);
    const mux = new Mux(p.server, { label: 'fuzzed trunk' });
    const errors: Array<Promise<unknown>> = [1, 2].map((id) => {
      const conn = mux.open(id);
      conn.resume();
      return new Promise((resolve) => conn.once('error', resolve));
    });
    const closed = new Promise<Error | undefined>((resolve) => mux.once('close', resolve));
    p.client.on('error', () => {}); // the Mux may hang up on us mid-write
    for (const piece of split(bytes, cuts)) {
      if (p.client.destroyed) break;
      p.client.write(piece);
      await new Promise((r) => setImmediate(r));
    }
    p.client.end();
    const err = await closed;
    if (err !== undefined) expect(err).toBeInstanceOf(MuxProtocolError);
    expect(mux.closed).toBe(true);
    for (const e of await Promise.all(errors)) {
      expect(e instanceof MuxClosedError || e instanceof MuxProtocolError).toBe(true);
    }
    await new Promise((resolve) => (p.server.destroyed ? resolve(undefined) : p.server.once('close', resolve)));
  }

  it('random bytes end in a clean close', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 3000 }), fc.array(fc.nat(), { maxLength: 8 }), async (raw, cuts) => {
        await feed(Buffer.from(raw), cuts);
      }),
      { numRuns: 40 },
    );
  });

  it('mutated valid traffic ends in a clean close', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(frameArb, { minLength: 1, maxLength: 12 }),
        mutationArb,
        fc.array(fc.nat(), { maxLength: 8 }),
        async (frames, mutations, cuts) => {
          await feed(mutate(encode(frames), mutations), cuts);
        },
      ),
      { numRuns: 40 },
    );
  });
});
