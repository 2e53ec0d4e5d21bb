import { createRequire } from 'node:module';
import type * as YAML from 'yaml';
import type { WireJsonList, WireJsonWriter } from '../api/index.js';
import type { Chunk } from './chunk-writer.js';

/** The formats that carry the complete data rather than a human summary. */
export type DataFormat = 'json' | 'yaml';

/**
 * protobufjs conversion options for output, those of the protobuf JSON mapping
 * (protojson): enum names, bytes as base64, unset fields left out, and every 64-bit
 * integer as a decimal string. JavaScript, jq and most JSON readers hold numbers as
 * doubles, which round past 2^53: nanosecond timestamps (createdAt ~1.7e18) would
 * come out wrong. The type of a field never depends on its value.
 */
const CONVERSION = { enums: String, longs: String, bytes: String, json: true } as const;

/** The static side of a protobufjs generated message class, as far as output needs it. */
export interface MessageType {
  fromObject(object: { [k: string]: unknown }): unknown;
  toObject(message: never, options?: object): { [k: string]: unknown };
}

function messageTypeOf(value: object): MessageType | undefined {
  const ctor = (value as { constructor?: unknown }).constructor as
    (Partial<MessageType> & { encode?: unknown }) | undefined;
  if (
    ctor &&
    ctor !== Object &&
    typeof ctor.toObject === 'function' &&
    typeof ctor.encode === 'function' &&
    typeof ctor.fromObject === 'function'
  ) {
    return ctor as MessageType;
  }
  return undefined;
}

/**
 * Turns a value that may hold protobufjs messages into plain JSON data: messages
 * through their type's toObject (enum names, int64 as strings), Long-like objects and
 * bigints into decimal strings, bytes into base64, Dates into RFC 3339 UTC strings
 * with milliseconds (2024-05-02T09:14:07.331Z), Maps into objects. Plain objects that mirror a message (the interfaces nri.IContainer ...)
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
      return value.toString();
    case 'function':
    case 'symbol':
      return undefined;
    case 'object':
      break;
    default:
      return value;
  }
  if (Array.isArray(value)) return value.map(plain);
  if (value instanceof Uint8Array)
    return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64');
  if (value instanceof Date) return value.toISOString();
  if (value instanceof Map) return plain(Object.fromEntries(value));
  const type = messageTypeOf(value);
  if (type) return type.toObject(value as never, CONVERSION);
  if (isLongLike(value)) return longToString(value);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const p = plain(v);
    if (p !== undefined) out[k] = p;
  }
  return out;
}

interface LongLike {
  low: number;
  high: number;
  unsigned?: boolean;
}

function isLongLike(value: object): value is LongLike {
  const v = value as { low?: unknown; high?: unknown; toNumber?: unknown };
  return typeof v.low === 'number' && typeof v.high === 'number' && typeof v.toNumber === 'function';
}

// Exact, from the two 32-bit halves (toNumber would round past 2^53).
function longToString(v: LongLike): string {
  const high = v.unsigned ? BigInt(v.high >>> 0) : BigInt(v.high | 0);
  return ((high << 32n) + BigInt(v.low >>> 0)).toString();
}

/** One JSON document, indented for people reading it (sync dump -o json). */
export function jsonDocument(value: unknown, type?: MessageType): string {
  return `${JSON.stringify(toPlain(value, type), null, 2)}\n`;
}

/** One item of a JSON stream: one object per line (logs -o json), for jq and log pipelines. */
export function jsonLine(value: unknown, type?: MessageType): string {
  if (!type && isFlatPlain(value)) return `${JSON.stringify(value)}\n`;
  return `${JSON.stringify(toPlain(value, type))}\n`;
}

/**
 * A plain object (not a message, no Long: neither has Object's prototype) whose values are
 * all strings, finite or not numbers, booleans, null or undefined: toPlain would copy it
 * key for key unchanged, so JSON.stringify can take it as it is. Most stream records are
 * such (sim's state-changed lines, a few thousand a second), and the copy was a tenth of
 * what a record cost the simulator.
 */
