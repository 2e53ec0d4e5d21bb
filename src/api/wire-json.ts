// JSON text written straight from a message's protobuf bytes, without decoding it: the
// text `JSON.stringify(T.toObject(T.decode(bytes), { enums: String, longs: String, bytes:
// String, json: true }), null, 2)` gives, nested at a given depth, byte for byte. A node's
// state (sync dump -o json, some 13 MB) spent most of its time in decode, toObject and
// JSON.stringify; this reads each field once and copies its bytes.
//
// The rules are the generated code's (src/api/gen/nri.js, protobufjs 8), read from it:
//   - fields in field-number order (toObject's), whatever the wire order;
//   - a scalar field given twice: the last wins, and a zero or an empty string (the last
//     one) deletes it: it is left out (proto3 has no presence for these);
//   - a message field given twice is merged (decoded into the same object), which is
//     decoding its pieces as one; present, even empty, it is written ({});
//   - repeated fields gather every occurrence, split or not, packed or not; empty, they are
//     left out, and so are empty maps;
//   - a map's keys in the order of a JavaScript object's own keys (array indices first,
//     ascending; then the rest as first inserted; a repeated key keeps its place and takes
//     the last value; "__proto__" an ordinary key, as makeProp makes it);
//   - 64-bit integers are read to a JS number (src/api/protobuf.ts: no Long; rounded past
//     2^53), written as String(number) in quotes; enums by name, an unknown one as its number;
//   - strings as JSON.stringify writes them; unknown fields are kept by decode where
//     toObject never looks, so they are not written.
// It reads what decode reads, with protobufjs's own Reader (tags, lengths, 32-bit varints,
// skipping unknown fields), its strict UTF-8 reader for any string that is not ASCII, and
// an exact copy of its 64-bit varint reader; so whatever makes decode throw makes this
// throw (a string that is not UTF-8, a length past the end, a bad wire type, too deep a
// group), strings decode would read and drop included. It may also throw where decode
// would not (no such input is known; the tests look for one): the caller then takes the
// decoding path for that message, which gives the text, or the error, of today.
// The kinds of field it writes are the ones the messages it serves use (checked when a type
// is compiled): no bytes, floats, fixed or zigzag integers, and string map keys only.
import { protobuf } from './protobuf.js';
import { checkString, entryOrder, Occurrences, readString, type MapEntries } from './wire-json-scratch.js';
import {
  ascii,
  BOOL,
  ENUM,
  INT64,
  MESSAGE,
  STRING,
  UINT32,
  UINT64,
  type CompiledType,
  type Field,
  type TypeHandle,
  type WireJsonType,
} from './wire-json-types.js';

export { wireJsonType, type WireJsonList, type WireJsonType } from './wire-json-types.js';

type Reader = protobuf.Reader;

const WIRE_VARINT = 0;
const WIRE_BYTES = 2;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const NEWLINE = 0x0a;
const SPACE = 0x20;
const COMMA = 0x2c;
const COLON_SPACE = ascii(': ');
const TRUE = ascii('true');
const FALSE = ascii('false');

const HEX = ascii('0123456789abcdef');
/** 2^53: integers below it are exact doubles, written digit by digit. */
const SAFE = 2 ** 53;
/** 1 for a byte JSON.stringify writes as it is: ASCII but control characters, " and \\ (one load, not four tests). */
const PLAIN = new Uint8Array(256);
for (let c = 0x20; c < 0x80; c++) PLAIN[c] = c === QUOTE || c === BACKSLASH ? 0 : 1;
const SHORT_ESCAPES = new Uint8Array(0x60);
for (const [c, e] of [
  [0x08, 'b'],
  [0x09, 't'],
  [0x0a, 'n'],
  [0x0c, 'f'],
  [0x0d, 'r'],
  [QUOTE, '"'],
  [BACKSLASH, '\\'],
] as const)
  SHORT_ESCAPES[c] = e.charCodeAt(0);

function indexOutOfRange(): RangeError {
  return new RangeError('index out of range');
}

/**
 * Writes messages as JSON text into a growing buffer; `take()` hands the text over.
 * One writer writes one message at a time (it is not re-entrant).
 */
export class WireJsonWriter {
  private out: Buffer;
  private n = 0;
  /** Whether anything but ASCII was written since the last take. */
  private wide = false;
  // Made of what they will hold (a Buffer's reader, a Buffer: what comes off a socket):
  // a field that changes the kind of its value makes V8 drop the code optimized for it.
  private r: Reader = protobuf.Reader.create(Buffer.alloc(0));
  private buf: Uint8Array = Buffer.alloc(0);
  private readonly depths: Occurrences[] = Array.from({ length: 16 }, () => new Occurrences());
  private readonly numbers: number[] = [];

