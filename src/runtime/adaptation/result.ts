// Collects the answers of several plugins to one CreateContainer, UpdateContainer or
// StopContainer request into the single result the runtime acts on, the way the Go
// runtime does (containerd/nri pkg/adaptation result.go). Plugins are applied in
// invocation order; each later plugin is sent `collector.request`, which already
// carries the earlier plugins' changes, as in the Go runtime.
import { isEmptyAdjustment, nri, plainCopy } from '../../api/index.js';
import { MergeError } from './errors.js';
import { Owners } from './owners.js';

const F = nri.Field;

export type CollectRequest =
  | { create: nri.ICreateContainerRequest }
  | { update: nri.IUpdateContainerRequest }
  | { stop: nri.IStopContainerRequest };

export type PluginResponse = nri.ICreateContainerResponse | nri.IUpdateContainerResponse | nri.IStopContainerResponse;

export interface CollectedEviction {
  containerId: string;
  reason: string;
  plugin: string;
}

export interface CollectedResult {
  /** CreateContainer only: the merged adjustment, including removal markers ('-' prefixed keys). */
  adjust?: nri.IContainerAdjustment;
  /** Per-container merged updates, in the order containers were first named. */
  updates: nri.IContainerUpdate[];
  evictions: CollectedEviction[];
}

function removal(key: string | null | undefined): [string, boolean] {
  const k = key ?? '';
  return k.startsWith('-') ? [k.slice(1), true] : [k, false];
}

function emptyResources(): nri.ILinuxResources {
  return { memory: {}, cpu: {}, hugepageLimits: [], unified: {} };
}

type Ctr = nri.IContainer & { linux: nri.ILinuxContainer & { resources: nri.ILinuxResources } };

export class ResultCollector {
  private readonly kind: 'create' | 'update' | 'stop';
  private req: nri.ICreateContainerRequest | nri.IUpdateContainerRequest | nri.IStopContainerRequest;
  private readonly adjust?: nri.IContainerAdjustment & {
    linux: nri.ILinuxContainerAdjustment & { resources: nri.ILinuxResources };
  };
  private readonly updates = new Map<string, nri.IContainerUpdate>();
  private readonly replyUpdates: nri.IContainerUpdate[] = [];
  private readonly evictions: CollectedEviction[] = [];
  private failure?: Error;
  private ownsContainer = false;
  readonly owners = new Owners();
  /**
   * Counts the answers that may have changed `request`. While it stays the same the
   * request is too, and the runtime sends the next plugin the bytes it already encoded.
   */
  revision = 0;

  constructor(request: CollectRequest) {
    if ('create' in request) {
      this.kind = 'create';
      // The pod is only sent, never changed, so it is shared. The container is shared too
      // until a plugin adjusts it: most answers change nothing, and then the copy would
      // cost the runtime an allocation and a deep copy per event for nothing.
      this.req = { pod: request.create.pod, container: request.create.container ?? {} };
      this.adjust = {
        annotations: {},
        mounts: [],
        env: [],
        hooks: {},
        rlimits: [],
        CDIDevices: [],
        linux: { devices: [], resources: emptyResources(), namespaces: [], netDevices: {}, sysctl: {} },
      };
    } else if ('update' in request) {
      this.kind = 'update';
      const req = plainCopy(request.update);
      const res = (req.linuxResources ??= {});
      res.memory ??= {};
      res.cpu ??= {};
      this.req = req;
    } else {
      this.kind = 'stop';
      this.req = plainCopy(request.stop);
    }
  }

  /** The request as the next plugin should see it, with earlier plugins' changes applied. */
  get request(): nri.ICreateContainerRequest | nri.IUpdateContainerRequest | nri.IStopContainerRequest {
    return this.req;
  }

  private get created(): Ctr {
    return this.req.container as Ctr;
  }

