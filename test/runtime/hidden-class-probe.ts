// Run by hidden-classes.test.ts under `node --allow-natives-syntax`: creates containers
// through the runtime (no plugin) and prints, as JSON, for which objects of the created
// containers V8 had to make a hidden class of their own instead of sharing one.
import { Runtime, SimState } from '../../src/runtime/index.js';

// V8's intrinsic, reachable only with --allow-natives-syntax; through Function so that
// the TypeScript parser never sees the % syntax.
// eslint-disable-next-line @typescript-eslint/no-implied-eval -- the one way to reach a V8 intrinsic from a test
const sameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;

const runtime = new Runtime(new SimState({ pods: [{ id: 'p', name: 'p', namespace: 'n' }] }), {
  disableConnections: true,
});
const paths: Array<[string, (c: Record<string, any>) => object]> = [
  ['container', (c) => c],
  ['container.linux', (c) => c.linux],
  ['container.linux.resources', (c) => c.linux.resources],
  ['container.linux.resources.memory', (c) => c.linux.resources.memory],
  ['container.linux.resources.cpu', (c) => c.linux.resources.cpu],
];
const differing = new Set<string>();
let previous: Record<string, any> | undefined;
for (let i = 0; i < 200; i++) {
  // A scenario's bare container: the runtime fills in linux, resources and the rest.
  const r = await runtime.createContainer('p', { id: `c${i}`, name: `c${i}` });
  if (!r.ok) throw r.error;
  const c = runtime.state.mustContainer(`c${i}`) as Record<string, any>;
  if (previous && i >= 100) for (const [name, get] of paths) if (!sameMap(get(c), get(previous))) differing.add(name);
  previous = c;
}
process.stdout.write(JSON.stringify([...differing]));
