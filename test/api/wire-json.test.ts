// JSON written straight from protobuf bytes (src/api/wire-json.ts) must be the text of the
// decoding path, byte for byte, for every input: JSON.stringify(toPlain(T.decode(bytes)),
// null, 2), at any depth; and where decoding throws, the writer throws too (the caller then
// takes the decoding path and gets its error). Randomized messages of PodSandbox and
// Container over every kind of field they have, encoded by the generated encoder, and
// the wire's odd corners written by hand: pieces concatenated (split repeated fields, a
// scalar given twice, messages merged, a map key given twice), zeros and empty strings on
// the wire, integer-like and __proto__ map keys, unknown fields of every wire type, known
// fields with the wrong wire type, packed and unpacked repeated varints, negative and
// huge 64-bit integers, unknown enum values, invalid UTF-8 anywhere, truncations and
// flipped bytes.
import { describe, expect, it } from 'vitest';
import { enums as ENUMS, messages as MESSAGES } from '../../src/api/gen/nri-json-fields.js';
import { nri, wireJsonType, WireJsonWriter, type WireJsonType } from '../../src/api/index.js';
import { protobuf } from '../../src/api/protobuf.js';
import { toPlain } from '../../src/output/format.js';
import { seededRandom } from '../../src/runtime/sim/seeded-random.js';

type Generated = {
  encode(m: object, w?: protobuf.Writer): protobuf.Writer;
  decode(b: Uint8Array): object;
};
const generated = (name: string): Generated => (nri as unknown as Record<string, Generated>)[name];

const STRINGS = [
  '',
  'a',
  'web',
  'svc-193-61acddf505-d721c',
  'x'.repeat(70), // past protobufjs's TextDecoder threshold (64)
  'quote " and backslash \\',
  'line\nbreak\ttab\r\b\f',
  '\u0000\u0001\u001f\u007f',
  'é',
  'naïve café',
  '中文字符',
  'emoji 😀 pair',
  '\u2028\u2029',
  '\ufeffbom',
  '[{"name":"http","containerPort":8080,"protocol":"TCP"}]',
  '0',
  '42',
  '-1',
];
// Map keys: a small pool, so that keys collide when pieces are concatenated; array-index
// keys (ordered first by JavaScript), near-indices that are not, and __proto__.
const KEYS = [
  'app',
  'tier',
  '',
  '__proto__',
  'constructor',
  '0',
  '1',
  '10',
  '2',
  '007',
  '4294967294',
  '4294967295',
  '-1',
  '1.5',
  'é',
  'a"b',
];

function pick<T>(r: () => number, xs: readonly T[]): T {
  return xs[Math.floor(r() * xs.length)];
}

function randomInt(r: () => number, type: string): number {
  const x = r();
  switch (type) {
    case 'int32':
      return pick(r, [0, 1, -1, 127, 128, 2147483647, -2147483648, Math.floor((x - 0.5) * 1e6)]);
    case 'uint32':
      return pick(r, [0, 1, 127, 128, 300, 4294967295, Math.floor(x * 1e9)]);
    case 'int64':
      return pick(r, [
        0,
        1,
        -1,
        2 ** 53 - 1,
        2 ** 53 + 2,
        -(2 ** 53) - 2,
        2 ** 62,
        -(2 ** 63),
        1795507850890238700,
        Math.floor((x - 0.5) * 1e15),
      ]);
    default: // uint64
      return pick(r, [0, 1, 2 ** 53 - 1, 2 ** 53 + 2, 2 ** 63, 18446744073709549568, 106954752, Math.floor(x * 1e15)]);
  }
}

/** A random object of message `name`, every field present or not, for the generated encoder. */
function randomObject(r: () => number, name: string, depth = 0): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const row of MESSAGES[name]) {
    const [, field, label, type] = row;
    if (r() < (depth > 4 ? 0.7 : 0.35)) continue;
    const one = (): unknown => randomValue(r, type, depth);
    if (label === 'repeated') out[field] = Array.from({ length: Math.floor(r() * 4) }, one);
    else if (label === 'map') {
      const m: Record<string, unknown> = {};
      for (let i = Math.floor(r() * 5); i > 0; i--)
        Object.defineProperty(m, pick(r, KEYS), { value: one(), enumerable: true, writable: true, configurable: true });
      out[field] = m;
    } else out[field] = one();
  }
  return out;
}