  /** The container becomes the collector's own, with every field an adjustment may touch present. */
  private ownContainer(): void {
    if (this.ownsContainer) return;
    this.ownsContainer = true;
    const req = this.req;
    const c = plainCopy(req.container!);
    c.labels ??= {};
    c.annotations ??= {};
    c.mounts ??= [];
    c.env ??= [];
    c.hooks ??= {};
    c.rlimits ??= [];
    const linux = (c.linux ??= {});
    linux.devices ??= [];
    const res = (linux.resources ??= {});
    res.memory ??= {};
    res.cpu ??= {};
    res.unified ??= {};
    linux.namespaces ??= [];
    linux.netDevices ??= {};
    linux.sysctl ??= {};
    // The request object stays the one the runtime relays; only its container is new.
    req.container = c;
  }

  private get id(): string {
    return this.created.id ?? '';
  }

  /** Merges one plugin's answer. Throws ConflictError or MergeError, as the runtime fails the request there. */
  apply(plugin: string, response: PluginResponse | null | undefined): void {
    if (this.failure) throw this.failure;
    if (!response) return;
    const r = response as nri.ICreateContainerResponse;
    // Most plugins answer with an empty adjustment: it changes nothing, so it costs nothing.
    const adjust = r.adjust && !isEmptyAdjustment(r.adjust) ? r.adjust : undefined;
    if (adjust || r.update?.length || r.evict?.length) this.revision++;
    try {
      if (this.kind === 'create') {
        this.adjustAll(adjust, plugin);
        this.update(r.update, plugin);
        this.evict(r.evict, plugin);
      } else if (this.kind === 'update') {
        const r = response as nri.IUpdateContainerResponse;
        this.update(r.update, plugin);
        this.evict(r.evict, plugin);
      } else {
        this.update(response.update, plugin);
      }
    } catch (err) {
      this.failure = err as Error;
      throw err;
    }
  }

  /** The merged result, or the error that failed the request. */
  result(): CollectedResult {
    if (this.failure) throw this.failure;
    const updates = [...this.replyUpdates];
    if (this.kind === 'update') {
      // The requested container's own (possibly plugin-modified) update comes last.
      const id = (this.req as nri.IUpdateContainerRequest).container?.id ?? '';
      const own = this.updates.get(id);
      if (own) updates.push(own);
    }
    const out: CollectedResult = { updates, evictions: [...this.evictions] };
    if (this.adjust) out.adjust = this.adjust;
    return out;
  }

  private evict(list: nri.IContainerEviction[] | null | undefined, plugin: string): void {
    for (const e of list ?? [])
      this.evictions.push({ containerId: e.containerId ?? '', reason: e.reason ?? '', plugin });
  }

  // ---- CreateContainer adjustments, in the Go runtime's order -------------------

  private adjustAll(a: nri.IContainerAdjustment | null | undefined, plugin: string): void {
    if (!a) return;
    this.ownContainer();
    this.adjustKeyed('annotations', a.annotations, plugin);
    this.adjustMounts(a.mounts, plugin);
    this.adjustEnv(a.env, plugin);
    this.adjustArgs(a.args, plugin);
    this.adjustHooks(a.hooks, plugin);
    const l = a.linux;
    if (l) {
      this.adjustDevices(l.devices, plugin);
      this.adjustResources(l.resources, plugin);
      this.adjustSimple(F.CgroupsPath, 'cgroupsPath', l.cgroupsPath || undefined, plugin);
      this.adjustSimple(
        F.OomScoreAdj,
        'oomScoreAdj',
        l.oomScoreAdj ? { value: l.oomScoreAdj.value ?? 0 } : undefined,
        plugin,
      );
      this.adjustSimple(F.IoPriority, 'ioPriority', l.ioPriority ?? undefined, plugin);
      this.adjustSimple(F.SeccompPolicy, 'seccompPolicy', l.seccompPolicy ?? undefined, plugin);
      this.adjustNamespaces(l.namespaces, plugin);
      this.adjustKeyed('sysctl', l.sysctl, plugin);
      this.adjustKeyed('netDevices', l.netDevices, plugin);
      this.adjustSimple(F.LinuxSched, 'scheduler', l.scheduler ?? undefined, plugin);
      this.adjustRdt(l.rdt, plugin);
      this.adjustSimple(F.MemoryPolicy, 'memoryPolicy', l.memoryPolicy ?? undefined, plugin);
    }
    this.adjustRlimits(a.rlimits, plugin);
    this.adjustCDIDevices(a.CDIDevices, plugin);
  }

