export {
  GO_READ_BUFFER,
  MUX_HEADER_LENGTH,
  MUX_PAYLOAD_MAX,
  PLUGIN_SERVICE_CONN,
  RESERVED_CONN,
  RUNTIME_SERVICE_CONN,
  MuxDecoder,
  encodeMuxHeader,
  type MuxFrame,
} from './frame.js';
export { MuxClosedError, MuxProtocolError } from './errors.js';
export { EARLY_DATA_MAX_BYTES, EARLY_DATA_MAX_CHUNKS } from './early-data.js';
export { MuxConnection } from './connection.js';
export { Mux, type MuxOptions } from './mux.js';
