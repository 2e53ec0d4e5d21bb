import { describe, expect, it } from 'vitest';
import {
  FrameDecoder,
  HEADER_LENGTH,
  MESSAGE_LENGTH_MAX,
  MessageType,
  TtrpcProtocolError,
  decodeHeader,
  encodeFrame,
} from '../../src/ttrpc/index.js';

describe('encodeFrame', () => {
  it('writes the 10-byte big-endian header before the data', () => {
    const f = encodeFrame(0x01020304, MessageType.Response, Buffer.from('abc'), 0x05);
    expect([...f]).toEqual([0, 0, 0, 3, 1, 2, 3, 4, 2, 5, 0x61, 0x62, 0x63]);
    expect(decodeHeader(f)).toEqual({ length: 3, streamId: 0x01020304, type: 2, flags: 5 });
  });

  it('reads stream ids and lengths above 2^31 as unsigned', () => {
    const h = decodeHeader(Buffer.from([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe, 1, 0]));
    expect(h.length).toBe(0xffffffff);
    expect(h.streamId).toBe(0xfffffffe);
  });

  it('has the containerd/ttrpc constants', () => {
    expect(HEADER_LENGTH).toBe(10);
    expect(MESSAGE_LENGTH_MAX).toBe(4 * 1024 * 1024);
    expect([MessageType.Request, MessageType.Response, MessageType.Data]).toEqual([1, 2, 3]);
  });
});

describe('FrameDecoder', () => {
  const frames = [
    encodeFrame(1, MessageType.Request, Buffer.from('first')),
    encodeFrame(3, MessageType.Request, Buffer.alloc(0)),
    encodeFrame(5, MessageType.Data, Buffer.alloc(700, 7), 1),
    encodeFrame(7, MessageType.Response, Buffer.from('last')),
  ];
  const all = Buffer.concat(frames);

  it('returns every frame of one chunk', () => {
    const out = new FrameDecoder().push(all);
    expect(out.map((f) => f.header.streamId)).toEqual([1, 3, 5, 7]);
    expect(out[0].payload.toString()).toBe('first');
    expect(out[1].payload.length).toBe(0);
    expect(out[2].header.flags).toBe(1);
    expect(out[2].payload.equals(Buffer.alloc(700, 7))).toBe(true);
  });

  it('gives the same frames whatever the split point', () => {
    for (let cut = 0; cut <= all.length; cut++) {
      const d = new FrameDecoder();
      const out = [...d.push(all.subarray(0, cut)), ...d.push(all.subarray(cut))];
      expect(out.map((f) => f.payload.toString('hex'))).toEqual(
        frames.map((f) => f.subarray(HEADER_LENGTH).toString('hex')),
      );
      expect(d.buffered).toBe(0);
    }
  });

  it('assembles a frame fed one byte at a time', () => {
    const big = encodeFrame(9, MessageType.Response, Buffer.from(Array.from({ length: 50_000 }, (_, i) => i & 0xff)));
    const d = new FrameDecoder();
    const out = [];
    for (let i = 0; i < big.length; i++) out.push(...d.push(big.subarray(i, i + 1)));
    expect(out).toHaveLength(1);
    expect(out[0].payload.equals(big.subarray(HEADER_LENGTH))).toBe(true);
  });

  it('keeps earlier payload views intact while later small chunks arrive', () => {
    const d = new FrameDecoder();
    const first = d.push(Buffer.concat([encodeFrame(1, MessageType.Request, Buffer.from('aa')), Buffer.from([0, 0])]));
    d.push(Buffer.from([0, 2, 0, 0, 0, 3, 1, 0]));
    const second = d.push(Buffer.from('bb'));
    expect(first[0].payload.toString()).toBe('aa');
    expect(second[0].payload.toString()).toBe('bb');
  });

  it('throws TtrpcProtocolError on a length over the limit, before receiving the body', () => {
    const d = new FrameDecoder({ maxMessageLength: 100 });
    const header = Buffer.from([0, 0, 0, 101, 0, 0, 0, 1, 1, 0]);
    expect(() => d.push(header)).toThrow(TtrpcProtocolError);
    expect(() => d.push(header)).toThrow(/exceeds the maximum message size of 100/);
    expect(d.buffered).toBe(0);
  });

  it('does not wait for or allocate a 4 GiB body announced by a header', () => {
    const d = new FrameDecoder({ oversize: 'skip' });
    expect(() => d.push(Buffer.from([0xff, 0xff, 0xff, 0xff, 0, 0, 0, 1, 1, 0]))).toThrow(TtrpcProtocolError);
  });

  it('stays failed after a protocol error', () => {
    const d = new FrameDecoder();
    expect(() => d.push(Buffer.from([0, 0, 0, 0, 0, 0, 0, 1, 9, 0]))).toThrow(/unknown ttrpc message type 9/);
    expect(() => d.push(encodeFrame(1, MessageType.Request, Buffer.from('x')))).toThrow(TtrpcProtocolError);
  });

  it('passes unknown message types through when asked to', () => {
    const d = new FrameDecoder({ unknownTypes: 'pass' });
    const out = d.push(
      Buffer.concat([
        Buffer.from([0, 0, 0, 1, 0, 0, 0, 1, 0x42, 0, 0x99]),
        encodeFrame(3, MessageType.Request, Buffer.from('y')),
      ]),
    );
    expect(out.map((f) => f.header.type)).toEqual([0x42, 1]);
  });

  it('skips the body of an oversize frame and carries on with the next one', () => {
    const d = new FrameDecoder({ maxMessageLength: 16, oversize: 'skip' });
    const stream = Buffer.concat([
      encodeFrame(1, MessageType.Request, Buffer.alloc(40, 1)),
      encodeFrame(3, MessageType.Request, Buffer.from('fits')),
    ]);
    const out = [];
    // across several chunks, so the skip continues into later pushes
    for (let i = 0; i < stream.length; i += 7) out.push(...d.push(stream.subarray(i, i + 7)));
    expect(out).toHaveLength(2);
    expect(out[0]).toMatchObject({ oversize: true, header: { streamId: 1, length: 40 } });
    expect(out[0].payload.length).toBe(0);
    expect(out[1].payload.toString()).toBe('fits');
    expect(d.buffered).toBe(0);
  });

  it('holds no more than one frame plus one chunk', () => {
    const d = new FrameDecoder({ maxMessageLength: 1000 });
    d.push(Buffer.from([0, 0, 3, 0xe8, 0, 0, 0, 1, 1, 0]));
    for (let i = 0; i < 999; i++) d.push(Buffer.from([i & 0xff]));
    expect(d.buffered).toBe(999);
    expect(d.push(Buffer.from([1]))).toHaveLength(1);
    expect(d.buffered).toBe(0);
  });
});