  /** Map-shaped fields: annotations, sysctl, net devices. A '-key' entry removes the key. */
  private adjustKeyed(
    which: 'annotations' | 'sysctl' | 'netDevices',
    map: Record<string, unknown> | null | undefined,
    plugin: string,
  ): void {
    if (!map || Object.keys(map).length === 0) return;
    const field = which === 'annotations' ? F.Annotations : which === 'sysctl' ? F.Sysctl : F.LinuxNetDevices;
    const ctr = (which === 'annotations' ? this.created.annotations : this.created.linux[which]) as Record<
      string,
      unknown
    >;
    const reply = (which === 'annotations' ? this.adjust!.annotations : this.adjust!.linux[which]) as Record<
      string,
      unknown
    >;
    const marker = which === 'netDevices' ? {} : '';
    const del = new Set<string>();
    for (const k of Object.keys(map)) {
      const [key, marked] = removal(k);
      if (marked) del.add(key);
    }
    for (const [k, v] of Object.entries(map)) {
      if (removal(k)[1]) continue;
      if (del.has(k)) {
        // Removed and set again by the same plugin: the plugin takes the key over.
        this.owners.clearEntry(this.id, field, k, plugin);
        delete ctr[k];
        reply[`-${k}`] = marker;
      }
      this.owners.claimEntry(this.id, field, k, plugin);
      ctr[k] = v;
      reply[k] = v;
      del.delete(k);
    }
    // Go quirk, copied: a sysctl removal with no re-set lands among the annotations.
    const removals = which === 'sysctl' ? (this.adjust!.annotations as Record<string, unknown>) : reply;
    for (const k of del) removals[`-${k}`] = marker;
  }

  private adjustMounts(mounts: nri.IMount[] | null | undefined, plugin: string): void {
    if (!mounts?.length) return;
    const { add, del, mod } = split(mounts, (m) => m.destination);
    this.adjust!.mounts = this.adjust!.mounts!.filter((m) => {
      if (!del.has(m.destination ?? '')) return true;
      this.owners.clearEntry(this.id, F.Mounts, m.destination ?? '', plugin);
      return false;
    });
    this.created.mounts = this.created.mounts!.filter(
      (m) => !del.has(m.destination ?? '') && !mod.has(m.destination ?? ''),
    );
    for (const m of add) {
      this.owners.claimEntry(this.id, F.Mounts, m.destination ?? '', plugin);
      this.adjust!.mounts.push(m);
    }
    // Only mounts keep a removal marker in the merged adjustment (see README).
    for (const [key, m] of del) if (!mod.has(key)) this.adjust!.mounts.push(m);
    this.created.mounts.push(...add);
  }

  private adjustEnv(env: nri.IKeyValue[] | null | undefined, plugin: string): void {
    if (!env?.length) return;
    const { add, del, mod } = split(env, (e) => e.key);
    this.adjust!.env = this.adjust!.env!.filter((e) => {
      if (!del.has(e.key ?? '')) return true;
      this.owners.clearEntry(this.id, F.Env, e.key ?? '', plugin);
      return false;
    });
    this.created.env = this.created.env!.filter((e) => {
      const key = e.split('=', 1)[0];
      return !del.has(key) && !mod.has(key);
    });
    for (const e of add) {
      this.owners.claimEntry(this.id, F.Env, e.key ?? '', plugin);
      this.adjust!.env.push(e);
    }
    for (const e of add) this.created.env.push(`${e.key ?? ''}=${e.value ?? ''}`);
  }

