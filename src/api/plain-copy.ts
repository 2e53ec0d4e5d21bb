// Deep copies of NRI objects. They are plain JSON-shaped data (64-bit fields decode as
// numbers, see protobuf.ts), so a JSON round trip copies them; Node's structuredClone
// goes through a worker message (serialize, then deserialize into fresh hidden classes)
// and costs several times more per call, which the simulator pays on every event.
export function plainCopy<T>(v: T): T {
  return v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T);
}
