// The ttrpc envelope messages (containerd/ttrpc request.proto) and google.rpc.Status,
// encoded and decoded by hand. Field numbers:
//   Request  { string service = 1; string method = 2; bytes payload = 3; int64 timeout_nano = 4; repeated KeyValue metadata = 5; }
//   KeyValue { string key = 1; string value = 2; }
//   Response { google.rpc.Status status = 1; bytes payload = 2; }
//   Status   { int32 code = 1; string message = 2; repeated google.protobuf.Any details = 3; }
// Unknown fields are skipped; proto3 defaults (empty, zero) are not written.
import { ProtoReader, ProtoWriter, WIRE_LEN, WIRE_VARINT, asBuffer, int64Size, varintSize } from './wire.js';

export interface KeyValue {
  key: string;
  value: string;
}

export interface TtrpcRequest {
  service: string;
  method: string;
  payload: Uint8Array;
  /** Relative deadline in nanoseconds; 0 means none. */
  timeoutNano: number;
  metadata: KeyValue[];
}

export interface TtrpcStatus {
  code: number;
  message: string;
}

export interface TtrpcResponse {
  /** Absent status reads as OK, as the Go client does. */
  status?: TtrpcStatus;
  payload: Uint8Array;
}

function key(field: number, wire: number): number {
  return field * 8 + wire;
}

function lenField(contentLength: number): number {
  return 1 + varintSize(contentLength) + contentLength;
}

export function encodeRequest(r: TtrpcRequest): Buffer {
  return encodeRequestAfter(0, r);
}

/** The request encoded after `headroom` bytes left for the caller (a frame header), saving a copy. */
function encodeRequestAfter(headroom: number, r: TtrpcRequest): Buffer {
  return encodeRequestWithPrefix(
    headroom,
    encodeRequestPrefix(r.service, r.method),
    r.payload,
    r.timeoutNano,
    r.metadata,
  );
}

/**
 * Fields 1 and 2 of a Request (service, method): the bytes every call of one method
 * begins with, so that a client encodes them once rather than once per call.
 */
export function encodeRequestPrefix(service: string, method: string): Buffer {
  const serviceLen = Buffer.byteLength(service, 'utf8');
  const methodLen = Buffer.byteLength(method, 'utf8');
  const w = new ProtoWriter(
    Buffer.allocUnsafe((serviceLen ? lenField(serviceLen) : 0) + (methodLen ? lenField(methodLen) : 0)),
  );
  if (serviceLen) w.string(1, service, serviceLen);
  if (methodLen) w.string(2, method, methodLen);
  return w.buf;
}

/**
 * A request after `headroom` bytes, its service and method given as encodeRequestPrefix
 * made them; the bytes are those encodeRequestAfter makes (fields in number order).
 */
export function encodeRequestWithPrefix(
  headroom: number,
  prefix: Buffer,
  payload: Uint8Array,
  timeoutNano: number,
  metadata: readonly KeyValue[],
): Buffer {
  let size = prefix.length;
  if (payload.length) size += lenField(payload.length);
  if (timeoutNano) size += 1 + int64Size(timeoutNano);
  let kvLens: number[] | undefined;
  if (metadata.length > 0) {
    kvLens = [];
    for (const kv of metadata) {
      const k = Buffer.byteLength(kv.key, 'utf8');
      const v = Buffer.byteLength(kv.value, 'utf8');
      const inner = (k ? lenField(k) : 0) + (v ? lenField(v) : 0);
      kvLens.push(k, v, inner);
      size += lenField(inner);
    }
  }
  const w = new ProtoWriter(Buffer.allocUnsafe(headroom + size));
  w.buf.set(prefix, headroom);
  w.pos = headroom + prefix.length;
  if (payload.length) w.bytes(3, payload);
  if (timeoutNano) {
    w.tag(4, WIRE_VARINT);
    w.int64(timeoutNano);
  }
  if (kvLens) {
    for (let i = 0; i < metadata.length; i++) {
      const kv = metadata[i];
      const k = kvLens[i * 3];
      const v = kvLens[i * 3 + 1];
      w.tag(5, WIRE_LEN);
      w.varint(kvLens[i * 3 + 2]);
      if (k) w.string(1, kv.key, k);
      if (v) w.string(2, kv.value, v);
    }
  }
  return w.buf;
}