  constructor(initialBytes = 1 << 16) {
    this.out = Buffer.allocUnsafe(initialBytes);
  }

  /** Characters written and not yet taken (bytes: the text is mostly ASCII). */
  get length(): number {
    return this.n;
  }

  /** The text written since the last take. */
  take(): string {
    // A Buffer of ASCII read as latin1 is a copy; as UTF-8, a check of every byte first.
    const s = this.out.toString(this.wide ? 'utf8' : 'latin1', 0, this.n);
    this.n = 0;
    this.wide = false;
    return s;
  }

  /** The text written since the last take, as UTF-8 bytes (the writer goes on in a new buffer). */
  takeBytes(): Buffer {
    const bytes = this.out.subarray(0, this.n);
    this.out = Buffer.allocUnsafe(this.out.length);
    this.n = 0;
    this.wide = false;
    return bytes;
  }

  /** Forgets what was written after `mark` (a length read before). */
  rewind(mark: number): void {
    this.n = mark;
  }

  /** Appends text as it is (UTF-8). */
  text(s: string): void {
    this.room(s.length * 3);
    const written = this.out.write(s, this.n, 'utf8');
    if (written !== s.length) this.wide = true;
    this.n += written;
  }

  /**
   * Appends the JSON of the message `bytes` of `type`, its braces at indentation `level`
   * (two spaces each), its first `{` where the writer stands. Throws where decode would
   * (then what was written of it is left: rewind to a mark taken before).
   */
  message(type: WireJsonType, bytes: Uint8Array, level: number): void {
    this.r = protobuf.Reader.create(bytes);
    this.buf = bytes;
    this.writeMessage((type as TypeHandle).compiled, level, 0, 0, bytes.length, null);
  }

  // ---- output ----

  private room(k: number): void {
    if (this.n + k <= this.out.length) return;
    const bigger = Buffer.allocUnsafe(Math.max(this.out.length * 2, this.n + k));
    this.out.copy(bigger, 0, 0, this.n);
    this.out = bigger;
  }

  private byte(c: number): void {
    this.room(1);
    this.out[this.n++] = c;
  }

  // A loop, not out.set(): the pieces are short, and set() costs more per call than it saves.
  private bytes(b: Uint8Array, from = 0): void {
    this.room(b.length);
    const out = this.out;
    let n = this.n;
    for (let i = from; i < b.length; i++) out[n++] = b[i];
    this.n = n;
  }

  private newline(level: number): void {
    this.room(1 + 2 * level);
    const out = this.out;
    let n = this.n;
    out[n++] = NEWLINE;
    for (let i = 2 * level; i > 0; i--) out[n++] = SPACE;
    this.n = n;
  }

  private asciiText(s: string): void {
    this.room(s.length);
    const out = this.out;
    let n = this.n;
    for (let i = 0; i < s.length; i++) out[n++] = s.charCodeAt(i);
    this.n = n;
  }

  /** `,\n<indent>"name": ` (without the comma for the first field). */
  private key(f: Field, level: number, first: boolean): void {
    this.bytes((f.keys[level] ??= ascii(`,\n${'  '.repeat(level)}${JSON.stringify(f.name)}: `)), first ? 1 : 0);
  }

  /** The string at [start, end) of the input, as JSON.stringify writes the string decode reads there. */
  private string(start: number, end: number): void {
    this.room(end - start + 2);
    const buf = this.buf;
    const out = this.out;
    let n = this.n;
    out[n++] = QUOTE;
    for (let i = start; i < end; i++) {
      const c = buf[i];
      if (PLAIN[c] === 0) return this.escapedString(start, end);
      out[n++] = c;
    }
    out[n++] = QUOTE;
    this.n = n;
  }