  private adjustDevices(devices: nri.ILinuxDevice[] | null | undefined, plugin: string): void {
    if (!devices?.length) return;
    const { add, del, mod } = split(devices, (d) => d.path);
    const reply = this.adjust!.linux;
    reply.devices = reply.devices!.filter((d) => {
      if (!del.has(d.path ?? '')) return true;
      this.owners.clearEntry(this.id, F.Devices, d.path ?? '', plugin);
      return false;
    });
    const linux = this.created.linux;
    linux.devices = linux.devices!.filter((d) => !del.has(d.path ?? '') && !mod.has(d.path ?? ''));
    for (const d of add) {
      this.owners.claimEntry(this.id, F.Devices, d.path ?? '', plugin);
      reply.devices.push(d);
    }
    linux.devices.push(...add);
  }

  private adjustArgs(args: string[] | null | undefined, plugin: string): void {
    if (!args?.length) return;
    let list = args;
    if (list[0] === '') {
      // A leading empty string replaces the command line outright, whoever set it before.
      this.owners.clear(this.id, F.Args, plugin);
      list = list.slice(1);
    }
    this.owners.claim(this.id, F.Args, plugin);
    this.adjust!.args = [...list];
    this.created.args = [...list];
  }

  private adjustHooks(hooks: nri.IHooks | null | undefined, plugin: string): void {
    if (!hooks) return;
    const kinds = ['prestart', 'poststart', 'poststop', 'createRuntime', 'createContainer', 'startContainer'] as const;
    let added = false;
    for (const k of kinds) {
      const h = hooks[k];
      if (!h?.length) continue;
      this.adjust!.hooks![k] = [...(this.adjust!.hooks![k] ?? []), ...h];
      this.created.hooks![k] = [...(this.created.hooks![k] ?? []), ...h];
      added = true;
    }
    if (added) this.owners.claimHooks(this.id, plugin);
  }

  private adjustSimple<
    K extends 'cgroupsPath' | 'oomScoreAdj' | 'ioPriority' | 'seccompPolicy' | 'scheduler' | 'memoryPolicy',
  >(field: nri.Field, key: K, value: nri.ILinuxContainerAdjustment[K] | undefined, plugin: string): void {
    if (value === undefined || value === null) return;
    this.owners.claim(this.id, field, plugin);
    (this.created.linux as unknown as Record<string, unknown>)[key] = value;
    (this.adjust!.linux as unknown as Record<string, unknown>)[key] = value;
  }

  private adjustNamespaces(namespaces: nri.ILinuxNamespace[] | null | undefined, plugin: string): void {
    if (!namespaces?.length) return;
    const byType = new Map((this.created.linux.namespaces ?? []).map((n) => [n.type ?? '', n]));
    for (const n of namespaces) {
      if (!n) continue;
      const [key, marked] = removal(n.type);
      // Removing a namespace claims it too: a later plugin may not put it back.
      this.owners.claimEntry(this.id, F.Namespace, key, plugin);
      if (marked) byType.delete(key);
      else byType.set(key, n);
      this.adjust!.linux.namespaces!.push(n);
    }
    this.created.linux.namespaces = [...byType.values()];
  }

  private adjustRdt(rdt: nri.ILinuxRdt | null | undefined, plugin: string): void {
    if (!rdt) return;
    const reply = this.adjust!.linux;
    reply.rdt ??= {};
    if (rdt.remove) {
      for (const f of [F.RdtClosID, F.RdtSchemata, F.RdtEnableMonitoring]) this.owners.clear(this.id, f, plugin);
      reply.rdt = { remove: true };
    }
    if (rdt.closId) {
      this.owners.claim(this.id, F.RdtClosID, plugin);
      reply.rdt = { ...reply.rdt, closId: { value: rdt.closId.value ?? '' }, remove: false };
    }
    if (rdt.schemata) {
      this.owners.claim(this.id, F.RdtSchemata, plugin);
      reply.rdt = { ...reply.rdt, schemata: { value: [...(rdt.schemata.value ?? [])] }, remove: false };
    }
    if (rdt.enableMonitoring) {
      this.owners.claim(this.id, F.RdtEnableMonitoring, plugin);
      reply.rdt = { ...reply.rdt, enableMonitoring: { value: rdt.enableMonitoring.value ?? false }, remove: false };
    }
  }