function randomValue(r: () => number, type: string, depth: number): unknown {
  if (type === 'string') return pick(r, STRINGS);
  if (type === 'bool') return r() < 0.7;
  if (type in ENUMS) return r() < 0.8 ? pick(r, ENUMS[type])[1] : pick(r, [99, -1, 1000]);
  if (type in MESSAGES) return randomObject(r, type, depth + 1);
  return randomInt(r, type);
}

/** The decoding path's text of a message at indentation `level`, or its error. */
function decodingPath(type: string, bytes: Uint8Array, level: number): { text?: string; error?: Error } {
  try {
    const text = JSON.stringify(toPlain(generated(type).decode(bytes)), null, 2);
    return { text: text.replaceAll('\n', `\n${'  '.repeat(level)}`) };
  } catch (error) {
    return { error: error as Error };
  }
}

const writer = new WireJsonWriter();
const types: Record<string, WireJsonType> = {};

/** The writer's text, or 'threw'. */
function written(type: string, bytes: Uint8Array, level: number): string {
  const wire = (types[type] ??= wireJsonType(type));
  try {
    writer.message(wire, bytes, level);
  } catch {
    writer.take();
    return 'threw';
  }
  return writer.take();
}

/** Same text as decoding, or both fail; `mayRefuse`: the writer may also refuse what decodes (the caller then decodes). */
function expectSame(
  type: string,
  bytes: Uint8Array,
  what: string,
  mayRefuse = false,
): 'same' | 'both threw' | 'refused' {
  const want = decodingPath(type, bytes, 2);
  const got = written(type, bytes, 2);
  if (want.error !== undefined) {
    expect(got, `${what}: decode threw ${want.error.message}, the writer did not`).toBe('threw');
    return 'both threw';
  }
  if (got === 'threw' && mayRefuse) return 'refused';
  expect(got, what).toBe(want.text);
  return 'same';
}

const encode = (type: string, obj: object): Uint8Array => generated(type).encode(obj).finish();
const concat = (...parts: Uint8Array[]): Buffer => Buffer.concat(parts);
const w = (): protobuf.Writer => protobuf.Writer.create();

/** Known fields of `type` by kind, for hand-written occurrences. */
function fieldsOf(type: string) {
  return MESSAGES[type].map((row) => ({ number: row[0], name: row[1], label: row[2], type: row[3] }));
}

/** One hand-written occurrence of a random field (or an unknown one) of `type`, as the wire can carry it. */
function oddOccurrence(r: () => number, type: string, depth = 0): Uint8Array {
  const fields = fieldsOf(type);
  const f = pick(r, fields);
  const x = w();
  const isVarint = ['bool', 'int32', 'uint32', 'int64', 'uint64'].includes(f.type) || f.type in ENUMS;
  // Most often, the odd corners of a nested message (a field, a list item or a map value), so
  // that every type within PodSandbox and Container gets them.
  const nested = fields.filter((g) => g.type in MESSAGES);
  if (depth < 6 && nested.length > 0 && r() < 0.6) {
    const g = pick(r, nested);
    const inner = concat(...Array.from({ length: 1 + Math.floor(r() * 3) }, () => oddOccurrence(r, g.type, depth + 1)));
    if (g.label === 'map')
      x.uint32((g.number << 3) | 2)
        .fork()
        .uint32((1 << 3) | 2)
        .string(pick(r, KEYS))
        .uint32((2 << 3) | 2)
        .bytes(inner)
        .ldelim();
    else x.uint32((g.number << 3) | 2).bytes(inner);
    return x.finish();
  }
  switch (Math.floor(r() * 9)) {
    case 0: // a zero or an empty string, present on the wire
      if (isVarint) x.uint32((f.number << 3) | 0).uint32(0);
      else x.uint32((f.number << 3) | 2).uint32(0);
      break;
    case 1: // the wrong wire type for a known field
      if (isVarint) x.uint32((f.number << 3) | 5).fixed32(7);
      else x.uint32((f.number << 3) | 0).uint32(5);
      break;
    case 2: // unknown fields of every wire type
      x.uint32((900 << 3) | 0).int64(-5);
      x.uint32((901 << 3) | 1).fixed64(123);
      x.uint32((902 << 3) | 2).bytes(Buffer.from([1, 2, 0xff]));
      x.uint32((903 << 3) | 5).fixed32(9);
      x.uint32((904 << 3) | 3)
        .uint32((1 << 3) | 0)
        .uint32(1)
        .uint32((904 << 3) | 4); // a group
      break;
    case 3: // an unpacked or packed run of a repeated varint, or a single varint
      if (isVarint && f.label === 'repeated') {
        if (r() < 0.5) for (const v of [1, 0, 2, 300]) x.uint32((f.number << 3) | 0).uint32(v);
        else
          x.uint32((f.number << 3) | 2)
            .fork()
            .uint32(5)
            .uint32(0)
            .uint32(1)
            .uint32(99)
            .ldelim();
      } else if (isVarint) x.uint32((f.number << 3) | 0).int64(randomInt(r, 'int64'));
      else x.uint32((f.number << 3) | 2).string(pick(r, STRINGS));
      break;
    case 4: // an empty packed run
      if (isVarint && f.label === 'repeated') x.uint32((f.number << 3) | 2).uint32(0);
      else x.uint32((f.number << 3) | 2).uint32(0);
      break;
    case 5: // a map entry with no key, no value, a key given twice, fields out of order, or an unknown field inside
      if (f.label === 'map') {
        const entry = w();
        const variant = Math.floor(r() * 4);
        if (variant >= 1) entry.uint32((2 << 3) | 2).string('v-first');
        if (variant >= 2) entry.uint32((1 << 3) | 2).string(pick(r, KEYS));
        if (variant >= 3)
          entry
            .uint32((7 << 3) | 0)
            .uint32(1)
            .uint32((1 << 3) | 2)
            .string(pick(r, KEYS));
        x.uint32((f.number << 3) | 2).bytes(entry.finish());
      }
      break;
    case 6: // a 64-bit varint of ten bytes, a negative int32, the largest values
      if (isVarint) x.uint32((f.number << 3) | 0).int64(-(2 ** 53) - pick(r, [0, 2, 4096]));
      break;
    case 7: // a nested message given twice: merged
      if (f.type in MESSAGES && f.label === '') {
        x.uint32((f.number << 3) | 2).bytes(encode(f.type, randomObject(r, f.type, 2)));
        x.uint32((f.number << 3) | 2).bytes(encode(f.type, randomObject(r, f.type, 2)));
      }
      break;
    default: // a random object's encoding, a piece of the same message
      return encode(type, randomObject(r, type, 1));
  }
  return x.finish();
}

