// The shared length-prefix decoder with a format of its own (a 2-byte tag, then the
// length at offset 2): what ttrpc and the mux rely on, whatever their headers look like.
import { describe, expect, it } from 'vitest';
import { LengthPrefixDecoder } from '../../src/framing/index.js';

class Refused extends Error {}

/** Tag 7 is skipped, tag 0xffff refused. */
class TagDecoder extends LengthPrefixDecoder<number, { tag: number; payload: string; skipped: boolean }> {
  constructor() {
    super(6, 2);
  }
  protected readHeader(bytes: Buffer, offset: number, length: number): number {
    const tag = bytes.readUInt16BE(offset);
    if (tag === 0xffff) throw new Refused(`tag ${tag}, length ${length}`);
    return tag;
  }
  protected skips(tag: number): boolean {
    return tag === 7;
  }
  protected frameOf(tag: number, payload: Buffer, skipped: boolean) {
    return { tag, payload: payload.toString(), skipped };
  }
}

function frame(tag: number, payload: string): Buffer {
  const b = Buffer.alloc(6 + payload.length);
  b.writeUInt16BE(tag, 0);
  b.writeUInt32BE(payload.length, 2);
  b.write(payload, 6);
  return b;
}

describe('LengthPrefixDecoder', () => {
  const stream = Buffer.concat([frame(1, 'hello'), frame(2, ''), frame(7, 'skipped!'), frame(3, 'x'.repeat(600))]);

  it('reads the length where the format says, whole or byte by byte alike', () => {
    const whole = new TagDecoder().push(stream);
    expect(whole.map((f) => [f.tag, f.payload.length, f.skipped])).toEqual([
      [1, 5, false],
      [2, 0, false],
      [7, 0, true],
      [3, 600, false],
    ]);
    const d = new TagDecoder();
    const bytewise = [];
    for (let i = 0; i < stream.length; i++) bytewise.push(...d.push(stream.subarray(i, i + 1)));
    expect(bytewise).toEqual(whole);
    expect(d.midFrame).toBe(false);
    expect(d.buffered).toBe(0);
  });

  it('says where it is: inside a header, or how much payload is still to come', () => {
    const d = new TagDecoder();
    d.push(frame(1, 'hello').subarray(0, 3));
    expect([d.midFrame, d.payloadRemaining]).toEqual([true, 0]);
    d.push(frame(1, 'hello').subarray(3, 8));
    expect([d.midFrame, d.payloadRemaining]).toEqual([true, 3]);
    d.push(Buffer.concat([frame(1, 'hello').subarray(8), frame(7, 'abcdef').subarray(0, 8)]));
    // A skipped payload counts too: its bytes are still to come, though not kept.
    expect([d.midFrame, d.payloadRemaining, d.buffered]).toEqual([true, 4, 0]);
  });

  it('stays failed with the format’s own error once a header is refused', () => {
    const d = new TagDecoder();
    expect(() => d.push(Buffer.concat([frame(1, 'ok'), frame(0xffff, 'no')]))).toThrow(Refused);
    expect(() => d.push(frame(1, 'again'))).toThrow(/tag 65535, length 2/);
    expect(d.buffered).toBe(0);
  });

  // Whole frames in one chunk are read in place, anything else goes through the queue:
  // every way of cutting the same stream must give the same frames and the same state.
  it('gives the same frames however the stream is cut, in place or queued', () => {
    let seed = 7;
    const random = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let round = 0; round < 300; round++) {
      const frames = Array.from({ length: 1 + random(8) }, () =>
        frame([1, 2, 7][random(3)], 'p'.repeat([0, 1, 5, 511, 600, 2000][random(6)])),
      );
      const bytes = Buffer.concat(frames);
      // One byte at a time never holds a whole header in one chunk: the queue alone.
      const byByte = new TagDecoder();
      const expected = [...bytes].flatMap((_, i) => byByte.push(bytes.subarray(i, i + 1)));
      expect(new TagDecoder().push(bytes)).toEqual(expected);
      const d = new TagDecoder();
      const got = [];
      for (let at = 0; at < bytes.length;) {
        const n = 1 + random([3, 7, 64, 700, 5000][random(5)]);
        got.push(...d.push(bytes.subarray(at, at + n)));
        at += n;
      }
      expect(got).toEqual(expected);
      expect([d.midFrame, d.buffered, d.payloadRemaining]).toEqual([false, 0, 0]);
    }
  });
});