  private adjustRlimits(rlimits: nri.IPOSIXRlimit[] | null | undefined, plugin: string): void {
    for (const l of rlimits ?? []) {
      this.owners.claimEntry(this.id, F.Rlimits, l.type ?? '', plugin);
      this.created.rlimits!.push(l);
      this.adjust!.rlimits!.push(l);
    }
  }

  private adjustCDIDevices(devices: nri.ICDIDevice[] | null | undefined, plugin: string): void {
    for (const d of devices ?? []) {
      // CDI devices can only be added, and the same device twice is a conflict.
      this.owners.claimEntry(this.id, F.CdiDevices, d.name ?? '', plugin);
      this.adjust!.CDIDevices!.push(d);
    }
  }

  private adjustResources(r: nri.ILinuxResources | null | undefined, plugin: string): void {
    if (!r) return;
    const ctr = this.created.linux.resources;
    const reply = this.adjust!.linux.resources;
    setResources(this.owners, this.id, plugin, r, [ctr, reply], true);
  }

  // ---- updates of other containers (and, for UpdateContainer, of the requested one) ----

  private update(updates: nri.IContainerUpdate[] | null | undefined, plugin: string): void {
    for (const u of updates ?? []) {
      const merged = this.containerUpdate(u, plugin);
      try {
        this.updateResources(merged, u, plugin);
      } catch (err) {
        // ignore_failure also covers conflicts: the update is dropped, the request goes on.
        if (!u.ignoreFailure) throw err;
      }
    }
  }

  private containerUpdate(u: nri.IContainerUpdate, plugin: string): nri.IContainerUpdate {
    const id = u.containerId ?? '';
    if (this.kind === 'create' && id === this.id) {
      throw new MergeError(
        `plugin "${plugin}" asked to update container "${id}" while it is being created (adjust it instead)`,
        plugin,
        id,
        'update-during-creation',
      );
    }
    const existing = this.updates.get(id);
    if (existing) {
      existing.ignoreFailure = Boolean(existing.ignoreFailure) && Boolean(u.ignoreFailure);
      return existing;
    }
    const fresh: nri.IContainerUpdate = {
      containerId: id,
      linux: { resources: emptyResources() },
      ignoreFailure: Boolean(u.ignoreFailure),
    };
    this.updates.set(id, fresh);
    const requested =
      this.kind === 'update' ? ((this.req as nri.IUpdateContainerRequest).container?.id ?? '') : undefined;
    if (id !== requested) this.replyUpdates.push(fresh);
    return fresh;
  }

  private updateResources(merged: nri.IContainerUpdate, u: nri.IContainerUpdate, plugin: string): void {
    const r = u.linux?.resources;
    if (!r) return;
    const id = u.containerId ?? '';
    const ureq = this.kind === 'update' ? (this.req as nri.IUpdateContainerRequest) : undefined;
    const isRequested = ureq !== undefined && ureq.container?.id === id;
    // Work on a copy: a failure (ignored or not) leaves the collected update untouched.
    const work = plainCopy(isRequested ? ureq.linuxResources! : merged.linux!.resources!);
    work.memory ??= {};
    work.cpu ??= {};
    setResources(this.owners, id, plugin, r, [work], false);
    merged.linux = { resources: plainCopy(work) };
    if (isRequested) ureq.linuxResources = plainCopy(work);
  }
}

/** Splits a list adjustment into additions and removals keyed by `keyOf` (removals prefixed '-'). */
function split<T>(
  items: T[],
  keyOf: (t: T) => string | null | undefined,
): { add: T[]; del: Map<string, T>; mod: Set<string> } {
  const add: T[] = [];
  const del = new Map<string, T>();
  const mod = new Set<string>();
  for (const item of items) {
    const [key, marked] = removal(keyOf(item));
    if (marked) del.set(key, item);
    else {
      add.push(item);
      mod.add(key);
    }
  }
  return { add, del, mod };
}

