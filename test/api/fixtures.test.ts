// Decodes the real wire captures between a Go NRI v0.6.1 runtime and Go plugins with
// our bindings, checks every payload against the reference decode in session-*.txt,
// and re-encodes each payload to the exact bytes Go wrote.
//
// The trunk and ttrpc framing are split here with a few lines of DataView code on
// purpose: this test is about the NRI payloads, and must not depend on src/mux being
// right. The ttrpc envelopes are decoded with src/ttrpc's codec.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { methodTypes, nri, type MessageClass } from '../../src/api/index.js';
import { decodeRequest, decodeResponse } from '../../src/ttrpc/index.js';
import { nriV061, nriV061Missing, type NriV061File } from '../fixtures/index.js';

const missing = nriV061Missing();
const SESSIONS = ['session-1', 'session-2'] as const;
type Direction = 'plugin2rt' | 'rt2plugin';

interface WireMessage {
  dir: Direction;
  conn: number;
  stream: number;
  type: number;
  body: Buffer;
}

/** Per direction file: strip the 8-byte trunk headers, concatenate per connection, cut 10-byte-header ttrpc messages. */
function splitCapture(file: NriV061File, dir: Direction): WireMessage[] {
  const bytes = readFileSync(nriV061(file));
  const perConn = new Map<number, Buffer[]>();
  let off = 0;
  while (off < bytes.length) {
    expect(bytes.length - off, `${file}: truncated trunk header at ${off}`).toBeGreaterThanOrEqual(8);
    const conn = bytes.readUInt32BE(off);
    const len = bytes.readUInt32BE(off + 4);
    expect(off + 8 + len, `${file}: trunk frame at ${off} overruns the file`).toBeLessThanOrEqual(bytes.length);
    if (!perConn.has(conn)) perConn.set(conn, []);
    perConn.get(conn)!.push(bytes.subarray(off + 8, off + 8 + len));
    off += 8 + len;
  }
  const out: WireMessage[] = [];
  for (const [conn, chunks] of perConn) {
    const stream = Buffer.concat(chunks);
    let p = 0;
    while (p < stream.length) {
      const length = stream.readUInt32BE(p);
      const streamId = stream.readUInt32BE(p + 4);
      const type = stream.readUInt8(p + 8);
      expect(p + 10 + length, `${file} conn ${conn}: ttrpc message at ${p} overruns the stream`).toBeLessThanOrEqual(
        stream.length,
      );
      out.push({ dir, conn, stream: streamId, type, body: stream.subarray(p + 10, p + 10 + length) });
      p += 10 + length;
    }
  }
  return out;
}

interface Expected {
  dir: Direction;
  conn: number;
  stream: number;
  type: number;
  method: string;
  payloadType: string;
  json: unknown;
}

/** The reference decode: "msg #.. dir=.. conn=N(..) stream=S type=X(n) .. method=svc/m" then "payload <type>: <json>". */
function readReference(file: NriV061File): Expected[] {
  const out: Expected[] = [];
  let head: Omit<Expected, 'payloadType' | 'json'> | undefined;
  for (const line of readFileSync(nriV061(file), 'utf8').split('\n')) {
    const m = /^msg #\d+ dir=(\w+) conn=(\d+)\(\w+\) stream=(\d+) type=\w+\((\d+)\).* method=(\S+)$/.exec(line);
    if (m) {
      head = { dir: m[1] as Direction, conn: Number(m[2]), stream: Number(m[3]), type: Number(m[4]), method: m[5] };
      continue;
    }
    const p = /^\s+payload ([\w.]+): (.*)$/.exec(line);
    if (p && head) {
      out.push({ ...head, payloadType: p[1], json: JSON.parse(p[2]) });
      head = undefined;
    }
  }
  return out;
}

// Fields whose JSON objects are maps: their keys are data, not field names.
const MAP_FIELDS = new Set([
  'labels',
  'annotations',
  'unified',
  'sysctl',
  'net_devices',
  'owners',
  'simple',
  'compound',
]);
const camel = (s: string): string => s.replace(/_([a-zA-Z])/g, (_, c: string) => c.toUpperCase());

/** proto field names -> pbjs camelCase names (NRI_version -> NRIVersion, CDI_devices -> CDIDevices). */
function toCamel(v: unknown, isMap = false): unknown {
  if (Array.isArray(v)) return v.map((x) => toCamel(x));
  if (v === null || typeof v !== 'object') return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    out[isMap ? k : camel(k)] = isMap ? toCamel(x) : toCamel(x, MAP_FIELDS.has(k));
  }
  return out;
}

const TYPE_PREFIX = 'nri.pkg.api.v1alpha1.';

interface Decoded {
  wire: WireMessage;
  call: { service: string; method: string };
  cls: MessageClass;
  payload: Buffer;
  message: unknown;
}

