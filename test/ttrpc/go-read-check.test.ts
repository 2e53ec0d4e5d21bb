// The strict Go framing rule of the ttrpc reader (goReadCapacity: what a Go peer could
// take next, read off the frame decoder's position) against the Go reader of test/go-peer
// (written apart from it, step for step after bufio.Reader and the mux's conn.Read): for
// any messages cut into any frames, both must refuse the same frame, or neither.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FrameDecoder } from '../../src/ttrpc/frame.js';
import { goReadCapacity } from '../../src/ttrpc/frame-reader.js';
import { GoMuxConn, type GoMux } from '../go-peer/go-mux.js';
import { GoChannel } from '../go-peer/go-ttrpc.js';

function message(bodyLength: number, streamId: number): Buffer {
  const m = Buffer.alloc(10 + bodyLength, streamId & 0xff);
  m.writeUInt32BE(bodyLength, 0);
  m.writeUInt32BE(streamId, 4);
  m[8] = 1;
  m[9] = 0;
  return m;
}

/** Cuts the stream at the given offsets (sorted, deduplicated, inside the stream). */
function cut(stream: Buffer, at: number[]): Buffer[] {
  const points = [...new Set(at.map((a) => a % (stream.length + 1)))].sort((a, b) => a - b);
  const frames: Buffer[] = [];
  let prev = 0;
  for (const p of [...points, stream.length]) {
    if (p > prev) frames.push(stream.subarray(prev, p));
    prev = Math.max(prev, p);
  }
  return frames;
}

/** Index of the first frame the Go reader model refuses, or -1. */
async function goRefuses(frames: Buffer[], messages: number): Promise<number> {
  const mux = { enomem: [] as unknown[], writeFrame: () => undefined } as unknown as GoMux;
  const conn = new GoMuxConn(1, mux);
  for (const f of frames) conn.deliver(Buffer.from(f));
  const ch = new GoChannel(conn);
  try {
    for (let i = 0; i < messages; i++) await ch.recv();
  } catch {
    return frames.length - conn.queued - 1; // the frame just taken was refused
  }
  return -1;
}

/** A reader with the rule: the capacity a Go peer offers for each frame, then the frame decoded. */
function strictReader(): { push(frame: Buffer): number | undefined } {
  const decoder = new FrameDecoder();
  return {
    push(frame) {
      const capacity = goReadCapacity(decoder);
      if (frame.length > capacity) return capacity;
      decoder.push(Buffer.from(frame));
      return undefined;
    },
  };
}

function checkRefuses(frames: Buffer[]): number {
  const reader = strictReader();
  return frames.findIndex((f) => reader.push(f) !== undefined);
}

describe('goReadCapacity', () => {
  it('takes what a Go writer sends and refuses a message in one frame over 4096 bytes', () => {
    const r = strictReader();
    const big = message(10_000, 1);
    expect(r.push(big.subarray(0, 4096))).toBeUndefined();
    // The rest of the body, 5914 bytes, is read straight into a buffer of its size.
    expect(r.push(big.subarray(4096))).toBeUndefined();
    expect(r.push(Buffer.concat([message(100, 3), message(200, 5)]))).toBeUndefined();
    expect(strictReader().push(message(5000, 1))).toBe(4096);
  });

  it('agrees with the Go reader model on any messages cut into any frames', async () => {
    const seen = { refused: 0, read: 0 };
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(fc.integer({ min: 0, max: 300 }), fc.integer({ min: 3000, max: 20_000 })), {
          minLength: 1,
          maxLength: 6,
        }),
        fc.array(fc.nat(), { maxLength: 12 }),
        async (bodies, cuts) => {
          const stream = Buffer.concat(bodies.map((b, i) => message(b, 2 * i + 1)));
          const frames = cut(stream, cuts);
          const refused = checkRefuses(frames);
          expect(refused).toBe(await goRefuses(frames, bodies.length));
          seen[refused === -1 ? 'read' : 'refused']++;
        },
      ),
      { numRuns: 400 },
    );
    // Both outcomes were exercised, so the agreement says something.
    expect(seen.refused).toBeGreaterThan(40);
    expect(seen.read).toBeGreaterThan(40);
  });
});
