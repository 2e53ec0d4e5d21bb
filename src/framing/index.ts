// What ttrpc and NRI's trunk multiplexer share, and nothing else: the length-prefix
// decoder both read their frames with, and the Go buffer size both frame their writes
// for. Imports nothing, so that either layer can still ship on its own with it.
export { LengthPrefixDecoder } from './length-prefix.js';
export { GO_BUFIO_SIZE } from './go-bufio.js';