function isFlatPlain(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) return false;
  for (const k in value) {
    const v = (value as Record<string, unknown>)[k];
    if (v !== null && typeof v === 'object') return false;
    if (typeof v === 'bigint' || typeof v === 'function' || typeof v === 'symbol') return false;
  }
  return true;
}

// lineWidth 0: never fold long strings (annotations, args), so a value reads back as written.
// No anchors/aliases for repeated objects: readers expect every pod spelled out (and it is faster).
// compat: we write YAML 1.2, but PyYAML, yq v3 and older Go yaml.v2 read YAML 1.1, where
// yes/on/y/off, 2024-05-02, 0777, 1_000 and 1:30 are booleans, dates and numbers. With
// compat, a string that either version would read as something else is quoted.
type YamlModule = typeof import('yaml');
let yamlModule: YamlModule | undefined;
// Loaded (synchronously, its CommonJS build) on the first YAML document: the yaml package
// is some 30 modules, 30-40 ms of every start-up of a command that never writes YAML.
function loadYaml(): YamlModule {
  yamlModule ??= createRequire(import.meta.url)('yaml') as YamlModule;
  return yamlModule;
}
type YamlOptions = YAML.CreateNodeOptions & YAML.DocumentOptions & YAML.SchemaOptions & YAML.ToStringOptions;
let yamlOptions: YamlOptions | undefined;
function yamlOptionsFor(): YamlOptions {
  return (yamlOptions ??= { lineWidth: 0, minContentWidth: 0, aliasDuplicateObjects: false, compat: yaml11Tags() });
}

// The yaml package's YAML 1.1 schema, plus the one implicit type PyYAML adds to it: a
// bare `=` is its "value" tag, which safe_load cannot construct (it fails the document).
function yaml11Tags(): YAML.Tags {
  const tags = new (loadYaml().Schema)({ schema: 'yaml-1.1' }).tags.filter((t): t is YAML.ScalarTag => 'test' in t);
  const value: YAML.ScalarTag = { tag: 'tag:yaml.org,2002:value', default: true, test: /^=$/, resolve: (s) => s };
  return [...tags, value];
}

/** One YAML document (sync dump -o yaml). */
export function yamlDocument(value: unknown, type?: MessageType): string {
  return loadYaml().stringify(toPlain(value, type), yamlOptionsFor());
}

/** One item of a YAML stream: a `---` separated document (logs -o yaml). */
export function yamlStreamItem(value: unknown, type?: MessageType): string {
  return `---\n${loadYaml().stringify(toPlain(value, type), yamlOptionsFor())}`;
}

/**
 * A document whose lists are too large to hold whole (sync dump of a node): the same text
 * jsonDocument or yamlDocument gives for `{ ...head, ...lists }`, in pieces, each item of
 * a list made plain and written as it is reached. Keys of head come first, in order.
 */
export function documentChunks(
  head: Record<string, unknown>,
  lists: Record<string, Iterable<unknown>>,
  format: DataFormat,
): Iterable<string> {
  return format === 'json' ? jsonChunks(head, lists) : yamlChunks(head, lists);
}

/** Items of a list made plain and stringified together (one JSON.stringify call per batch). */
const JSON_BATCH = 64;