  // JSON.stringify's escapes of ASCII (QuoteJSONString): the short ones for \b \t \n \f \r
  // " and \\, \u00xx (lower-case hex) for the other control characters. Any other byte is
  // UTF-8 to check and to write as JSON.stringify writes it.
  private escapedString(start: number, end: number): void {
    const buf = this.buf;
    for (let i = start; i < end; i++)
      if (buf[i] >= 0x80) {
        this.text(JSON.stringify(readString(buf, start, end)));
        return;
      }
    this.room(6 * (end - start) + 2);
    const out = this.out;
    let n = this.n;
    out[n++] = QUOTE;
    for (let i = start; i < end; i++) {
      const c = buf[i];
      if (c >= 0x20 && c !== QUOTE && c !== BACKSLASH) {
        out[n++] = c;
        continue;
      }
      out[n++] = BACKSLASH;
      const short = SHORT_ESCAPES[c];
      if (short) out[n++] = short;
      else {
        out[n++] = 0x75; // u
        out[n++] = 0x30;
        out[n++] = 0x30;
        out[n++] = HEX[c >> 4];
        out[n++] = HEX[c & 15];
      }
    }
    out[n++] = QUOTE;
    this.n = n;
  }

  /**
   * An integer read off the wire, as String(v) writes it: its decimal digits, made here
   * while they are exact (below 2^53; String() of a double is a slow runtime call), by
   * String() past that (64-bit values rounded to a double: "18446744073709552000").
   */
  private number(v: number, quoted: boolean): void {
    this.room(24);
    const out = this.out;
    let n = this.n;
    if (quoted) out[n++] = QUOTE;
    if (v < 0 && v > -SAFE) {
      out[n++] = 0x2d; // -
      v = -v;
    }
    if (v >= 0 && v < SAFE) {
      let digits = 1;
      for (let x = v; x >= 10; x = Math.floor(x / 10)) digits++;
      n += digits;
      for (let i = n - 1, x = v; i >= n - digits; i--, x = Math.floor(x / 10)) out[i] = 0x30 + (x % 10);
    } else {
      const s = String(v);
      for (let i = 0; i < s.length; i++) out[n++] = s.charCodeAt(i);
    }
    if (quoted) out[n++] = QUOTE;
    this.n = n;
  }

  // ---- reading ----

  private occurrences(depth: number): Occurrences {
    if (depth >= this.depths.length)
      for (let d = this.depths.length; d <= depth; d++) this.depths.push(new Occurrences());
    return this.depths[depth];
  }

  /**
   * The message whose bytes are [start, end) and, when it was given in pieces (a message
   * field repeated on the wire: merged), the further ranges in `more` ([start, end, ...]).
   */
  private writeMessage(
    t: CompiledType,
    level: number,
    depth: number,
    start: number,
    end: number,
    more: number[] | null,
  ): void {
    if (depth > protobuf.Reader.recursionLimit) throw new Error('max depth exceeded');
    const occ = this.occurrences(depth);
    occ.reset(t.fields.length);
    this.scan(t, depth, occ, start, end);
    if (more) for (let i = 0; i < more.length; i += 2) this.scan(t, depth, occ, more[i], more[i + 1]);

    this.byte(0x7b); // {
    let first = true;
    for (const f of t.fields) {
      const h = occ.head[f.slot];
      if (h < 0) continue;
      if (f.map) {
        this.key(f, level + 1, first);
        this.writeMap(f, occ, h, level + 1, depth);
      } else if (f.repeated) {
        if (!this.writeRepeated(f, occ, h, level + 1, depth, first)) continue;
      } else if (f.kind === MESSAGE) {
        this.key(f, level + 1, first);
        const last = occ.tail[f.slot];
        let pieces: number[] | null = null;
        if (h !== last) {
          pieces = [];
          for (let i = occ.next[h]; i >= 0; i = occ.next[i]) pieces.push(occ.start[i], occ.end[i]);
        }
        this.writeMessage(f.message!, level + 1, depth + 1, occ.start[h], occ.end[h], pieces);
      } else if (f.kind === STRING) {
        // Every occurrence is read (and checked) by decode; the last one is kept, unless empty.
        const last = occ.tail[f.slot];
        for (let i = h; i !== last; i = occ.next[i]) checkString(this.buf, occ.start[i], occ.end[i]);
        if (occ.end[last] === occ.start[last]) continue;
        this.key(f, level + 1, first);
        this.string(occ.start[last], occ.end[last]);
      } else {
        const v = occ.value[occ.tail[f.slot]];
        if (v === 0) continue;
        this.key(f, level + 1, first);
        this.scalar(f, v);
      }
      first = false;
    }
    if (!first) this.newline(level);
    this.byte(0x7d); // }
  }

