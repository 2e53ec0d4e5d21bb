// The fields of a message in protobuf's JSON mapping (as `logs -o json` and recordings
// hold them) that nri.proto does not have: a newer NRI's, a runtime's own, a hand's.
// protobufjs' fromObject drops them without a word; a reader that must say what it left
// out asks here first. Read from the generated field table, one walk of the JSON.
import { messages as MESSAGE_ROWS } from './gen/nri-json-fields.js';

type FieldRow = (typeof MESSAGE_ROWS)[string][number];

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const byName = new Map<string, ReadonlyMap<string, FieldRow>>();

function fieldsOf(type: string): ReadonlyMap<string, FieldRow> | undefined {
  let fields = byName.get(type);
  if (!fields) {
    const rows = MESSAGE_ROWS[type];
    if (!rows) return undefined;
    fields = new Map(rows.map((r) => [r[1], r]));
    byName.set(type, fields);
  }
  return fields;
}

/**
 * Calls `found` with the dotted path of every key of `json`, at any depth, that message
 * `type` (e.g. "CreateContainerRequest", "PodSandbox") has no field for; a repeated
 * field's elements and a map's values are walked into without an index in the path, so
 * that one unknown field of many containers is one path. Values of the wrong kind are the
 * decoder's to refuse, not this walk's.
 */
export function unknownJsonFields(type: string, json: unknown, found: (path: string) => void, prefix = ''): void {
  const fields = fieldsOf(type);
  if (!fields || !isObject(json)) return;
  for (const [key, value] of Object.entries(json)) {
    const row = fields.get(key);
    if (!row) {
      found(`${prefix}${key}`);
      continue;
    }
    const valueType = row[3];
    if (!MESSAGE_ROWS[valueType]) continue;
    const path = `${prefix}${key}.`;
    if (row[2] === 'repeated' && Array.isArray(value))
      for (const v of value as unknown[]) unknownJsonFields(valueType, v, found, path);
    else if (row[2] === 'map' && isObject(value))
      for (const v of Object.values(value)) unknownJsonFields(valueType, v, found, path);
    else unknownJsonFields(valueType, value, found, path);
  }
}
