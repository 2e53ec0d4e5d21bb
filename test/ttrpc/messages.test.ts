import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  FrameDecoder,
  MessageType,
  TtrpcProtocolError,
  decodeRequest,
  decodeResponse,
  encodeRequest,
  encodeResponse,
  type DecodedFrame,
} from '../../src/ttrpc/index.js';
import { nriV061, type NriV061File } from '../fixtures/index.js';

/** The ttrpc frames of one captured direction, per mux connection (the 8-byte mux header parsed inline). */
function capturedFrames(file: NriV061File): Map<number, DecodedFrame[]> {
  const bytes = readFileSync(nriV061(file));
  const decoders = new Map<number, FrameDecoder>();
  const out = new Map<number, DecodedFrame[]>();
  for (let off = 0; off < bytes.length;) {
    const conn = bytes.readUInt32BE(off);
    const len = bytes.readUInt32BE(off + 4);
    const payload = bytes.subarray(off + 8, off + 8 + len);
    off += 8 + len;
    if (!decoders.has(conn)) decoders.set(conn, new FrameDecoder());
    out.set(conn, [...(out.get(conn) ?? []), ...decoders.get(conn)!.push(payload)]);
  }
  return out;
}

describe('messages against the Go NRI v0.6.1 captures', () => {
  it('decodes the plugin RegisterPlugin request and re-encodes it to the same bytes', () => {
    const frames = capturedFrames('session-2-plugin2rt.bin').get(2)!;
    const reqs = frames.filter((f) => f.header.type === MessageType.Request);
    expect(reqs.map((f) => f.header.streamId)).toEqual([1, 3]);
    const reg = decodeRequest(reqs[0].payload);
    expect(reg).toMatchObject({
      service: 'nri.pkg.api.v1alpha1.Runtime',
      method: 'RegisterPlugin',
      timeoutNano: 1999651784,
      metadata: [],
    });
    expect(reg.payload.length).toBe(13);
    expect(Buffer.from(encodeRequest(reg)).equals(reqs[0].payload)).toBe(true);
    const upd = decodeRequest(reqs[1].payload);
    expect(upd).toMatchObject({ method: 'UpdateContainers', timeoutNano: 0 });
    expect(upd.payload.length).toBe(61);
    expect(Buffer.from(encodeRequest(upd)).equals(reqs[1].payload)).toBe(true);
  });

  it('decodes every runtime request and plugin response, and re-encodes each byte for byte', () => {
    const sessions = ['session-1', 'session-2'] as const;
    let requests = 0;
    let responses = 0;
    for (const s of sessions) {
      for (const dir of ['plugin2rt', 'rt2plugin'] as const) {
        for (const [, frames] of capturedFrames(`${s}-${dir}.bin`)) {
          for (const f of frames) {
            if (f.header.type === MessageType.Request) {
              requests++;
              const r = decodeRequest(f.payload);
              expect(r.service).toMatch(/^nri\.pkg\.api\.v1alpha1\.(Runtime|Plugin)$/);
              expect(Buffer.from(encodeRequest(r)).equals(f.payload)).toBe(true);
            } else {
              expect(f.header.type).toBe(MessageType.Response);
              responses++;
              const r = decodeResponse(f.payload);
              expect(Buffer.from(encodeResponse(r)).equals(f.payload)).toBe(true);
            }
          }
        }
      }
    }
    expect(requests).toBeGreaterThan(5);
    expect(responses).toBeGreaterThan(5);
  });

  it('reads an OK answer from the Go server as having no status', () => {
    const frames = capturedFrames('session-2-plugin2rt.bin').get(1)!;
    const configure = decodeResponse(frames[0].payload);
    expect(configure.status).toBeUndefined();
    expect([...configure.payload]).toEqual([0x10, 0x08]); // ConfigureResponse{events: 8}
  });
});

