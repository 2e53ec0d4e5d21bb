// One check being run: its test plugins, the pods and containers it made by alias, the
// calls it has in flight, what its plugins saw, and where its time went. Steps (steps/)
// act through it; the runner (runner.ts) makes one per check and cleans up after it.
import { CriError, type cri } from '../cri/index.js';
import { CheckError, CheckFailure } from './errors.js';
import type { PluginSpec, Seen, TimeSplit } from './model.js';
import { CONTAINER_LABEL, RUN_LABEL, type SuiteScope } from './suite-scope.js';
import { kubeletContainerLabels, kubeletImageSpec, kubeletPodLabels } from './kubelet.js';
import { TestPlugin, type Hold, type PluginScope } from './test-plugin.js';
import type { Timing } from './timing.js';

export interface PodRef {
  alias: string;
  id: string;
  name: string;
  config: cri.IPodSandboxConfig;
}

export interface CtrRef {
  alias: string;
  id: string;
  pod: string;
}

/** A call started without waiting for it: how it ended, once it did. */
export type Outcome<T> = { ok: true; value: T; atMs: number } | { ok: false; error: Error; atMs: number };

/** A pod whose alias starts so is the canary's: never judged, never matched by a rule. */
const CANARY = 'canary';

/** A test plugin's name: letters in the reverse order of the indexes, so that name order is not index order. */
function pluginName(specs: readonly PluginSpec[], spec: PluginSpec): string {
  if (specs.length === 1) return 'nrictl-conformance';
  const byIndexDesc = [...specs].sort((a, b) => (a.index < b.index ? 1 : -1));
  return `nrictl-conformance-${String.fromCharCode(97 + byIndexDesc.indexOf(spec))}`;
}

export class CheckRun implements PluginScope {
  readonly plugins = new Map<string, TestPlugin>();
  readonly pods = new Map<string, PodRef>();
  readonly containers = new Map<string, CtrRef>();
  readonly notes: string[] = [];
  readonly split: TimeSplit = { criMs: 0, nriMs: 0, waitMs: 0 };
  readonly started = performance.now();
  /** The hook a hold step holds now, for the steps that look around while it is held. */
  hold: Hold | undefined;
  /**
   * How the runtime went away during one of this check's CRI calls, if it did. A step that
   * needed the call may still word its end as a failure ("expected ... to succeed"); the
   * runner judges the check an error instead, as nothing after that can be judged.
   */
  runtimeGone: string | undefined;
  private seq = 0;
  private canaries = 0;
  /** A CRI call changed something since the last canary: absence cannot be judged yet. */
  private dirty = false;
  private readonly flights = new Map<
    string,
    { promise: Promise<Outcome<unknown>>; done?: Outcome<unknown>; kind: 'criMs' | 'nriMs' }
  >();
  private readonly marks = new Map<string, number>();
  /**
   * What a call started without waiting for it (start) acts through: this run itself,
   * everything it reads and sets is this run's, but the time it takes is not counted. A
   * check counts the time its main line waits, once, as CRI, NRI or a deliberate wait; the
   * main line counts such a call when it waits for its outcome. A view handed to the call
   * rather than an AsyncLocalStorage: one of those turns on Node's promise hooks for every
   * promise in the process, some 5% of a `--preset all` run's CPU.
   */
  private readonly unwaited: CheckRun = new Proxy(this, {
    get: (run, key, view) => (key === 'count' ? () => {} : Reflect.get(run, key, view)),
  });
  /**
   * Every CRI call not yet answered, those of the check's main line included: a signal
   * abandons the step that made one, and what the call makes (a pod) exists only once
   * the runtime answers, so cleanup waits for it (each has its deadline) before it sweeps.
   */
  private readonly unanswered = new Set<Promise<unknown>>();

  constructor(
    readonly suite: SuiteScope,
    /** Of its Check, a run needs the plugins to register (the Check's steps take the run, so not the type itself). */
    readonly check: { readonly plugins: readonly PluginSpec[] },
    /** The check's place in the run: names its pods. */
    readonly number: number,
  ) {}

  // ---- the scope test plugins judge by ---------------------------------------------