export function decodeRequest(bytes: Uint8Array): TtrpcRequest {
  const r = new ProtoReader(asBuffer(bytes), 0, bytes.length, 'ttrpc Request');
  const out: TtrpcRequest = { service: '', method: '', payload: Buffer.alloc(0), timeoutNano: 0, metadata: [] };
  while (!r.done()) {
    const tag = r.tag();
    if (tag === key(1, WIRE_LEN)) out.service = r.string();
    else if (tag === key(2, WIRE_LEN)) out.method = r.string();
    else if (tag === key(3, WIRE_LEN)) out.payload = r.bytes();
    else if (tag === key(4, WIRE_VARINT)) out.timeoutNano = r.int64();
    else if (tag === key(5, WIRE_LEN)) out.metadata.push(decodeKeyValue(r));
    else r.skip(tag);
  }
  return out;
}

function decodeKeyValue(outer: ProtoReader): KeyValue {
  const [start, end] = outer.span();
  const r = new ProtoReader(outer.buf, start, end, 'ttrpc KeyValue');
  const kv: KeyValue = { key: '', value: '' };
  while (!r.done()) {
    const tag = r.tag();
    if (tag === key(1, WIRE_LEN)) kv.key = r.string();
    else if (tag === key(2, WIRE_LEN)) kv.value = r.string();
    else r.skip(tag);
  }
  return kv;
}

export function encodeResponse(resp: TtrpcResponse): Buffer {
  return encodeResponseAfter(0, resp);
}

/** The response encoded after `headroom` bytes left for the caller (a frame header), saving a copy. */
export function encodeResponseAfter(headroom: number, resp: TtrpcResponse): Buffer {
  let statusLen = 0;
  let messageLen = 0;
  if (resp.status) {
    messageLen = Buffer.byteLength(resp.status.message, 'utf8');
    // int32 negatives are sign-extended to ten bytes, like int64
    if (resp.status.code) statusLen += 1 + int64Size(resp.status.code);
    if (messageLen) statusLen += lenField(messageLen);
  }
  let size = resp.status ? lenField(statusLen) : 0;
  if (resp.payload.length) size += lenField(resp.payload.length);
  const w = new ProtoWriter(Buffer.allocUnsafe(headroom + size));
  w.pos = headroom;
  if (resp.status) {
    // Written whenever given, even empty (code OK with no message).
    w.tag(1, WIRE_LEN);
    w.varint(statusLen);
    if (resp.status.code) {
      w.tag(1, WIRE_VARINT);
      w.int64(resp.status.code);
    }
    if (messageLen) w.string(2, resp.status.message, messageLen);
  }
  if (resp.payload.length) w.bytes(2, resp.payload);
  return w.buf;
}

export function decodeResponse(bytes: Uint8Array): TtrpcResponse {
  const r = new ProtoReader(asBuffer(bytes), 0, bytes.length, 'ttrpc Response');
  const out: TtrpcResponse = { payload: Buffer.alloc(0) };
  while (!r.done()) {
    const tag = r.tag();
    if (tag === key(1, WIRE_LEN)) out.status = decodeStatus(r, out.status);
    else if (tag === key(2, WIRE_LEN)) out.payload = r.bytes();
    else r.skip(tag);
  }
  return out;
}

/** Decodes google.rpc.Status; a repeated occurrence merges into the previous one, as protobuf merges messages. */
function decodeStatus(outer: ProtoReader, into: TtrpcStatus | undefined): TtrpcStatus {
  const [start, end] = outer.span();
  const r = new ProtoReader(outer.buf, start, end, 'google.rpc.Status');
  const st: TtrpcStatus = into ?? { code: 0, message: '' };
  while (!r.done()) {
    const tag = r.tag();
    if (tag === key(1, WIRE_VARINT)) st.code = r.int32();
    else if (tag === key(2, WIRE_LEN)) st.message = r.string();
    else r.skip(tag); // details (Any) are not surfaced
  }
  return st;
}