describe('wire-json: the text of decode + toObject + JSON.stringify, from the bytes', () => {
  for (const type of ['PodSandbox', 'Container']) {
    it(`${type}: randomized messages of every field kind, encoded by the generated encoder`, () => {
      for (let seed = 1; seed <= 400; seed++) {
        const r = seededRandom(seed);
        const bytes = encode(type, randomObject(r, type));
        expect(expectSame(type, bytes, `${type} seed ${seed}`)).toBe('same');
      }
    });

    it(`${type}: the wire's odd corners, written by hand and concatenated`, () => {
      const outcomes = { same: 0, 'both threw': 0, refused: 0 };
      for (let seed = 1; seed <= 600; seed++) {
        const r = seededRandom(seed * 7919);
        const parts = Array.from({ length: 1 + Math.floor(r() * 5) }, () => oddOccurrence(r, type));
        const bytes = concat(...parts);
        outcomes[expectSame(type, bytes, `${type} odd seed ${seed}`)]++;
      }
      // A map entry whose value is not a message (a hand-written string) makes both fail; most decode.
      expect(outcomes.refused).toBe(0);
      expect(outcomes.same).toBeGreaterThan(300);
    });

    it(`${type}: invalid UTF-8 anywhere, truncations and flipped bytes fail as decode fails`, () => {
      const outcomes = { same: 0, 'both threw': 0, refused: 0 };
      for (let seed = 1; seed <= 300; seed++) {
        const r = seededRandom(seed * 104729);
        const bytes = Buffer.from(encode(type, randomObject(r, type)));
        if (bytes.length === 0) continue;
        // A string's bytes made invalid: every string field, whichever it is (a map key, an
        // overwritten one...), is where the encoder wrote one of STRINGS.
        const broken = Buffer.from(bytes);
        const at = broken.indexOf('web');
        if (at >= 0) {
          broken[at + 1] = pick(r, [0xff, 0xc3, 0xc0, 0xed, 0x80]);
          outcomes[expectSame(type, broken, `${type} invalid utf-8 seed ${seed}`)]++;
        }
        const cut = bytes.subarray(0, Math.floor(r() * bytes.length));
        outcomes[expectSame(type, cut, `${type} truncated seed ${seed}`)]++;
        const flipped = Buffer.from(bytes);
        flipped[Math.floor(r() * flipped.length)] ^= 1 << Math.floor(r() * 8);
        outcomes[expectSame(type, flipped, `${type} flipped seed ${seed}`, true)]++;
      }
      // The writer refuses nothing that decodes (it would be slower, never wrong) ...
      expect(outcomes.refused).toBe(0);
      // ... and these inputs did reach both outcomes.
      expect(outcomes['both threw']).toBeGreaterThan(50);
      expect(outcomes.same).toBeGreaterThan(50);
    });
  }

  it('invalid UTF-8 where decode reads and nothing is written: an overwritten string, a replaced map entry', () => {
    const bad = Buffer.from([0xc3]); // a lead byte with nothing after it
    const str = (n: number, b: Uint8Array) =>
      w()
        .uint32((n << 3) | 2)
        .bytes(b)
        .finish();
    const entry = (k: Uint8Array, v: Uint8Array) =>
      w()
        .uint32((5 << 3) | 2)
        .bytes(concat(str(1, k), str(2, v)))
        .finish();
    const cases = [
      concat(str(1, bad), str(1, Buffer.from('ok'))), // id: invalid, then valid
      concat(str(1, bad), str(1, Buffer.alloc(0))), // id: invalid, then empty (deleted)
      concat(entry(Buffer.from('k'), bad), entry(Buffer.from('k'), Buffer.from('v'))), // labels[k]: invalid value replaced
      concat(entry(bad, Buffer.from('v'))), // an invalid key
      concat(str(10, Buffer.from('10.0.0.1')), str(10, bad)), // ips
    ];
    for (const [i, bytes] of cases.entries()) {
      expect(() => nri.PodSandbox.decode(bytes), `case ${i}`).toThrow();
      expect(written('PodSandbox', bytes, 2), `case ${i}`).toBe('threw');
    }
  });

  it('map keys in JavaScript object order: array indices first, ascending; a repeated key keeps its place, takes the last value', () => {
    const entry = (k: string, v: string) =>
      w()
        .uint32((5 << 3) | 2)
        .fork()
        .uint32((1 << 3) | 2)
        .string(k)
        .uint32((2 << 3) | 2)
        .string(v)
        .ldelim()
        .finish();
    const bytes = concat(
      entry('b', '1'),
      entry('10', '2'),
      entry('__proto__', '3'),
      entry('2', '4'),
      entry('b', '5'),
      entry('4294967295', '6'),
      entry('007', '7'),
    );
    const text = written('PodSandbox', bytes, 0);
    expect(Object.keys((JSON.parse(text) as { labels: object }).labels)).toEqual([
      '2',
      '10',
      'b',
      '__proto__',
      '4294967295',
      '007',
    ]);
    expect(text).toContain('"b": "5"');
    expect(expectSame('PodSandbox', bytes, 'ordered keys')).toBe('same');
  });

  it('64-bit integers as decode reads them: doubles, rounded past 2^53, then String()', () => {
    const createdAt = (v: number | string) =>
      w()
        .uint32((14 << 3) | 0)
        .int64(v)
        .finish();
    for (const v of [2 ** 53 + 1, -(2 ** 53) - 1, 2 ** 63 - 1, -(2 ** 63), 1795507850890238700, -1])
      expect(expectSame('Container', createdAt(v), `createdAt ${v}`)).toBe('same');
    // Ten bytes with the top bit set beyond 64 bits: kept as protobufjs keeps them.
    const tenBytes = Buffer.from([(14 << 3) | 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f]);
    expect(expectSame('Container', tenBytes, 'ten-byte varint')).toBe('same');
    const elevenBytes = Buffer.from([(14 << 3) | 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]);
    expect(expectSame('Container', elevenBytes, 'eleven-byte varint')).toBe('both threw');
  });

  it('at any depth: the same text indented as JSON.stringify indents a value nested that deep', () => {
    const bytes = encode('Container', randomObject(seededRandom(5), 'Container'));
    for (const level of [0, 1, 3]) {
      const want = decodingPath('Container', bytes, level).text;
      expect(written('Container', bytes, level)).toBe(want);
    }
  });

  it('refuses, when compiled, a type with a kind of field it cannot write', () => {
    // map<int32, string> (FieldOwners.simple): the keys would be numbers.
    expect(() => wireJsonType('FieldOwners')).toThrow(/map keys of type int32/);
    expect(() => wireJsonType('NoSuchMessage')).toThrow(/no generated message/);
  });
});
