// What a probe saw of a container, flattened to "field/key" -> value so that two probes'
// views compare entry by entry. Only the parts a plugin can adjust and the runtime applies
// to the request before the next plugin (containerd/nri result.go): env, annotations,
// mounts, devices, rlimits, hooks and the Linux resources.
import type { nri } from '../api/index.js';

export type ContainerView = Map<string, string>;

export interface Change {
  /** env, annotations, mounts, devices, rlimits, hooks, resources. */
  field: string;
  key: string;
  /** Undefined: not set before (an addition) / after (a removal). */
  old?: string;
  new?: string;
}

export function createView(ctr: nri.IContainer | null | undefined): ContainerView {
  const v: ContainerView = new Map();
  if (!ctr) return v;
  for (const e of ctr.env ?? []) {
    const eq = e.indexOf('=');
    v.set(`env/${eq < 0 ? e : e.slice(0, eq)}`, eq < 0 ? '' : e.slice(eq + 1));
  }
  for (const [k, val] of Object.entries(ctr.annotations ?? {})) v.set(`annotations/${k}`, val);
  for (const m of ctr.mounts ?? [])
    v.set(
      `mounts/${m.destination ?? ''}`,
      [m.source ?? '', m.type ?? '', (m.options ?? []).join(',')].join(' ').trim(),
    );
  for (const d of ctr.linux?.devices ?? [])
    v.set(`devices/${d.path ?? ''}`, `${d.type ?? ''} ${d.major ?? 0}:${d.minor ?? 0}`);
  for (const r of ctr.rlimits ?? []) v.set(`rlimits/${r.type ?? ''}`, `${r.soft ?? 0}/${r.hard ?? 0}`);
  const hooks = ctr.hooks as Record<string, Array<{ path?: string | null }> | undefined> | null | undefined;
  for (const [kind, list] of Object.entries(hooks ?? {})) {
    if (Array.isArray(list) && list.length > 0) v.set(`hooks/${kind}`, list.map((h) => h.path ?? '').join(','));
  }
  flattenResources(ctr.linux?.resources, v);
  return v;
}

/** UpdateContainer: the requested resources, as adjusted by the plugins so far. */
export function updateView(resources: nri.ILinuxResources | null | undefined): ContainerView {
  const v: ContainerView = new Map();
  flattenResources(resources, v);
  return v;
}

function flattenResources(resources: unknown, into: ContainerView): void {
  if (resources) walk(resources, 'resources/', into, 0);
}

const isOptionalWrapper = (o: object): o is { value: unknown } => {
  const keys = Object.keys(o);
  return keys.length === 1 && keys[0] === 'value';
};

function walk(node: unknown, prefix: string, into: ContainerView, depth: number): void {
  if (node === null || node === undefined || depth > 6) return;
  if (typeof node !== 'object') {
    into.set(prefix.slice(0, -1), typeof node === 'string' ? node : JSON.stringify(node));
    return;
  }
  if (Array.isArray(node)) {
    if (node.length > 0) into.set(prefix.slice(0, -1), JSON.stringify(node));
    return;
  }
  if (isOptionalWrapper(node)) {
    walk(node.value, prefix, into, depth + 1);
    return;
  }
  for (const [k, val] of Object.entries(node)) {
    walk(val, `${prefix}${k}.`, into, depth + 1);
  }
}

/** What changed from one view to the next, in a stable order. */
export function diffViews(before: ContainerView, after: ContainerView): Change[] {
  const keys = new Set([...before.keys(), ...after.keys()]);
  const out: Change[] = [];
  for (const k of [...keys].sort()) {
    const a = before.get(k);
    const b = after.get(k);
    if (a === b) continue;
    const slash = k.indexOf('/');
    out.push({
      field: k.slice(0, slash),
      key: k.slice(slash + 1),
      ...(a !== undefined ? { old: a } : {}),
      ...(b !== undefined ? { new: b } : {}),
    });
  }
  return out;
}