  get namespace(): string {
    return this.suite.namespace;
  }
  get label(): { key: string; value: string } {
    return { key: RUN_LABEL, value: this.suite.runId };
  }
  get unknownId(): string {
    return `nrictl-conformance-unknown-${this.suite.runId}`;
  }
  get containerLabel(): string {
    return CONTAINER_LABEL;
  }
  get holdBoundMs(): number {
    return this.suite.timing.holdBoundMs;
  }
  get timing(): Timing {
    return this.suite.timing;
  }
  nextSeq(): number {
    return ++this.seq;
  }
  sawIds(podId: string, containerId?: string): void {
    // The invalid-request checks' unknown id is no pod of the node.
    if (podId !== this.unknownId) this.suite.registry.saw(podId, containerId);
  }
  podName(alias: string): string {
    return `${alias}-c${this.number}`;
  }
  podUid(alias: string): string {
    return `${this.suite.runId}-${this.podName(alias)}`;
  }
  /**
   * Whether an event is about pod `alias`: by the CRI name, or by the uid, as a runtime
   * that names pods its own way still passes the uid on (iSulad names them
   * k8s_POD_<name>_<namespace>_<uid>_<attempt>). Whether the name is the CRI one is
   * judged once, by the metadata step, not by every step that looks for the pod.
   */
  isPod(s: { podName: string; podUid: string }, alias: string): boolean {
    return s.podName === this.podName(alias) || (s.podUid !== '' && s.podUid === this.podUid(alias));
  }
  containerName(alias: string): string {
    return alias;
  }

  // ---- plugins ----------------------------------------------------------------------

  /** Registers one of the check's plugins; its registration counts as NRI time. */
  async connect(spec: PluginSpec): Promise<TestPlugin> {
    const p = new TestPlugin(spec, pluginName(this.check.plugins, spec), this);
    this.plugins.set(spec.index, p);
    const t = performance.now();
    try {
      await p.register(this.suite.nriSocket, this.suite.signal);
    } catch (err) {
      throw new CheckError(`test plugin ${p.fullName} could not register: ${(err as Error).message}`);
    } finally {
      this.count('nriMs', t);
    }
    return p;
  }

  plugin(index: string): TestPlugin {
    const p = this.plugins.get(index);
    if (!p) throw new CheckError(`the check has no plugin ${index} (a check's definition is wrong)`);
    return p;
  }

  // ---- CRI --------------------------------------------------------------------------

  /** One CRI call, timed, with the run's deadline; a runtime that went away ends the check as an error. */
  async cri<T>(
    call: (client: SuiteScope['cri'], opts: { timeoutMs: number }) => Promise<T>,
    changes = true,
  ): Promise<T> {
    if (changes) this.dirty = true;
    const t = performance.now();
    const pending = call(this.suite.cri, { timeoutMs: this.timing.callMs });
    this.unanswered.add(pending);
    try {
      return await pending;
    } catch (err) {
      if (err instanceof CriError && err.code === 'runtime-gone') {
        this.runtimeGone ??= err.message;
        throw new CheckError(err.message);
      }
      throw err;
    } finally {
      this.unanswered.delete(pending);
      this.count('criMs', t);
    }
  }

  /** Adds the time since `t` to the split (a call in flight counts nothing: see unwaited). */
  count(kind: keyof TimeSplit, t: number): void {
    this.split[kind] += performance.now() - t;
  }

  /** A pod as the kubelet asks for one (kubelet.ts), with the run's label and cgroup parent. */
  podConfig(alias: string, extra: Partial<cri.IPodSandboxConfig> = {}): cri.IPodSandboxConfig {
    const name = this.podName(alias);
    const metadata = { name, namespace: this.namespace, uid: this.podUid(alias), attempt: 1 };
    return {
      metadata,
      hostname: name,
      labels: { ...kubeletPodLabels(metadata), [RUN_LABEL]: this.suite.runId },
      ...extra,
      linux: { cgroupParent: this.suite.cgroupParent, ...extra.linux },
    };
  }

