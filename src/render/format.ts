import YAML from 'yaml';

/** The output formats of every listing command (`-o`), as crictl and kubectl name them. */
export const OUTPUT_FORMATS = ['table', 'wide', 'json', 'yaml'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];
/** The formats that carry the complete data rather than a human summary. */
export type DataFormat = Extract<OutputFormat, 'json' | 'yaml'>;

export function isDataFormat(format: OutputFormat): format is DataFormat {
  return format === 'json' || format === 'yaml';
}

/**
 * protobufjs conversion options for output. Message#toJSON would turn 64-bit
 * fields into strings (its longs: String); we want numbers, enum names rather than
 * numbers, bytes as base64, and unset fields left out (like protojson's default).
 */
const CONVERSION = { enums: String, longs: Number, bytes: String, json: true } as const;

/** The static side of a protobufjs generated message class, as far as output needs it. */
export interface MessageType {
  fromObject(object: { [k: string]: unknown }): unknown;
  toObject(message: never, options?: object): { [k: string]: unknown };
}

function messageTypeOf(value: object): MessageType | undefined {
  const ctor = (value as { constructor?: unknown }).constructor as Partial<MessageType> & { encode?: unknown } | undefined;
  if (ctor && ctor !== Object && typeof ctor.toObject === 'function' && typeof ctor.encode === 'function' && typeof ctor.fromObject === 'function') {
    return ctor as MessageType;
  }
  return undefined;
}

/**
 * Turns a value that may hold protobufjs messages into plain JSON data: messages
 * through their type's toObject (enum names, numeric int64), Long-like objects and
 * bigints into numbers, bytes into base64, Dates into ISO strings, Maps into
 * objects. Plain objects that mirror a message (the interfaces nri.IContainer ...)
 * carry enums as numbers; pass their type to get names: toPlain(obj, nri.Container).
 */
export function toPlain(value: unknown, type?: MessageType): unknown {
  if (type && value !== null && typeof value === 'object') {
    const message = messageTypeOf(value) === type ? value : type.fromObject(value as { [k: string]: unknown });
    return type.toObject(message as never, CONVERSION);
  }
  return plain(value);
}

function plain(value: unknown): unknown {
  if (value === null || value === undefined) return value;
  switch (typeof value) {
    case 'bigint':
      return Number(value);
    case 'function':
    case 'symbol':
      return undefined;
    case 'object':
      break;
    default:
      return value;
  }
  if (Array.isArray(value)) return value.map(plain);
  if (value instanceof Uint8Array) return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64');
  if (value instanceof Date) return value.toISOString();
  if (value instanceof Map) return plain(Object.fromEntries(value));
  const type = messageTypeOf(value);
  if (type) return type.toObject(value as never, CONVERSION);
  if (isLongLike(value)) return value.toNumber();
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const p = plain(v);
    if (p !== undefined) out[k] = p;
  }
  return out;
}

function isLongLike(value: object): value is { toNumber(): number } {
  const v = value as { low?: unknown; high?: unknown; toNumber?: unknown };
  return typeof v.low === 'number' && typeof v.high === 'number' && typeof v.toNumber === 'function';
}

/** One JSON document, indented for people reading it (sync dump -o json). */
export function jsonDocument(value: unknown, type?: MessageType): string {
  return `${JSON.stringify(toPlain(value, type), null, 2)}\n`;
}

/** One item of a JSON stream: one object per line (logs -o json), for jq and log pipelines. */
export function jsonLine(value: unknown, type?: MessageType): string {
  return `${JSON.stringify(toPlain(value, type))}\n`;
}

// lineWidth 0: never fold long strings (annotations, args), so a value reads back as written.
// No anchors/aliases for repeated objects: readers expect every pod spelled out (and it is faster).
const YAML_OPTIONS = { lineWidth: 0, minContentWidth: 0, aliasDuplicateObjects: false } as const;

/** One YAML document (sync dump -o yaml). */
export function yamlDocument(value: unknown, type?: MessageType): string {
  return YAML.stringify(toPlain(value, type), YAML_OPTIONS);
}

/** One item of a YAML stream: a `---` separated document (logs -o yaml). */
export function yamlStreamItem(value: unknown, type?: MessageType): string {
  return `---\n${YAML.stringify(toPlain(value, type), YAML_OPTIONS)}`;
}

/** A whole document in a data format. */
export function renderDocument(value: unknown, format: DataFormat, type?: MessageType): string {
  return format === 'json' ? jsonDocument(value, type) : yamlDocument(value, type);
}

/** One item of a stream in a data format. */
export function renderStreamItem(value: unknown, format: DataFormat, type?: MessageType): string {
  return format === 'json' ? jsonLine(value, type) : yamlStreamItem(value, type);
}
