// What the runtime does with a merged result: apply a CreateContainer adjustment to
// the simulated container, and carry out container updates (UpdateContainers from a
// plugin, or the updates collected during a request).
import type { nri } from '../../api/index.js';
import type { SimState } from './state.js';

function removalKey(key: string | null | undefined): [string, boolean] {
  const k = key ?? '';
  return k.startsWith('-') ? [k.slice(1), true] : [k, false];
}

/** Applies a keyed map adjustment: '-key' entries remove, the rest set (removals first, so a re-set wins). */
// Both return `target` itself when the adjustment has nothing for it: it is the
// container's own (the runtime applies to the state's container), and most adjustments
// leave most fields alone, so a copy per field per event would buy nothing.
function applyMap<T>(target: Record<string, T>, adjust: Record<string, T> | null | undefined): Record<string, T> {
  if (!adjust) return target;
  const entries = Object.entries(adjust);
  if (entries.length === 0) return target;
  const out = { ...target };
  for (const [k] of entries) {
    const [key, marked] = removalKey(k);
    if (marked) delete out[key];
  }
  for (const [k, v] of entries) if (!removalKey(k)[1]) out[k] = v;
  return out;
}

function applyList<T>(target: T[], adjust: T[] | null | undefined, keyOf: (t: T) => string | null | undefined): T[] {
  if (!adjust?.length) return target;
  let out = [...target];
  for (const item of adjust ?? []) {
    const [key, marked] = removalKey(keyOf(item));
    out = out.filter((t) => (keyOf(t) ?? '') !== key);
    if (!marked) out.push(item);
  }
  return out;
}

/** Makes the container look as the runtime would create it with this adjustment. */
export function applyAdjustment(
  state: SimState,
  containerId: string,
  adjust: nri.IContainerAdjustment,
): nri.IContainer {
  const c = state.mustContainer(containerId);
  c.annotations = applyMap(c.annotations ?? {}, adjust.annotations);
  c.mounts = applyList(c.mounts ?? [], adjust.mounts, (m) => m.destination);
  const env = new Map((c.env ?? []).map((e) => [e.split('=', 1)[0], e]));
  for (const kv of adjust.env ?? []) {
    const [key, marked] = removalKey(kv.key);
    if (marked) env.delete(key);
    else env.set(key, `${key}=${kv.value ?? ''}`);
  }
  c.env = [...env.values()];
  if (adjust.args?.length) c.args = [...adjust.args];
  if (adjust.hooks) {
    const hooks: nri.IHooks = Object.assign({}, c.hooks);
    for (const k of [
      'prestart',
      'createRuntime',
      'createContainer',
      'startContainer',
      'poststart',
      'poststop',
    ] as const) {
      if (adjust.hooks[k]?.length) hooks[k] = [...(hooks[k] ?? []), ...adjust.hooks[k]];
    }
    c.hooks = hooks;
  }
  c.rlimits = applyList(c.rlimits ?? [], adjust.rlimits, (r) => r.type);
  if (adjust.CDIDevices?.length) c.CDIDevices = [...(c.CDIDevices ?? []), ...adjust.CDIDevices];
  const a = adjust.linux;
  if (a) {
    // Object.assign, not a spread: fields are added below (hidden classes, README.md).
    const linux: nri.ILinuxContainer = Object.assign({}, c.linux);
    linux.devices = applyList(linux.devices ?? [], a.devices, (d) => d.path);
    if (a.cgroupsPath) linux.cgroupsPath = a.cgroupsPath;
    if (a.oomScoreAdj) linux.oomScoreAdj = { value: a.oomScoreAdj.value ?? 0 };
    if (a.ioPriority) linux.ioPriority = a.ioPriority;
    if (a.seccompPolicy) linux.seccompPolicy = a.seccompPolicy;
    if (a.scheduler) linux.scheduler = a.scheduler;
    if (a.rdt && (a.rdt.remove || a.rdt.closId || a.rdt.schemata || a.rdt.enableMonitoring))
      linux.rdt = a.rdt.remove && !a.rdt.closId ? null : a.rdt;
    linux.namespaces = applyList(linux.namespaces ?? [], a.namespaces, (n) => n.type);
    linux.sysctl = applyMap(linux.sysctl ?? {}, a.sysctl);
    linux.netDevices = applyMap(linux.netDevices ?? {}, a.netDevices);
    c.linux = linux;
    if (a.resources) state.applyLinuxResources(containerId, a.resources);
  }
  return c;
}

export interface UpdateOutcome {
  /** Container ids whose resources changed. */
  applied: string[];
  /** The updates that failed, as UpdateContainersResponse.failed reports them. */
  failed: nri.IContainerUpdate[];
  /** Updates ignored because they named no container. */
  skipped: nri.IContainerUpdate[];
}

/**
 * Carries out an UpdateContainers request. An update without a container id is not
 * applied (and is not a failure); one for an unknown container fails unless it asked
 * for ignore_failure.
 */
export function applyUpdates(state: SimState, updates: nri.IContainerUpdate[] | null | undefined): UpdateOutcome {
  const out: UpdateOutcome = { applied: [], failed: [], skipped: [] };
  for (const u of updates ?? []) {
    const id = u.containerId ?? '';
    if (!id) {
      out.skipped.push(u);
      continue;
    }
    if (!state.container(id)) {
      if (!u.ignoreFailure) out.failed.push(u);
      continue;
    }
    const resources = u.linux?.resources;
    if (resources) state.applyLinuxResources(id, resources);
    out.applied.push(id);
  }
  return out;
}