  /**
   * A container of the pod `sandbox`, as the kubelet asks for one (kubelet.ts): one that runs
   * until stopped, or with `exits` that exits by itself with that code (a shell image; the
   * pause image's `-v` exits 0).
   */
  containerConfig(
    alias: string,
    sandbox: cri.IPodSandboxConfig,
    opts: { exits?: number; extra?: Partial<cri.IContainerConfig> } = {},
  ) {
    const command =
      this.suite.imageKind === 'pause'
        ? opts.exits === undefined
          ? []
          : ['/pause', '-v']
        : ['sh', '-c', opts.exits === undefined ? 'sleep 3600' : `exit ${opts.exits}`];
    const name = this.containerName(alias);
    const config: cri.IContainerConfig = {
      metadata: { name, attempt: 0 },
      image: kubeletImageSpec(this.suite.image, this.suite.imageId),
      ...(command.length ? { command } : {}),
      labels: {
        ...kubeletContainerLabels(sandbox.metadata ?? {}, name),
        [RUN_LABEL]: this.suite.runId,
        [CONTAINER_LABEL]: alias,
      },
      linux: {},
      ...opts.extra,
    };
    return config;
  }

  /** The code a self-exiting container of this run's image exits with. */
  get exitCode(): number {
    return this.suite.imageKind === 'pause' ? 0 : 1;
  }

  pod(alias: string): PodRef {
    const p = this.pods.get(alias);
    if (!p) throw new CheckError(`pod ${alias} was not made (a check's definition is wrong)`);
    return p;
  }

  ctr(alias: string): CtrRef {
    const c = this.containers.get(alias);
    if (!c) throw new CheckError(`container ${alias} was not made (a check's definition is wrong)`);
    return c;
  }

  /** Runs a pod and records it (also for cleanup); rejects with the CRI error. */
  async runPod(alias: string, extra: Partial<cri.IPodSandboxConfig> = {}): Promise<PodRef> {
    const config = this.podConfig(alias, extra);
    const r = await this.cri((c, o) => c.runPodSandbox(config, '', o));
    return this.adoptPod(alias, r.podSandboxId, config);
  }

  adoptPod(alias: string, id: string, config: cri.IPodSandboxConfig): PodRef {
    const ref = { alias, id, name: config.metadata?.name ?? '', config };
    this.pods.set(alias, ref);
    this.suite.registry.addPod(id, ref.name);
    return ref;
  }

  // ---- calls in flight ----------------------------------------------------------------

  /**
   * Starts a call without waiting for it (a CRI call, or `nri`: a plugin's registration);
   * `outcome(key)` has how it ended. The call acts through the run it is handed (unwaited).
   */
  start<T>(key: string, call: (r: CheckRun) => Promise<T>, kind: 'cri' | 'nri' = 'cri'): void {
    const entry: { promise: Promise<Outcome<unknown>>; done?: Outcome<unknown>; kind: 'criMs' | 'nriMs' } = {
      kind: kind === 'cri' ? 'criMs' : 'nriMs',
      promise: call(this.unwaited).then(
        (value) => ({ ok: true as const, value, atMs: performance.now() }),
        (error: unknown) => ({ ok: false as const, error: error as Error, atMs: performance.now() }),
      ),
    };
    void entry.promise.then((o) => (entry.done = o));
    this.flights.set(key, entry);
  }

  /** How a started call ended, waiting for it. */
  async outcome<T>(key: string): Promise<Outcome<T>> {
    const f = this.flights.get(key);
    if (!f) throw new CheckError(`no call "${key}" was started (a check's definition is wrong)`);
    const t = performance.now();
    const o = (await f.promise) as Outcome<T>;
    this.count(f.kind, t);
    return o;
  }

  /** Whether a started call has ended, without waiting. */
  ended(key: string): boolean {
    return this.flights.get(key)?.done !== undefined;
  }

  /** Every call still in flight, started or on the main line, for cleanup to wait for (each has its deadline). */
  inFlight(): Promise<unknown>[] {
    return [...[...this.flights.values()].map((f) => f.promise), ...this.unanswered];
  }

  // ---- waiting and judging ------------------------------------------------------------