  /** Reads one piece of a message at depth `depth`, recording each occurrence of its fields. */
  private scan(t: CompiledType, depth: number, occ: Occurrences, start: number, end: number): void {
    const r = this.r;
    if (end > r.buf.length) throw indexOutOfRange();
    r.pos = start;
    r.len = end;
    const byNumber = t.byNumber;
    while (r.pos < end) {
      const tag = r.tag();
      const wire = tag & 7;
      const number = tag >>> 3;
      const f = number < byNumber.length ? byNumber[number] : undefined;
      if (f !== undefined) {
        if (wire === WIRE_BYTES && (f.kind === STRING || f.kind === MESSAGE || f.map)) {
          const size = r.size();
          const at = r.pos;
          if (at + size > end) throw indexOutOfRange();
          r.pos = at + size;
          occ.add(f.slot, at, at + size, 0, 0);
          continue;
        }
        if (f.kind !== STRING && f.kind !== MESSAGE && !f.map) {
          if (wire === WIRE_VARINT) {
            occ.add(f.slot, 0, 0, this.varint(f.kind), 0);
            continue;
          }
          if (wire === WIRE_BYTES && f.repeated) {
            const at = r.pos;
            this.packed(f.kind, null);
            occ.add(f.slot, at, r.pos, 0, 1);
            continue;
          }
        }
      }
      r.skipType(wire, depth, number);
    }
  }

  private varint(kind: number): number {
    const r = this.r;
    switch (kind) {
      case BOOL:
        return r.bool() ? 1 : 0;
      case UINT32:
        return r.uint32();
      case INT64:
        return this.varint64(false);
      case UINT64:
        return this.varint64(true);
      default: // INT32, ENUM
        return r.int32();
    }
  }

  /**
   * A 64-bit varint as a JS number, as protobufjs reads it without Long (readLongVarint,
   * then LongBits.toNumber): the same bits kept, the same rounding, the same errors (past
   * the end, more than ten bytes). Its own copy because the library's, called from here,
   * cost some 3 µs a call (a LongBits object, a call through a computed name).
   */
  private varint64(unsigned: boolean): number {
    const r = this.r;
    const buf = this.buf;
    const len = r.len;
    let pos = r.pos;
    let lo = 0;
    let hi = 0;
    let b: number;
    let done = false;
    for (let i = 0; i < 4 && !done; i++) {
      if (pos >= len) throw indexOutOfRange();
      b = buf[pos++];
      lo = (lo | ((b & 127) << (i * 7))) >>> 0;
      done = b < 128;
    }
    if (!done) {
      if (pos >= len) throw indexOutOfRange();
      b = buf[pos++];
      lo = (lo | ((b & 127) << 28)) >>> 0;
      hi = (hi | ((b & 127) >> 4)) >>> 0;
      done = b < 128;
      for (let i = 0; i < 5 && !done; i++) {
        if (pos >= len) throw indexOutOfRange();
        b = buf[pos++];
        hi = (hi | ((b & 127) << (i * 7 + 3))) >>> 0;
        done = b < 128;
      }
      if (!done) throw new Error('invalid varint encoding');
    }
    r.pos = pos;
    if (!unsigned && hi >>> 31) {
      const nlo = (~lo + 1) >>> 0;
      let nhi = ~hi >>> 0;
      if (!nlo) nhi = (nhi + 1) >>> 0;
      return -(nlo + nhi * 4294967296);
    }
    return lo + hi * 4294967296;
  }

  /** A packed run of varints at the reader, as the generated decoder reads it (into `into`, when given). */
  private packed(kind: number, into: number[] | null): void {
    const r = this.r;
    const len = r.len;
    const values = into ?? this.numbers;
    switch (kind) {
      case BOOL:
        r.bools(values as unknown as boolean[]);
        break;
      case UINT32:
        r.uint32s(values);
        break;
      case INT64:
        r.int64s(values);
        break;
      case UINT64:
        r.uint64s(values);
        break;
      default:
        r.int32s(values);
    }
    r.len = len;
    if (!into) this.numbers.length = 0;
  }

  private scalar(f: Field, v: number): void {
    switch (f.kind) {
      case BOOL:
        this.bytes(TRUE);
        return;
      case INT64:
      case UINT64:
        this.number(v, true);
        return;
      case ENUM: {
        const name = f.enumNames!.get(v);
        if (name) this.bytes(name);
        else this.number(v, false);
        return;
      }
      default:
        this.number(v, false);
    }
  }

