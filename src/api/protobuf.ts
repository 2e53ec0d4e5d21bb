// protobufjs decodes 64-bit integers into Long objects whenever the `long` package is
// loadable (it is: protobufjs depends on it). NRI's 64-bit fields are timestamps in ns,
// timeouts, memory sizes and device numbers, all well inside 2^53, and the layers above
// want plain numbers. The generated module reads util.Long while it loads (prototype
// defaults), so this module must be evaluated before src/api/gen/nri.js: index.ts
// imports it first.
import protobuf from 'protobufjs/minimal.js';

protobuf.util.Long = undefined as unknown as typeof protobuf.util.Long;
protobuf.configure();

export { protobuf };
