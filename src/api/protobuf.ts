// Process-wide protobufjs settings for the NRI bindings. The generated module reads
// util.Long while it loads (prototype defaults), so this must be evaluated before
// src/api/gen/nri.js: schema.ts imports it first.
import protobuf from 'protobufjs/minimal.js';

// 64-bit fields decode as JS numbers, not Long objects (protobufjs picks up the `long`
// package whenever it can load it). Timeouts, sizes, limits and device numbers are far
// below 2^53; nanosecond timestamps (Container.created_at and friends, ~1.7e18) are not
// and come out rounded to a multiple of 256 ns, which nothing in NRI cares about.
protobuf.util.Long = undefined as unknown as typeof protobuf.util.Long;
protobuf.configure();

// Keep fields this schema does not know and write them back on encode: a message from a
// newer runtime or plugin that we decode and pass on (proxy, simulator, dump) keeps them.
protobuf.Reader.discardUnknown = false;

export { protobuf };

// Strings of a Buffer (every message that came over a socket). protobufjs 8 reads a string
// 8 characters at a time and concatenates the pieces: a rope that each later use flattens
// again (JSON.stringify of a node's state spent a quarter of its time there). An ASCII
// string, nearly every string of NRI (names, ids, labels, paths, env), is the same string
// read as latin1, flat, in one native call; any other byte goes to protobufjs's strict
// UTF-8 reader as before (which rejects invalid UTF-8).
interface BufferReaderLike {
  buf: Buffer & { latin1Slice?(start: number, end: number): string };
  pos: number;
  len: number;
  size(): number;
}
const strictString = Object.getOwnPropertyDescriptor(protobuf.Reader.prototype, 'stringVerify')!.value as (
  this: BufferReaderLike,
) => string;
protobuf.BufferReader.prototype.stringVerify = function asciiOrStrictString(this: BufferReaderLike): string {
  const at = this.pos;
  const length = this.size();
  const start = this.pos;
  const end = start + length;
  const buf = this.buf;
  if (end <= this.len) {
    let i = start;
    while (i < end && buf[i] < 0x80) i++;
    if (i === end) {
      this.pos = end;
      return buf.latin1Slice ? buf.latin1Slice(start, end) : buf.toString('latin1', start, end);
    }
  }
  this.pos = at;
  return strictString.call(this);
};
