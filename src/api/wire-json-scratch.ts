// What the JSON writer of wire-json.ts keeps while it reads one message: the occurrences
// of each field per depth, the entries of a map, in typed arrays reused from message to
// message; and the key order a map's entries take, which is a JavaScript object's.
import { protobuf } from './protobuf.js';

/** The entries of the map being written at one depth: key and value ranges (value -1: none given, decode's default "" or {}). */
export class MapEntries {
  keyStart = new Int32Array(16);
  keyEnd = new Int32Array(16);
  valueStart = new Int32Array(16);
  valueEnd = new Int32Array(16);
  /** Further pieces of a message value given more than once in its entry ([start, end, ...]). */
  more: (number[] | null)[] = [];
  n = 0;

  add(): number {
    const j = this.n++;
    if (j === this.keyStart.length) {
      const grow = (a: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> => {
        const b = new Int32Array(a.length * 2);
        b.set(a);
        return b;
      };
      this.keyStart = grow(this.keyStart);
      this.keyEnd = grow(this.keyEnd);
      this.valueStart = grow(this.valueStart);
      this.valueEnd = grow(this.valueEnd);
    }
    this.keyStart[j] = 0;
    this.keyEnd[j] = 0;
    this.valueStart[j] = -1;
    this.valueEnd[j] = -1;
    this.more[j] = null;
    return j;
  }
}

// Per decoding depth: the occurrences of the fields of the message being read at that
// depth, each field's chained in wire order. A message's nested messages are read at the
// next depth, one after the other, while its own occurrences stay where they are.
export class Occurrences {
  head = new Int32Array(32);
  tail = new Int32Array(32);
  /** Content start and end (strings, messages, map entries), or value end (varints). */
  start = new Int32Array(64);
  end = new Int32Array(64);
  value = new Float64Array(64);
  packed = new Uint8Array(64);
  next = new Int32Array(64);
  n = 0;
  /** The entries of a map field, while it is written. */
  readonly entries = new MapEntries();

  reset(fields: number): void {
    if (this.head.length < fields) {
      this.head = new Int32Array(fields);
      this.tail = new Int32Array(fields);
    }
    const head = this.head;
    for (let i = 0; i < fields; i++) head[i] = -1;
    this.n = 0;
  }

  add(slot: number, start: number, end: number, value: number, packed: number): void {
    const i = this.n++;
    if (i === this.start.length) this.grow();
    this.start[i] = start;
    this.end[i] = end;
    this.value[i] = value;
    this.packed[i] = packed;
    this.next[i] = -1;
    if (this.head[slot] < 0) this.head[slot] = i;
    else this.next[this.tail[slot]] = i;
    this.tail[slot] = i;
  }

  private grow(): void {
    const size = this.start.length * 2;
    const more = <A extends Int32Array | Float64Array | Uint8Array>(a: A, make: new (n: number) => A): A => {
      const b = new make(size);
      b.set(a);
      return b;
    };
    this.start = more(this.start, Int32Array);
    this.end = more(this.end, Int32Array);
    this.value = more(this.value, Float64Array);
    this.packed = more(this.packed, Uint8Array);
    this.next = more(this.next, Int32Array);
  }
}

/**
 * The order a JavaScript object gives the entries' keys (null: as they came, the usual
 * case: no integer-like key, none repeated).
 */
export function entryOrder(buf: Uint8Array, e: MapEntries): number[] | null {
  let simple = e.n <= 16;
  for (let i = 0; simple && i < e.n; i++) {
    const start = e.keyStart[i];
    if (e.keyEnd[i] > start && buf[start] >= 0x30 && buf[start] <= 0x39) simple = false;
    for (let j = 0; simple && j < i; j++) if (sameKey(buf, e, i, j)) simple = false;
  }
  if (simple) return null;
  const byKey: Record<string, number> = {};
  for (let i = 0; i < e.n; i++) {
    const key = readString(buf, e.keyStart[i], e.keyEnd[i]);
    if (key === '__proto__') protobuf.util.makeProp(byKey, key);
    byKey[key] = i;
  }
  return Object.keys(byKey).map((k) => byKey[k]);
}

function sameKey(buf: Uint8Array, e: MapEntries, i: number, j: number): boolean {
  const len = e.keyEnd[i] - e.keyStart[i];
  if (len !== e.keyEnd[j] - e.keyStart[j]) return false;
  const a = e.keyStart[i];
  const b = e.keyStart[j];
  for (let k = 0; k < len; k++) if (buf[a + k] !== buf[b + k]) return false;
  return true;
}

/** The string decode reads at [start, end): ASCII as it is, anything else through protobufjs's strict UTF-8 reader. */
export function readString(buf: Uint8Array, start: number, end: number): string {
  return protobuf.util.utf8.readStrict(buf, start, end);
}

/** Throws as decode would on a string that is not UTF-8. */
export function checkString(buf: Uint8Array, start: number, end: number): void {
  for (let i = start; i < end; i++)
    if (buf[i] >= 0x80) {
      readString(buf, start, end);
      return;
    }
}