describe('message encoding', () => {
  it('encodes a request with metadata in field order', () => {
    const b = encodeRequest({
      service: 's',
      method: 'm',
      payload: Buffer.from([9]),
      timeoutNano: 300,
      metadata: [{ key: 'k', value: 'v' }],
    });
    expect([...b]).toEqual([
      0x0a, 1, 0x73, 0x12, 1, 0x6d, 0x1a, 1, 9, 0x20, 0xac, 0x02, 0x2a, 6, 0x0a, 1, 0x6b, 0x12, 1, 0x76,
    ]);
  });

  it('encodes a status code and message inside field 1', () => {
    const b = encodeResponse({ status: { code: 5, message: 'no' }, payload: Buffer.alloc(0) });
    expect([...b]).toEqual([0x0a, 6, 0x08, 5, 0x12, 2, 0x6e, 0x6f]);
    expect(decodeResponse(b)).toEqual({ status: { code: 5, message: 'no' }, payload: Buffer.alloc(0) });
  });

  it('round-trips a negative timeout and a negative status code through ten-byte varints', () => {
    const r = decodeRequest(
      encodeRequest({ service: 'a', method: 'b', payload: Buffer.alloc(0), timeoutNano: -5, metadata: [] }),
    );
    expect(r.timeoutNano).toBe(-5);
    const st = decodeResponse(encodeResponse({ status: { code: -1, message: '' }, payload: Buffer.alloc(0) }));
    expect(st.status?.code).toBe(-1);
  });

  it('skips unknown fields of every wire type', () => {
    const unknown = Buffer.from([
      0x30,
      0x96,
      0x01, // field 6 varint
      0x39,
      1,
      2,
      3,
      4,
      5,
      6,
      7,
      8, // field 7 fixed64
      0x42,
      2,
      0xaa,
      0xbb, // field 8 bytes
      0x4b,
      0x08,
      0x01,
      0x4c, // field 9 group holding a varint
      0x55,
      1,
      2,
      3,
      4, // field 10 fixed32
    ]);
    const base = encodeRequest({
      service: 'svc',
      method: 'M',
      payload: Buffer.from('p'),
      timeoutNano: 0,
      metadata: [],
    });
    const r = decodeRequest(Buffer.concat([unknown, base, unknown]));
    expect(r).toMatchObject({ service: 'svc', method: 'M', timeoutNano: 0 });
    expect(Buffer.from(r.payload).toString()).toBe('p');
  });

  it('rejects truncated and malformed messages with TtrpcProtocolError', () => {
    const good = encodeRequest({
      service: 'svc',
      method: 'M',
      payload: Buffer.from('payload'),
      timeoutNano: 7,
      metadata: [],
    });
    for (let cut = 1; cut < good.length; cut++) {
      const bad = good.subarray(0, cut);
      try {
        decodeRequest(bad);
      } catch (err) {
        expect(err).toBeInstanceOf(TtrpcProtocolError);
      }
    }
    expect(() => decodeRequest(Buffer.from([0x0a, 5, 1]))).toThrow(/runs past the end/);
    expect(() => decodeResponse(Buffer.from([0x0f]))).toThrow(TtrpcProtocolError); // wire type 7
    expect(() => decodeResponse(Buffer.from([0x00]))).toThrow(/invalid tag/);
    expect(() =>
      decodeRequest(Buffer.from([0x20, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01])),
    ).toThrow(/ten bytes/);
  });

  it('round-trips any request and response', () => {
    const text = fc.string({ unit: 'grapheme', maxLength: 40 });
    const bytes = fc.uint8Array({ maxLength: 300 }).map((a) => Buffer.from(a));
    fc.assert(
      fc.property(
        text,
        text,
        bytes,
        fc.maxSafeInteger(),
        fc.array(fc.record({ key: text, value: text }), { maxLength: 5 }),
        (service, method, payload, timeoutNano, metadata) => {
          const req = { service, method, payload, timeoutNano, metadata };
          expect(decodeRequest(encodeRequest(req))).toEqual(req);
        },
      ),
    );
    fc.assert(
      fc.property(
        fc.option(fc.record({ code: fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), message: text }), {
          nil: undefined,
        }),
        bytes,
        (status, payload) => {
          const resp = status === undefined ? { payload } : { status, payload };
          expect(decodeResponse(encodeResponse(resp))).toEqual(resp);
        },
      ),
    );
  });

  it('never throws anything but TtrpcProtocolError on random bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (b) => {
        for (const decode of [decodeRequest, decodeResponse]) {
          try {
            decode(b);
          } catch (err) {
            if (!(err instanceof TtrpcProtocolError)) throw err;
          }
        }
      }),
      { numRuns: 2000 },
    );
  });
});
