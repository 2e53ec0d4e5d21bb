// A CRI message as a Go runtime writes it into a verbose status's info (encoding/json of
// the generated struct): snake_case keys, empty values left out (omitempty), bytes in
// base64; map fields (labels, annotations, ...) keep their keys as they are.
const MAP_FIELDS = new Set(['labels', 'annotations', 'unified', 'sysctls', 'labelSelector']);
// Where the .proto's own name is not snake_case, Go's json tag keeps it.
const AS_NAMED: Readonly<Record<string, string>> = {
  CDIDevices: 'CDI_devices',
  uidMappings: 'uidMappings',
  gidMappings: 'gidMappings',
};

export function goJson(value: unknown): unknown {
  if (value === null || value === undefined) return undefined;
  if (value instanceof Uint8Array) return value.length === 0 ? undefined : Buffer.from(value).toString('base64');
  if (Array.isArray(value)) {
    const items = value.map(goJson).filter((v) => v !== undefined);
    return items.length === 0 ? undefined : items;
  }
  if (typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
      const field = AS_NAMED[key] ?? key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
      if (MAP_FIELDS.has(key)) {
        if (v && typeof v === 'object' && Object.keys(v).length > 0) out[field] = { ...v };
        continue;
      }
      const j = goJson(v);
      if (j !== undefined) out[field] = j;
    }
    return Object.keys(out).length === 0 ? undefined : out;
  }
  if (value === 0 || value === '' || value === false) return undefined;
  return value;
}