// JSON.stringify(doc, null, 2) indents by depth alone: a batch of items stringified as
// { key: [...batch] } reads, between its `[` and `]`, exactly as the same items inside the
// whole document; a value of the head, shifted by one level, as it does there (a string
// holds no raw line break: JSON escapes it).
function* jsonChunks(head: Record<string, unknown>, lists: Record<string, Iterable<unknown>>): Generator<string> {
  let fields = yield* jsonHead(head);
  for (const [key, items] of Object.entries(lists)) {
    const open = `\n  ${JSON.stringify(key)}: [`;
    yield `${fields++ ? ',' : ''}${open}`;
    const wrapper = { open: `{${open}\n`, close: '\n  ]\n}' };
    let batch: unknown[] = [];
    let batches = 0;
    const flush = (): string => {
      const text = JSON.stringify({ [key]: batch }, null, 2);
      batch = [];
      return `${batches++ ? ',' : ''}\n${text.slice(wrapper.open.length, -wrapper.close.length)}`;
    };
    for (const item of items) {
      batch.push(toPlain(item));
      if (batch.length === JSON_BATCH) yield flush();
    }
    if (batch.length > 0) yield flush();
    yield batches ? '\n  ]' : ']';
  }
  yield fields ? '\n}\n' : '}\n';
}

/** `{` and the keys of head, each a piece; returns how many keys were written. */
function* jsonHead(head: Record<string, unknown>): Generator<string, number> {
  let fields = 0;
  yield '{';
  for (const [key, value] of Object.entries(head)) {
    const data = toPlain(value);
    if (data === undefined) continue;
    yield `${fields++ ? ',' : ''}\n  ${JSON.stringify(key)}: ${JSON.stringify(data, null, 2).replaceAll('\n', '\n  ')}`;
  }
  return fields;
}

/**
 * The text of jsonChunks, the lists given as protobuf bytes: each message's JSON written
 * from its bytes by `writer` (src/api/wire-json.ts), without decoding it. Same pieces, the
 * same text, byte for byte; a batch of items as its UTF-8 bytes. A message the writer
 * cannot write is decoded and written as jsonChunks writes it: its text then, or its
 * error, is the one of the decoding path.
 */
export function* wireJsonChunks(
  head: Record<string, unknown>,
  writer: WireJsonWriter,
  lists: Record<string, WireJsonList>,
): Generator<Chunk> {
  let fields = yield* jsonHead(head);
  for (const [key, { type, items }] of Object.entries(lists)) {
    yield `${fields++ ? ',' : ''}\n  ${JSON.stringify(key)}: [`;
    let batches = 0;
    let inBatch = 0;
    for (const bytes of items) {
      writer.text(inBatch === 0 && batches === 0 ? '\n    ' : ',\n    ');
      const mark = writer.length;
      try {
        writer.message(type, bytes, 2);
      } catch {
        writer.rewind(mark);
        // Items sit two levels deep: JSON.stringify indents by depth alone.
        writer.text(JSON.stringify(toPlain(type.decode(bytes)), null, 2).replaceAll('\n', '\n    '));
      }
      if (++inBatch === JSON_BATCH) {
        batches++;
        inBatch = 0;
        yield writer.takeBytes();
      }
    }
    if (inBatch > 0) {
      batches++;
      yield writer.takeBytes();
    }
    yield batches ? '\n  ]' : ']';
  }
  yield fields ? '\n}\n' : '}\n';
}

// A top-level mapping's keys are blocks of their own, and so is each item of a block
// sequence: `key:` and the items, each stringified alone (without its `key:` line after the first).
function* yamlChunks(head: Record<string, unknown>, lists: Record<string, Iterable<unknown>>): Generator<string> {
  const yaml = loadYaml();
  for (const [key, value] of Object.entries(head)) {
    const data = toPlain(value);
    if (data !== undefined) yield yaml.stringify({ [key]: data }, yamlOptionsFor());
  }
  for (const [key, items] of Object.entries(lists)) {
    let n = 0;
    for (const item of items) {
      const text = yaml.stringify({ [key]: [toPlain(item)] }, yamlOptionsFor());
      yield n++ ? text.slice(text.indexOf('\n') + 1) : text;
    }
    if (n === 0) yield yaml.stringify({ [key]: [] }, yamlOptionsFor());
  }
}

/** A whole document in a data format. */
export function renderDocument(value: unknown, format: DataFormat, type?: MessageType): string {
  return format === 'json' ? jsonDocument(value, type) : yamlDocument(value, type);
}
