// ttrpc, containerd's lightweight RPC protocol: frame codec, envelope messages, client and server.
export {
  HEADER_LENGTH,
  MESSAGE_LENGTH_MAX,
  MessageType,
  FLAG_REMOTE_CLOSED,
  FLAG_REMOTE_OPEN,
  FLAG_NO_DATA,
  FrameDecoder,
  encodeFrame,
  decodeHeader,
  type FrameHeader,
  type DecodedFrame,
  type FrameDecoderOptions,
} from './frame.js';
export {
  encodeRequest,
  decodeRequest,
  encodeResponse,
  decodeResponse,
  type TtrpcRequest,
  type TtrpcResponse,
  type TtrpcStatus,
  type KeyValue,
} from './messages.js';
export { GO_BUFIO_SIZE } from '../framing/index.js';
export { Code, codeName, TtrpcError, TtrpcProtocolError, TtrpcClosedError, type TtrpcErrorOptions } from './status.js';
export {
  TtrpcClient,
  DEFAULT_MAX_CALLS_IN_FLIGHT,
  type CallOptions,
  type LateAnswerRule,
  type TtrpcClientOptions,
} from './client.js';
export {
  TtrpcServer,
  ServerConnection,
  DEFAULT_MAX_IN_FLIGHT,
  type Handler,
  type HandlerContext,
  type TtrpcServerOptions,
} from './server.js';
