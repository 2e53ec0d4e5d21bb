import { Writable, Duplex } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { BatchedWriter, JOIN_MAX } from '../../src/ttrpc/batched-writer.js';

/** A stream that keeps each write it is handed, as a mux connection turns each into a frame. */
function recordingStream(): { stream: Duplex; writes: Buffer[] } {
  const writes: Buffer[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, cb) {
      writes.push(chunk);
      cb();
    },
  });
  return { stream: Duplex.from({ writable: sink, readable: undefined as never }), writes };
}

function frame(length: number, fill: number): Buffer {
  return Buffer.alloc(length, fill);
}

describe('BatchedWriter', () => {
  it("joins a tick's frames only while the join stays within a Go reader's 4096 bytes", async () => {
    const { stream, writes } = recordingStream();
    const w = new BatchedWriter(stream);
    const frames = [frame(100, 1), frame(100, 2), frame(4000, 3), frame(5000, 4), frame(10, 5), frame(10, 6)];
    for (const f of frames) w.write(f);
    expect(writes).toEqual([]); // nothing before the tick ends
    await new Promise((r) => setImmediate(r));
    expect(writes.map((b) => b.length)).toEqual([200, 4000, 5000, 20]);
    expect(Buffer.concat(writes).equals(Buffer.concat(frames))).toBe(true);
    // Only a single frame may exceed the bound, never a join.
    for (const b of writes) if (b.length > JOIN_MAX) expect(frames.some((f) => f.length === b.length)).toBe(true);
  });

  it('writes a lone frame as it is, however large', async () => {
    const { stream, writes } = recordingStream();
    const w = new BatchedWriter(stream);
    w.write(frame(70_000, 9));
    await new Promise((r) => setImmediate(r));
    expect(writes.map((b) => b.length)).toEqual([70_000]);
  });

  it('hands a stream that takes direct writes the same groups, in one call per tick, and waits for its drain', async () => {
    const { stream, writes } = recordingStream();
    const calls: number[][] = [];
    let accept = true;
    (stream as unknown as { writeDirect(w: Buffer[]): boolean }).writeDirect = (w: Buffer[]) => {
      calls.push(w.map((b) => b.length));
      writes.push(...w);
      return accept;
    };
    const blocked: boolean[] = [];
    const w = new BatchedWriter(stream, (b) => blocked.push(b));
    const frames = [frame(100, 1), frame(100, 2), frame(4000, 3), frame(5000, 4), frame(10, 5), frame(10, 6)];
    for (const f of frames) w.write(f);
    await new Promise((r) => setImmediate(r));
    expect(calls).toEqual([[200, 4000, 5000, 20]]);
    expect(Buffer.concat(writes).equals(Buffer.concat(frames))).toBe(true);
    accept = false;
    w.write(frame(10, 7));
    await new Promise((r) => setImmediate(r));
    expect(blocked).toEqual([true]);
    stream.emit('drain');
    expect(blocked).toEqual([true, false]);
  });

  it("joins frames that leave a stream's headroom free into one buffer that leaves it free too, bounded on the frames' own bytes", async () => {
    const { stream } = recordingStream();
    const calls: Array<{ lengths: number[]; headroom: number | undefined; bufs: Buffer[] }> = [];
    const direct = stream as unknown as { directHeadroom: number; writeDirect(w: Buffer[], h?: number): boolean };
    direct.directHeadroom = 8;
    direct.writeDirect = (w, h) => {
      calls.push({ lengths: w.map((b) => b.length), headroom: h, bufs: w });
      return true;
    };
    const w = new BatchedWriter(stream);
    expect(w.headroom).toBe(8);
    const roomy = (n: number, fill: number) => Buffer.concat([Buffer.alloc(8, 0xee), frame(n, fill)]);
    // 2000 + 2096 = 4096 bytes of frames: one join; the next 1 byte starts another.
    for (const [n, fill] of [
      [2000, 1],
      [2096, 2],
      [1, 3],
    ])
      w.write(roomy(n, fill));
    await new Promise((r) => setImmediate(r));
    expect(calls).toHaveLength(1);
    expect(calls[0].headroom).toBe(8);
    expect(calls[0].lengths).toEqual([8 + 4096, 8 + 1]);
    expect(calls[0].bufs[0].subarray(8).equals(Buffer.concat([frame(2000, 1), frame(2096, 2)]))).toBe(true);
  });
});
