// The message types of nri.proto as the JSON writer of wire-json.ts reads them: each
// field's kind, place in toObject's order, JSON name and enum names, compiled once from
// the generated field table (src/api/gen/nri-json-fields.js). Only the kinds of field the
// served messages use are taken; any other fails when its type is compiled.
import { enums as ENUM_ROWS, messages as MESSAGE_ROWS } from './gen/nri-json-fields.js';
import { nri } from './schema.js';

// Field kinds.
export const STRING = 0;
export const BOOL = 1;
const INT32 = 2;
export const UINT32 = 3;
export const INT64 = 4;
export const UINT64 = 5;
export const ENUM = 6;
export const MESSAGE = 7;

const SCALAR_KINDS: Record<string, number> = {
  string: STRING,
  bool: BOOL,
  int32: INT32,
  uint32: UINT32,
  int64: INT64,
  uint64: UINT64,
};

export interface Field {
  readonly name: string;
  readonly kind: number;
  readonly repeated: boolean;
  readonly map: boolean;
  /** Its index in the type's fields (field-number order). */
  readonly slot: number;
  /** The message of a message field, or of a map's values. */
  message: CompiledType | undefined;
  /** For enums: `"NAME"` by value. */
  readonly enumNames: ReadonlyMap<number, Uint8Array> | undefined;
  /** `,\n<indent>"name": ` by indentation level, made when first needed. */
  readonly keys: Uint8Array[];
}

export interface CompiledType {
  readonly name: string;
  readonly fields: readonly Field[];
  /** Fields by number (undefined: a field this schema does not know). */
  readonly byNumber: readonly (Field | undefined)[];
}

/** A message type that JSON can be written for from its bytes. */
export interface WireJsonType {
  readonly name: string;
  /** The message decoded the ordinary way (the generated decoder): the fallback. */
  decode(bytes: Uint8Array): object;
}

/** Messages of one type as their bytes, for writing their JSON without decoding them. */
export interface WireJsonList {
  type: WireJsonType;
  items: Iterable<Uint8Array>;
}

export interface TypeHandle extends WireJsonType {
  readonly compiled: CompiledType;
}

const compiledTypes = new Map<string, CompiledType>();
const enumNameTables = new Map<string, ReadonlyMap<number, Uint8Array>>();
export const ascii = (s: string): Uint8Array => Buffer.from(s, 'latin1');

function enumNames(name: string): ReadonlyMap<number, Uint8Array> {
  let table = enumNameTables.get(name);
  if (!table) {
    // As the generated enum object: valuesById[number] = name, the last name of a number.
    const m = new Map<number, Uint8Array>();
    for (const [n, v] of ENUM_ROWS[name]) m.set(v, ascii(JSON.stringify(n)));
    enumNameTables.set(name, (table = m));
  }
  return table;
}

function compile(name: string): CompiledType {
  const known = compiledTypes.get(name);
  if (known) return known;
  const rows = MESSAGE_ROWS[name];
  if (!rows) throw new Error(`wire-json: no message ${name} in nri.proto`);
  const fields: Field[] = [];
  const byNumber: (Field | undefined)[] = [];
  const t: CompiledType = { name, fields, byNumber };
  compiledTypes.set(name, t); // before the fields: a message may hold its own type
  const pending: [Field, string][] = [];
  for (const row of rows) {
    const [number, fieldName, label, type] = row;
    const keyType = (row as readonly unknown[])[4];
    if (label === 'map' && keyType !== 'string')
      throw new Error(`wire-json: ${name}.${fieldName}: map keys of type ${String(keyType)} are not supported`);
    let kind: number;
    if (type in SCALAR_KINDS) kind = SCALAR_KINDS[type];
    else if (type in ENUM_ROWS) kind = ENUM;
    else if (type in MESSAGE_ROWS) kind = MESSAGE;
    else throw new Error(`wire-json: ${name}.${fieldName}: fields of type ${type} are not supported`);
    if (label === 'map' && kind !== STRING && kind !== MESSAGE)
      throw new Error(`wire-json: ${name}.${fieldName}: map values of type ${type} are not supported`);
    const f: Field = {
      name: fieldName,
      kind,
      repeated: label === 'repeated',
      map: label === 'map',
      slot: fields.length,
      message: undefined,
      enumNames: kind === ENUM ? enumNames(type) : undefined,
      keys: [],
    };
    if (kind === MESSAGE) pending.push([f, type]);
    fields.push(f);
    byNumber[number] = f;
  }
  for (const [f, type] of pending) f.message = compile(type);
  return t;
}

/** The type `name` of nri.proto (PodSandbox, Container ...), compiled for writing; throws for kinds it cannot write. */
export function wireJsonType(name: string): WireJsonType {
  const generated = (nri as unknown as Record<string, { decode?(b: Uint8Array): object } | undefined>)[name];
  if (typeof generated?.decode !== 'function') throw new Error(`wire-json: no generated message ${name}`);
  const handle: TypeHandle = { name, compiled: compile(name), decode: (b) => generated.decode!(b) };
  return handle;
}
