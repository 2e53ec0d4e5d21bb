// The one place that loads the CRI bindings. They share protobufjs with the NRI ones, and
// so its process-wide settings (no Long: 64-bit fields are numbers; unknown fields kept),
// which must be made before a generated module loads: src/api/protobuf.ts makes them
// without loading the NRI bindings (test/layering.test.ts DIRECT_IMPORTS).
import '../api/protobuf.js';
import { runtime as root } from './gen/cri.js';

export import cri = root.v1;