  /** A deliberate wait (a window, a settle); the stop signal cuts it short. */
  async wait(ms: number): Promise<void> {
    const t = performance.now();
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      const signal = this.suite.signal;
      function done(): void {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        resolve();
      }
      signal.addEventListener('abort', done, { once: true });
    });
    // A process starved of CPU runs its due timers before it reads its sockets again: a few
    // turns of the loop let what arrived meanwhile (a call issued during a hold, to a
    // simulator in this process) be read before the wait counts as over.
    for (let i = 0; i < 3; i++) await new Promise<void>((resolve) => setImmediate(resolve));
    this.count('waitMs', t);
  }

  /**
   * An event that must have come. One the runtime sends before the call that causes it
   * returns is looked for once the canary arrived (no wait); one it sends on its own time
   * (`waitMs`: a container's exit) is waited for that long.
   */
  async event(index: string, match: (s: Seen) => boolean, what: string, waitMs?: number): Promise<Seen> {
    const p = this.plugin(index);
    let s: Seen | undefined;
    if (waitMs === undefined) {
      await this.settle();
      s = p.seen.find(match);
    } else {
      const t = performance.now();
      s = await p.waitFor(match, waitMs);
      this.count('nriMs', t);
    }
    if (s) return s;
    if (p.dropped)
      throw new CheckError(`plugin ${p.fullName} was dropped by the runtime before ${what}: ${p.dropped.message}`);
    throw new CheckFailure(what, waitMs === undefined ? 'none' : `nothing within ${Math.round(waitMs)} ms`);
  }

  /**
   * Proves every live plugin is still connected and receiving before anything is called
   * "not delivered": a throwaway pod's RunPodSandbox must reach each of them. NRI events
   * reach one plugin in order on one connection, so once the canary arrived, everything
   * the runtime relayed before it has arrived too: no fixed wait is needed.
   */
  async settle(): Promise<void> {
    if (!this.dirty) return;
    const live = [...this.plugins.values()].filter((p) => p.live && p.receives('RunPodSandbox'));
    if (live.length === 0) {
      const dropped = [...this.plugins.values()].find((p) => p.dropped);
      throw new CheckError(
        dropped
          ? `plugin ${dropped.fullName} was dropped by the runtime (${dropped.dropped?.message}): what it did not see cannot be judged`
          : 'no plugin of the check receives RunPodSandbox: what it did not see cannot be judged',
      );
    }
    const alias = `${CANARY}${++this.canaries}`;
    let canary: PodRef;
    try {
      canary = await this.runPod(alias);
    } catch (err) {
      throw new CheckError(`the canary pod could not be made: ${(err as Error).message}`);
    }
    for (const p of live) {
      const t = performance.now();
      const s = await p.waitFor(
        (e) => e.event === 'RunPodSandbox' && (e.podId === canary.id || this.isPod(e, alias)),
        this.timing.eventWaitMs,
      );
      this.count('nriMs', t);
      if (!s)
        throw new CheckError(
          `plugin ${p.fullName} receives nothing: a canary pod's RunPodSandbox did not reach it within ${this.timing.eventWaitMs} ms${p.dropped ? ` (the runtime dropped it: ${p.dropped.message})` : ''}`,
        );
    }
    this.dirty = false;
    await this.removeQuietly(canary);
  }

  /** Stops and removes a pod, leaving what fails to the sweep. */
  async removeQuietly(pod: PodRef): Promise<void> {
    try {
      await this.cri((c, o) => c.stopPodSandbox(pod.id, o), false);
      await this.cri((c, o) => c.removePodSandbox(pod.id, o), false);
      this.suite.registry.forgetPod(pod.id);
    } catch {
      // The sweep at the end of the check tries again, and lists it if it cannot.
    }
  }

  /** The events plugin `index` saw, canary pods left out. */
  events(index: string): Seen[] {
    return this.plugin(index).seen.filter((s) => !this.isCanary(s));
  }

  /** A canary's event, known by the name or the uid its alias starts (see isPod). */
  private isCanary(s: Seen): boolean {
    return s.podName.startsWith(CANARY) || s.podUid.startsWith(`${this.suite.runId}-${CANARY}`);
  }

  /** The events of one pod (alias), in the order they arrived. */
  podEvents(index: string, alias: string): Seen[] {
    return this.events(index).filter((s) => this.isPod(s, alias));
  }

  /** Remembers where the events stand now; `since(name)` gives those after it. */
  mark(name: string): void {
    this.marks.set(name, this.seq);
  }

  since(index: string, name: string): Seen[] {
    const from = this.marks.get(name) ?? 0;
    return this.events(index).filter((s) => s.seq > from);
  }

  note(text: string): void {
    this.notes.push(text);
  }
}
