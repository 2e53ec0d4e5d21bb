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
