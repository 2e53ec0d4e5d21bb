// One form for NRI messages from both sides of a differential check, so that they can be
// compared with toEqual: Go's protojson (proto field names, 64-bit numbers as strings,
// enums by name; or YAML of the Go structs, enums as numbers) and the simulator's
// messages (protobufjs objects, camelCase). Both go through the wire encoding of the
// project's schema (src/api/nri.proto, read with proto field names), then come out as
// plain objects with proto field names, numbers, enum names, and no empty messages,
// lists or maps: Go sends empty messages (hooks {}, rdt {}, resources {cpu {}, memory
// {}}) where the simulator sends none, and no runtime reads an empty one differently.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import protobuf from 'protobufjs';
import { nri } from '../../../src/api/index.js';
import type { GoJson } from './fixture.js';

const PROTO = fileURLToPath(new URL('../../../src/api/nri.proto', import.meta.url));
const root = protobuf.parse(readFileSync(PROTO, 'utf8'), { keepCase: true }).root;

type Kind = 'ContainerAdjustment' | 'Container' | 'ContainerUpdate' | 'ContainerEviction';
const reflected = (kind: Kind): protobuf.Type => root.lookupType(`nri.pkg.api.v1alpha1.${kind}`);
const OUT: protobuf.IConversionOptions = { longs: Number, enums: String, bytes: String, defaults: false };

function prune(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(prune);
  if (v === null || typeof v !== 'object') return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    const p = prune(x);
    const empty =
      (Array.isArray(p) && p.length === 0) ||
      (p !== null && typeof p === 'object' && !Array.isArray(p) && Object.keys(p).length === 0);
    if (!empty) out[k] = p;
  }
  return out;
}

/** Go's JSON of a message in the comparable form. */
export function fromGo(kind: Kind, json: GoJson): GoJson {
  const T = reflected(kind);
  return prune(T.toObject(T.fromObject(json), OUT)) as GoJson;
}

/** A simulator message (protobufjs object) in the comparable form. */
export function fromSim(kind: Kind, message: object): GoJson {
  const T = reflected(kind);
  const bytes = (nri[kind] as unknown as { encode(m: object): protobuf.Writer }).encode(message).finish();
  return prune(T.toObject(T.decode(bytes), OUT)) as GoJson;
}

/** Go's JSON of a message as the simulator's protobufjs object, e.g. for a plugin to answer with. */
export function goToSim<K extends Kind>(kind: K, json: GoJson): InstanceType<(typeof nri)[K]> {
  const T = reflected(kind);
  const bytes = T.encode(T.fromObject(json)).finish();
  return (nri[kind] as unknown as { decode(b: Uint8Array): InstanceType<(typeof nri)[K]> }).decode(bytes);
}
