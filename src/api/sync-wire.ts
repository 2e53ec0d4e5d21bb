// A SynchronizeRequest read at its top level only, without decoding its pods and
// containers: whether more messages follow, and where each pod and container sits in
// the bytes. A plugin can answer a large state at once and decode it afterwards, piece
// by piece (SynchronizeRequest: pods = 1, containers = 2, more = 3).
import { protobuf } from './protobuf.js';
import { nri } from './schema.js';

const WIRE_VARINT = 0;
const WIRE_BYTES = 2;

export interface SyncEntry {
  kind: 'pod' | 'container';
  /** Byte range of the embedded message within the payload. */
  start: number;
  end: number;
}

/** The `more` flag of an encoded SynchronizeRequest; skips every other field unread. */
export function synchronizeMore(payload: Uint8Array): boolean {
  const r = protobuf.Reader.create(payload);
  let more = false;
  while (r.pos < r.len) {
    const tag = r.uint32();
    if (tag >>> 3 === 3 && (tag & 7) === WIRE_VARINT) more = r.bool();
    else r.skipType(tag & 7);
  }
  return more;
}

/** Where each pod and container of an encoded SynchronizeRequest lies, in order. */
export function synchronizeEntries(payload: Uint8Array): SyncEntry[] {
  const r = protobuf.Reader.create(payload);
  const out: SyncEntry[] = [];
  while (r.pos < r.len) {
    const tag = r.uint32();
    const field = tag >>> 3;
    if ((field === 1 || field === 2) && (tag & 7) === WIRE_BYTES) {
      const length = r.uint32();
      out.push({ kind: field === 1 ? 'pod' : 'container', start: r.pos, end: r.pos + length });
      r.skip(length);
    } else {
      r.skipType(tag & 7);
    }
  }
  return out;
}

/** Decodes one entry found by synchronizeEntries. */
export function decodeSyncEntry(payload: Uint8Array, e: SyncEntry): nri.PodSandbox | nri.Container {
  const bytes = payload.subarray(e.start, e.end);
  return e.kind === 'pod' ? nri.PodSandbox.decode(bytes) : nri.Container.decode(bytes);
}