  /** A repeated field; false when it came out empty (a packed run of nothing) and was not written. */
  private writeRepeated(f: Field, occ: Occurrences, h: number, level: number, depth: number, first: boolean): boolean {
    if (f.kind === STRING || f.kind === MESSAGE) {
      this.key(f, level, first);
      this.byte(0x5b); // [
      for (let i = h; i >= 0; i = occ.next[i]) {
        if (i !== h) this.byte(COMMA);
        this.newline(level + 1);
        if (f.kind === STRING) this.string(occ.start[i], occ.end[i]);
        else this.writeMessage(f.message!, level + 1, depth + 1, occ.start[i], occ.end[i], null);
      }
      this.newline(level);
      this.byte(0x5d); // ]
      return true;
    }
    // Varints, one by one or packed: gathered first, as a packed run may hold none.
    const values: number[] = [];
    const r = this.r;
    for (let i = h; i >= 0; i = occ.next[i]) {
      if (!occ.packed[i]) {
        values.push(occ.value[i]);
        continue;
      }
      r.pos = occ.start[i];
      r.len = occ.end[i];
      const from = values.length;
      this.packed(f.kind, values);
      if (f.kind === BOOL) for (let j = from; j < values.length; j++) values[j] = values[j] ? 1 : 0;
    }
    if (values.length === 0) return false;
    this.key(f, level, first);
    this.byte(0x5b); // [
    for (let j = 0; j < values.length; j++) {
      if (j > 0) this.byte(COMMA);
      this.newline(level + 1);
      if (f.kind === BOOL) this.bytes(values[j] ? TRUE : FALSE);
      else this.scalar(f, values[j]);
    }
    this.newline(level);
    this.byte(0x5d); // ]
    return true;
  }

  /** A map<string, V> from its entries (each a message: key = 1, value = 2), in a JS object's key order. */
  private writeMap(f: Field, occ: Occurrences, h: number, level: number, depth: number): void {
    const e = occ.entries;
    e.n = 0;
    for (let i = h; i >= 0; i = occ.next[i]) this.mapEntry(f, e, occ.start[i], occ.end[i], depth);
    const order = entryOrder(this.buf, e);
    if (order) {
      // Entries whose key came again later: read by decode (and checked), never written.
      if (order.length < e.n) {
        const kept = new Set(order);
        const mark = this.n;
        for (let j = 0; j < e.n; j++) if (!kept.has(j)) this.mapValue(f, e, j, level, depth);
        this.n = mark;
      }
    }
    const count = order ? order.length : e.n;
    this.byte(0x7b); // {
    for (let k = 0; k < count; k++) {
      const j = order ? order[k] : k;
      if (k > 0) this.byte(COMMA);
      this.newline(level + 1);
      this.string(e.keyStart[j], e.keyEnd[j]);
      this.bytes(COLON_SPACE);
      this.mapValue(f, e, j, level + 1, depth);
    }
    this.newline(level);
    this.byte(0x7d); // }
  }

  private mapValue(f: Field, e: MapEntries, j: number, level: number, depth: number): void {
    const start = e.valueStart[j];
    if (f.kind === STRING) {
      if (start < 0) this.asciiText('""');
      else this.string(start, e.valueEnd[j]);
    } else if (start < 0) this.asciiText('{}');
    else this.writeMessage(f.message!, level, depth + 1, start, e.valueEnd[j], e.more[j]);
  }

  /** One map entry, read as the generated decoder reads it (the last key and value win; a message value given twice is merged). */
  private mapEntry(f: Field, e: MapEntries, start: number, end: number, depth: number): void {
    const r = this.r;
    r.pos = start;
    r.len = end;
    const j = e.add();
    while (r.pos < end) {
      const tag = r.tag();
      const wire = tag & 7;
      const number = tag >>> 3;
      if ((number === 1 || number === 2) && wire === WIRE_BYTES) {
        const size = r.size();
        const at = r.pos;
        if (at + size > end) throw indexOutOfRange();
        r.pos = at + size;
        if (number === 1) {
          checkString(this.buf, e.keyStart[j], e.keyEnd[j]); // the key it replaces was read too
          e.keyStart[j] = at;
          e.keyEnd[j] = at + size;
        } else if (f.kind === STRING) {
          if (e.valueStart[j] >= 0) checkString(this.buf, e.valueStart[j], e.valueEnd[j]);
          e.valueStart[j] = at;
          e.valueEnd[j] = at + size;
        } else if (e.valueStart[j] < 0) {
          e.valueStart[j] = at;
          e.valueEnd[j] = at + size;
        } else (e.more[j] ??= []).push(at, at + size);
        continue;
      }
      r.skipType(wire, depth, number);
    }
  }
}

/**
 * The entries to write, in the order of the keys of the object decode fills, as indices;
 * null for all of them in wire order, which is that order without a repeated key or an
 * array-index key (every such key starts with a digit).
 */
