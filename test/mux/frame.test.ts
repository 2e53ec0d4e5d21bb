import { describe, expect, it } from 'vitest';
import {
  MUX_HEADER_LENGTH,
  MUX_PAYLOAD_MAX,
  MuxDecoder,
  MuxProtocolError,
  PLUGIN_SERVICE_CONN,
  RUNTIME_SERVICE_CONN,
  encodeMuxHeader,
} from '../../src/mux/index.js';

function frame(connId: number, payload: Buffer): Buffer {
  return Buffer.concat([encodeMuxHeader(connId, payload.length), payload]);
}

describe('encodeMuxHeader', () => {
  it('writes conn id then length, both uint32 big-endian', () => {
    expect(encodeMuxHeader(RUNTIME_SERVICE_CONN, 76)).toEqual(Buffer.from([0, 0, 0, 2, 0, 0, 0, 76]));
    expect(encodeMuxHeader(0xa1b2c3d4, 0x00400009)).toEqual(
      Buffer.from([0xa1, 0xb2, 0xc3, 0xd4, 0x00, 0x40, 0x00, 0x09]),
    );
    expect(MUX_HEADER_LENGTH).toBe(8);
    expect(PLUGIN_SERVICE_CONN).toBe(1);
    expect(RUNTIME_SERVICE_CONN).toBe(2);
  });

  it('allows exactly the Go maximum (ttrpc header + 4 MiB) and refuses more', () => {
    expect(MUX_PAYLOAD_MAX).toBe(10 + 4 * 1024 * 1024);
    expect(encodeMuxHeader(1, MUX_PAYLOAD_MAX).readUInt32BE(4)).toBe(MUX_PAYLOAD_MAX);
    expect(() => encodeMuxHeader(1, MUX_PAYLOAD_MAX + 1)).toThrow(RangeError);
    expect(() => encodeMuxHeader(-1, 0)).toThrow(RangeError);
    expect(() => encodeMuxHeader(2 ** 32, 0)).toThrow(RangeError);
    expect(() => encodeMuxHeader(1, 1.5)).toThrow(RangeError);
  });
});

describe('MuxDecoder', () => {
  it('decodes frames whole, and byte by byte to the same result', () => {
    const stream = Buffer.concat([
      frame(2, Buffer.from('register')),
      frame(1, Buffer.alloc(0)),
      frame(1, Buffer.from('configure')),
    ]);
    const whole = new MuxDecoder().push(stream);
    expect(whole.map((f) => [f.connId, f.payload.toString()])).toEqual([
      [2, 'register'],
      [1, ''],
      [1, 'configure'],
    ]);

    // Offsets just after each frame: the only places where the decoder is not mid-frame.
    const boundaries = new Set([16, 24, 41]);
    expect(stream.length).toBe(41);
    const decoder = new MuxDecoder();
    const bytewise = [];
    for (let i = 0; i < stream.length; i++) {
      bytewise.push(...decoder.push(stream.subarray(i, i + 1)));
      expect(decoder.midFrame).toBe(!boundaries.has(i + 1));
    }
    expect(bytewise).toEqual(whole);
  });

  it('rejects a length over the maximum at the header, before any payload arrives', () => {
    const decoder = new MuxDecoder({ label: '/run/nri/nri.sock' });
    const header = Buffer.from([0, 0, 0, 1, 0xff, 0xff, 0xff, 0xff]);
    expect(decoder.push(header.subarray(0, 5))).toEqual([]);
    let caught: unknown;
    try {
      decoder.push(header.subarray(5));
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(MuxProtocolError);
    expect((caught as Error).message).toContain('/run/nri/nri.sock');
    expect((caught as Error).message).toContain('4294967295');
    // Broken for good: the stream position is lost.
    expect(() => decoder.push(frame(1, Buffer.from('x')))).toThrow(MuxProtocolError);
  });

  it('accepts a frame of exactly the maximum length', () => {
    const payload = Buffer.alloc(MUX_PAYLOAD_MAX, 7);
    const decoder = new MuxDecoder();
    const out = [
      ...decoder.push(encodeMuxHeader(1, MUX_PAYLOAD_MAX)),
      ...decoder.push(payload.subarray(0, 1000)),
      ...decoder.push(payload.subarray(1000)),
    ];
    expect(out).toHaveLength(1);
    expect(out[0].payload.equals(payload)).toBe(true);
  });

  it('passes conn id 0 and unknown ids through: routing them is the Mux’s business', () => {
    const out = new MuxDecoder().push(Buffer.concat([frame(0, Buffer.from('a')), frame(77, Buffer.from('b'))]));
    expect(out.map((f) => f.connId)).toEqual([0, 77]);
  });
});
