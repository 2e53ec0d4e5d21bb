// The few protobuf wire primitives the ttrpc envelope needs (varints, length-delimited
// fields, skipping unknown fields), so that the module depends on nothing.
import { TtrpcProtocolError } from './status.js';

export const WIRE_VARINT = 0;
const WIRE_FIXED64 = 1;
export const WIRE_LEN = 2;
const WIRE_START_GROUP = 3;
const WIRE_END_GROUP = 4;
const WIRE_FIXED32 = 5;

const MAX_GROUP_DEPTH = 32;

/** Bytes a non-negative integer (up to 2^53) takes as a varint. */
export function varintSize(v: number): number {
  let n = 1;
  while (v >= 0x80) {
    v = Math.floor(v / 128);
    n++;
  }
  return n;
}

/** Bytes an int64 takes: negative values are sign-extended to ten bytes. */
export function int64Size(v: number): number {
  return v < 0 ? 10 : varintSize(v);
}

export class ProtoWriter {
  pos = 0;
  constructor(readonly buf: Buffer) {}

  varint(v: number): void {
    const b = this.buf;
    while (v >= 0x80) {
      b[this.pos++] = (v & 0x7f) | 0x80;
      v = Math.floor(v / 128);
    }
    b[this.pos++] = v;
  }

  int64(v: number): void {
    if (v >= 0) {
      this.varint(v);
      return;
    }
    let u = BigInt.asUintN(64, BigInt(Math.trunc(v)));
    for (let i = 0; i < 9; i++) {
      this.buf[this.pos++] = Number(u & 0x7fn) | 0x80;
      u >>= 7n;
    }
    this.buf[this.pos++] = Number(u);
  }

  tag(field: number, wire: number): void {
    this.varint(field * 8 + wire);
  }

  bytes(field: number, v: Uint8Array): void {
    this.tag(field, WIRE_LEN);
    this.varint(v.length);
    this.buf.set(v, this.pos);
    this.pos += v.length;
  }

  /** A string whose UTF-8 length the caller already measured. */
  string(field: number, v: string, byteLength: number): void {
    this.tag(field, WIRE_LEN);
    this.varint(byteLength);
    this.pos += this.buf.write(v, this.pos, byteLength, 'utf8');
  }
}

export class ProtoReader {
  pos: number;
  readonly end: number;

  constructor(
    readonly buf: Buffer,
    start = 0,
    end = buf.length,
    readonly what = 'message',
  ) {
    this.pos = start;
    this.end = end;
  }

  done(): boolean {
    return this.pos >= this.end;
  }

  #fail(why: string): never {
    throw new TtrpcProtocolError(`malformed protobuf ${this.what}: ${why} at byte ${this.pos}`);
  }

  /** A varint as a JS number; exact up to 2^53, the low 64 bits as int64 beyond that. */
  int64(): number {
    let value = 0;
    let scale = 1;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.end) this.#fail('truncated varint');
      const b = this.buf[this.pos++];
      if (i === 7 && b & 0x80) return this.#bigTail(value, b);
      value += (b & 0x7f) * scale;
      if ((b & 0x80) === 0) return value;
      scale *= 128;
    }
    return this.#fail('varint longer than ten bytes');
  }

  /** Finishes a varint of more than eight bytes (negative int64s, huge values) with BigInt. */
  #bigTail(low49: number, eighth: number): number {
    let v = BigInt(low49) + (BigInt(eighth & 0x7f) << 49n);
    let shift = 56n;
    for (let i = 8; i < 10; i++) {
      if (this.pos >= this.end) this.#fail('truncated varint');
      const b = this.buf[this.pos++];
      v += BigInt(b & 0x7f) << shift;
      if ((b & 0x80) === 0) return Number(BigInt.asIntN(64, v));
      shift += 7n;
    }
    return this.#fail('varint longer than ten bytes');
  }

  int32(): number {
    const v = this.int64();
    if (v >= -0x80000000 && v <= 0x7fffffff) return v;
    // proto int32 keeps the low 32 bits of whatever was encoded
    return Number(BigInt.asIntN(32, BigInt(Math.trunc(v))));
  }

  /** The [start, end) of a length-delimited field's bytes, checked against the message end. */
  span(): [number, number] {
    const len = this.int64();
    if (len < 0 || len > this.end - this.pos) this.#fail(`length ${len} runs past the end`);
    const start = this.pos;
    this.pos += len;
    return [start, this.pos];
  }

  bytes(): Buffer {
    const [s, e] = this.span();
    return this.buf.subarray(s, e);
  }

  string(): string {
    const [s, e] = this.span();
    return this.buf.toString('utf8', s, e);
  }

  /** Reads a tag: field number * 8 + wire type. */
  tag(): number {
    const t = this.int64();
    if (t < 8 || t > 0xffffffff) this.#fail(`invalid tag ${t}`);
    return t;
  }

  /** Skips the value of an unknown field given its tag; groups are skipped whole. */
  skip(tag: number, depth = 0): void {
    const wire = tag & 7;
    const field = Math.floor(tag / 8);
    switch (wire) {
      case WIRE_VARINT:
        this.int64();
        return;
      case WIRE_FIXED64:
        this.#advance(8);
        return;
      case WIRE_LEN:
        this.span();
        return;
      case WIRE_FIXED32:
        this.#advance(4);
        return;
      case WIRE_START_GROUP: {
        if (depth >= MAX_GROUP_DEPTH) this.#fail('groups nested too deep');
        for (;;) {
          if (this.done()) this.#fail(`unterminated group ${field}`);
          const t = this.tag();
          if ((t & 7) === WIRE_END_GROUP) {
            if (Math.floor(t / 8) !== field) this.#fail(`group ${field} closed as ${Math.floor(t / 8)}`);
            return;
          }
          this.skip(t, depth + 1);
        }
      }
      default:
        this.#fail(`unexpected wire type ${wire} for field ${field}`);
    }
  }

  #advance(n: number): void {
    if (this.end - this.pos < n) this.#fail('truncated fixed-width field');
    this.pos += n;
  }
}

export function asBuffer(b: Uint8Array): Buffer {
  return Buffer.isBuffer(b) ? b : Buffer.from(b.buffer, b.byteOffset, b.byteLength);
}
