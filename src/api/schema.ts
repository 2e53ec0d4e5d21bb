// The one place that loads the generated module: protobuf.ts must run before it (the
// generated code reads util.Long while it loads), and ESM evaluates imports in order.
import './protobuf.js';
import { nri as root } from './gen/nri.js';

export import nri = root.pkg.api.v1alpha1;
