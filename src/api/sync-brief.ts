// A pod or container of a Synchronize payload read in brief: the few fields a table of a
// node shows (ids, names, namespace, state), straight from the bytes, without decoding
// the rest (labels, annotations, env, mounts: most of a container). Labels and the Linux
// resources are read from the bytes when first asked for (a --label filter, -o wide).
// A node's state is thousands of these, read in a few milliseconds and kept in a small
// part of the memory the decoded messages would take; the complete message is decoded
// from the same bytes when it is wanted (-o json), one at a time. Strings are read as the
// generated decoder reads them (stringVerify: invalid UTF-8 is an error, as it was when
// sync dump decoded the whole state before printing).
import { protobuf } from './protobuf.js';
import { nri } from './schema.js';
import { synchronizeEntries, type SyncEntry } from './sync-wire.js';

const WIRE_VARINT = 0;
const WIRE_BYTES = 2;

type StringMap = { [k: string]: string };

/** A byte range within a payload. */
interface Range {
  start: number;
  end: number;
}

/** Where an entry lies, and its complete decoding. */
abstract class Brief {
  constructor(
    protected readonly payload: Uint8Array,
    protected readonly entry: SyncEntry,
  ) {}

  /** The byte range of field `field` (the last one, as decoding keeps the last), or undefined. */
  protected lastField(field: number): Range | undefined {
    return lastBytesField(this.payload, this.entry.start, this.entry.end, field);
  }

  /** Its protobuf bytes, as the runtime sent them (a view of the payload, not a copy). */
  wire(): Uint8Array {
    return this.payload.subarray(this.entry.start, this.entry.end);
  }

  protected stringMap(field: number): StringMap {
    return readStringMap(this.payload, this.entry.start, this.entry.end, field);
  }
}

/** A pod in brief: id, name, namespace; labels read when first asked for. */
export class PodBrief extends Brief {
  id = '';
  name = '';
  namespace = '';
  #labels: StringMap | undefined;

  constructor(payload: Uint8Array, entry: SyncEntry) {
    super(payload, entry);
    const r = protobuf.Reader.create(payload.subarray(entry.start, entry.end));
    while (r.pos < r.len) {
      const tag = r.uint32();
      const field = tag >>> 3;
      if ((tag & 7) === WIRE_BYTES && (field === 1 || field === 2 || field === 4)) {
        const s = r.stringVerify();
        if (field === 1) this.id = s;
        else if (field === 2) this.name = s;
        else this.namespace = s;
      } else r.skipType(tag & 7);
    }
  }

  get labels(): StringMap {
    return (this.#labels ??= this.stringMap(5));
  }

  /** The complete pod, decoded from its bytes. */
  complete(): nri.PodSandbox {
    return nri.PodSandbox.decode(this.wire());
  }
}

/** A container in brief: id, pod id, name, state; labels and Linux resources read when first asked for. */
export class ContainerBrief extends Brief {
  id = '';
  podSandboxId = '';
  name = '';
  state: nri.ContainerState = 0;
  #labels: StringMap | undefined;
  #linux: { resources?: nri.LinuxResources } | null | undefined;

  constructor(payload: Uint8Array, entry: SyncEntry) {
    super(payload, entry);
    const r = protobuf.Reader.create(payload.subarray(entry.start, entry.end));
    while (r.pos < r.len) {
      const tag = r.uint32();
      const field = tag >>> 3;
      const wire = tag & 7;
      if (wire === WIRE_BYTES && (field === 1 || field === 2 || field === 3)) {
        const s = r.stringVerify();
        if (field === 1) this.id = s;
        else if (field === 2) this.podSandboxId = s;
        else this.name = s;
      } else if (wire === WIRE_VARINT && field === 4) this.state = r.int32();
      else r.skipType(wire);
    }
  }

  get labels(): StringMap {
    return (this.#labels ??= this.stringMap(5));
  }

  /** Only linux.resources (LinuxContainer = 11, its resources = 3); null when the container has no linux. */
  get linux(): { resources?: nri.LinuxResources } | null {
    if (this.#linux === undefined) {
      const linux = this.lastField(11);
      const res = linux && lastBytesField(this.payload, linux.start, linux.end, 3);
      this.#linux = !linux
        ? null
        : res
          ? { resources: nri.LinuxResources.decode(this.payload.subarray(res.start, res.end)) }
          : {};
    }
    return this.#linux;
  }

  /** The complete container, decoded from its bytes. */
  complete(): nri.Container {
    return nri.Container.decode(this.wire());
  }
}

/** Each pod and container of the payloads in brief, in the order they came. */
export function syncBriefs(payloads: readonly Uint8Array[]): { pods: PodBrief[]; containers: ContainerBrief[] } {
  const pods: PodBrief[] = [];
  const containers: ContainerBrief[] = [];
  for (const payload of payloads)
    for (const e of synchronizeEntries(payload)) {
      if (e.kind === 'pod') pods.push(new PodBrief(payload, e));
      else containers.push(new ContainerBrief(payload, e));
    }
  return { pods, containers };
}

function lastBytesField(payload: Uint8Array, start: number, end: number, field: number): Range | undefined {
  const r = protobuf.Reader.create(payload.subarray(start, end));
  let found: Range | undefined;
  while (r.pos < r.len) {
    const tag = r.uint32();
    if (tag >>> 3 === field && (tag & 7) === WIRE_BYTES) {
      const length = r.uint32();
      found = { start: start + r.pos, end: start + r.pos + length };
      r.skip(length);
    } else r.skipType(tag & 7);
  }
  return found;
}

// map<string, string>: each entry a message of its own, key = 1, value = 2.
function readStringMap(payload: Uint8Array, start: number, end: number, field: number): StringMap {
  const out: StringMap = {};
  const r = protobuf.Reader.create(payload.subarray(start, end));
  while (r.pos < r.len) {
    const tag = r.uint32();
    if (tag >>> 3 !== field || (tag & 7) !== WIRE_BYTES) {
      r.skipType(tag & 7);
      continue;
    }
    const stop = r.uint32() + r.pos;
    let key = '';
    let value = '';
    while (r.pos < stop) {
      const t = r.uint32();
      if (t === ((1 << 3) | WIRE_BYTES)) key = r.stringVerify();
      else if (t === ((2 << 3) | WIRE_BYTES)) value = r.stringVerify();
      else r.skipType(t & 7);
    }
    out[key] = value;
  }
  return out;
}
