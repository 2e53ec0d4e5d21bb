// Keep first: configures protobufjs (no Long) before the generated module loads.
import './protobuf.js';
import { nri as root } from './gen/nri.js';

export import nri = root.pkg.api.v1alpha1;