/** Every message of one session, decoded with the NRI type its method names. */
function decodeSession(session: (typeof SESSIONS)[number]): Decoded[] {
  const messages = [
    ...splitCapture(`${session}-plugin2rt.bin`, 'plugin2rt'),
    ...splitCapture(`${session}-rt2plugin.bin`, 'rt2plugin'),
  ];
  // Requests name the method; a response on the same connection and stream id answers it.
  const methodOf = new Map<string, { service: string; method: string }>();
  for (const m of messages) {
    if (m.type !== 1) continue;
    const req = decodeRequest(m.body);
    methodOf.set(`${m.conn}/${m.stream}`, { service: req.service, method: req.method });
  }
  return messages.map((m) => {
    const call = methodOf.get(`${m.conn}/${m.stream}`);
    if (!call) throw new Error(`${session} ${m.dir} conn ${m.conn} stream ${m.stream}: no request for this stream`);
    const types = methodTypes(call.service, call.method);
    if (!types) throw new Error(`${session}: no NRI types for ${call.service}/${call.method}`);
    const isRequest = m.type === 1;
    const payload = isRequest ? decodeRequest(m.body).payload : decodeResponse(m.body).payload;
    const cls = isRequest ? types.request : types.response;
    return { wire: m, call, cls, payload: Buffer.from(payload), message: cls.decode(payload) };
  });
}

// The captures are read in beforeAll, never while the suite is collected: a checkout
// without them then skips this suite with its reason instead of crashing collection.
describe.skipIf(missing !== undefined)(`NRI v0.6.1 wire captures${missing ? ` (skipped: ${missing})` : ''}`, () => {
  for (const session of SESSIONS) {
    describe(session, () => {
      let reference: Expected[] = [];
      let decoded: Decoded[] = [];
      beforeAll(() => {
        reference = readReference(`${session}.txt`);
        decoded = decodeSession(session);
      });

      it('splits every capture into the messages of the reference decode', () => {
        expect(reference.length).toBeGreaterThan(0);
        expect(decoded).toHaveLength(reference.length);
        // The services go the documented way: runtime -> plugin calls on conn 1, plugin -> runtime on conn 2.
        for (const d of decoded) {
          expect(d.call.service).toBe(
            d.wire.conn === 1 ? 'nri.pkg.api.v1alpha1.Plugin' : 'nri.pkg.api.v1alpha1.Runtime',
          );
        }
      });

      it('decodes every payload to what the reference decoder saw', () => {
        for (const ref of reference) {
          const d = decoded.find(
            (x) =>
              x.wire.dir === ref.dir &&
              x.wire.conn === ref.conn &&
              x.wire.stream === ref.stream &&
              x.wire.type === ref.type,
          );
          const where = `${session} ${ref.dir} conn ${ref.conn} stream ${ref.stream} ${ref.method}`;
          expect(d, where).toBeDefined();
          expect(`${d!.call.service}/${d!.call.method}`, where).toBe(ref.method);
          // Our method table picks the same message type as the reference decoder.
          const refClass = (nri as unknown as Record<string, MessageClass>)[ref.payloadType.slice(TYPE_PREFIX.length)];
          expect(d!.cls, `${where}: payload type ${ref.payloadType}`).toBe(refClass);
          const ours = d!.cls.toObject(d!.message, { longs: String, enums: String });
          expect(ours, where).toEqual(toCamel(ref.json));
        }
      });

      it('re-encodes every decoded payload to the bytes Go wrote', () => {
        for (const d of decoded) {
          const again = Buffer.from(d.cls.encode(d.message).finish());
          const where = `${session} ${d.wire.dir} ${d.call.method} stream ${d.wire.stream}`;
          if (again.equals(d.payload)) continue;
          // Go may write map entries in any order; then only the decoded messages must agree.
          expect(d.cls.toObject(d.cls.decode(again), { longs: String }), where).toEqual(
            d.cls.toObject(d.message, { longs: String }),
          );
          expect(again.length, where).toBe(d.payload.length);
        }
        const exact = decoded.filter((d) => Buffer.from(d.cls.encode(d.message).finish()).equals(d.payload)).length;
        // Decode keeps map entries in wire order and encode writes them back in that order,
        // so every payload of these captures reproduces byte for byte.
        expect(exact).toBe(decoded.length);
      });

      it('sees the v0.6.1 runtime vintage in its ConfigureRequest', () => {
        const configure = decoded.find((d) => d.call.method === 'Configure' && d.wire.type === 1)!;
        const req = configure.message as nri.ConfigureRequest;
        expect(req.registrationTimeout).toBe(0);
        expect(req.requestTimeout).toBe(0);
        expect(req.NRIVersion).toBe('');
      });
    });
  }
});