type MemoryField =
  'limit' | 'reservation' | 'swap' | 'kernel' | 'kernelTcp' | 'swappiness' | 'disableOomKiller' | 'useHierarchy';
const MEMORY: Array<[MemoryField, nri.Field]> = [
  ['limit', F.MemLimit],
  ['reservation', F.MemReservation],
  ['swap', F.MemSwapLimit],
  ['kernel', F.MemKernelLimit],
  ['kernelTcp', F.MemTCPLimit],
  ['swappiness', F.MemSwappiness],
  ['disableOomKiller', F.MemDisableOomKiller],
  ['useHierarchy', F.MemUseHierarchy],
];
const CPU: Array<['shares' | 'quota' | 'period' | 'realtimeRuntime' | 'realtimePeriod', nri.Field]> = [
  ['shares', F.CPUShares],
  ['quota', F.CPUQuota],
  ['period', F.CPUPeriod],
  ['realtimeRuntime', F.CPURealtimeRuntime],
  ['realtimePeriod', F.CPURealtimePeriod],
];

/**
 * Claims and writes every resource field `r` sets into each of `targets`, in the Go
 * runtime's order (memory, cpu, hugepages, devices, unified, block I/O, RDT, pids).
 * Device cgroup rules are only taken from adjustments, never from updates, as in Go.
 */
function setResources(
  owners: Owners,
  id: string,
  plugin: string,
  r: nri.ILinuxResources,
  targets: nri.ILinuxResources[],
  withDevices: boolean,
): void {
  if (r.memory) {
    for (const [k, field] of MEMORY) {
      const v = r.memory[k];
      if (!v) continue;
      owners.claim(id, field, plugin);
      // Decoded messages keep proto3 defaults on the prototype; spell the value out.
      const value = v.value ?? (k === 'disableOomKiller' || k === 'useHierarchy' ? false : 0);
      for (const t of targets) ((t.memory ??= {}) as Record<string, unknown>)[k] = { value };
    }
  }
  if (r.cpu) {
    for (const [k, field] of CPU) {
      const v = r.cpu[k];
      if (!v) continue;
      owners.claim(id, field, plugin);
      for (const t of targets) ((t.cpu ??= {}) as Record<string, unknown>)[k] = { value: v.value ?? 0 };
    }
    if (r.cpu.cpus) {
      owners.claim(id, F.CPUSetCPUs, plugin);
      for (const t of targets) (t.cpu ??= {}).cpus = r.cpu.cpus;
    }
    if (r.cpu.mems) {
      owners.claim(id, F.CPUSetMems, plugin);
      for (const t of targets) (t.cpu ??= {}).mems = r.cpu.mems;
    }
  }
  for (const l of r.hugepageLimits ?? []) {
    owners.claimEntry(id, F.HugepageLimits, l.pageSize ?? '', plugin);
    for (const t of targets) t.hugepageLimits = [...(t.hugepageLimits ?? []), l];
  }
  if (withDevices) for (const d of r.devices ?? []) for (const t of targets) t.devices = [...(t.devices ?? []), d];
  for (const [k, v] of Object.entries(r.unified ?? {})) {
    owners.claimEntry(id, F.CgroupsUnified, k, plugin);
    for (const t of targets) t.unified = { ...(t.unified ?? {}), [k]: v };
  }
  if (r.blockioClass) {
    owners.claim(id, F.BlockioClass, plugin);
    for (const t of targets) t.blockioClass = { value: r.blockioClass.value ?? '' };
  }
  if (r.rdtClass) {
    owners.claim(id, F.RdtClass, plugin);
    for (const t of targets) t.rdtClass = { value: r.rdtClass.value ?? '' };
  }
  if (r.pids) {
    owners.claim(id, F.PidsLimit, plugin);
    for (const t of targets) t.pids = { limit: r.pids.limit ?? 0 };
  }
}
