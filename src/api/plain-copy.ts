// Deep copies of NRI objects: plain data (objects, arrays, strings, numbers, booleans;
// 64-bit fields decode as numbers, see protobuf.ts), copied as structuredClone copies
// them: own enumerable properties, into plain objects. Written out because the simulator
// copies on every event, and both structuredClone (a worker message: serialize, then
// deserialize) and a JSON round trip cost several times more. Properties whose value is
// undefined are left out, as JSON leaves them out, so an object copied into the
// simulated state looks as it did when the state copied through JSON.
export function plainCopy<T>(v: T): T {
  return copy(v) as T;
}

function copy(v: unknown): unknown {
  if (typeof v !== 'object' || v === null) return v;
  if (Array.isArray(v)) return v.map(copy);
  if (ArrayBuffer.isView(v)) return new Uint8Array(v.buffer.slice(v.byteOffset, v.byteOffset + v.byteLength));
  // Built property by property, never by spreading: the objects keep a few stable hidden
  // classes, so the code that reads them stays fast (see src/runtime/README.md).
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v)) {
    const x = (v as Record<string, unknown>)[k];
    if (x !== undefined) out[k] = copy(x);
  }
  return out;
}
