// A test plugin: one transient plugin at a chosen index that records every event of the
// run's own pods (never the node's others) with a stamp of arrival, and reacts to the
// events its rules name: holds the answer until released, answers with an error, or
// adjusts a container. A hold always ends: the check releases it, and a hard timer set
// well under the runtime's request timeout releases it if the check does not.
import { ALL_EVENTS_MASK, Event, EVENT_NAMES, eventBit, type nri } from '../api/index.js';
import { ProbeSet, type PluginHandlers } from '../session/index.js';
import type { NriEventName, PluginSpec, Rule, Seen } from './model.js';

/** What a test plugin needs from its run: which pods are the run's, names by alias, the clock of arrival. */
export interface PluginScope {
  namespace: string;
  /** The label every pod of the run carries. */
  label: { key: string; value: string };
  /** The id the invalid-request checks use: an event naming it is the run's business too. */
  unknownId: string;
  nextSeq(): number;
  /** The label a test container carries with its alias. */
  containerLabel: string;
  podName(alias: string): string;
  /** The uid a pod of the run carries: how its events are known where the runtime names pods its own way. */
  podUid(alias: string): string;
  containerName(alias: string): string;
  /** The hard bound of every hold: well under the runtime's request timeout. */
  holdBoundMs: number;
  /** The ids of the run's pods and containers an event carried, kept for the look on the node. */
  sawIds(podId: string, containerId?: string): void;
}

/** A hook held by a block rule. */
export interface Hold {
  seen: Seen;
  release(): void;
  /** The hard timer released it, not the check. */
  readonly expired: boolean;
}

/** Beyond this many events of its own pods a plugin stops recording: a bound, never reached by a check. */
const MAX_SEEN = 10_000;

/** Every event a test plugin takes, validation aside (the SDK leaves out what the runtime's NRI does not know). */
export const SUBSCRIBED = ALL_EVENTS_MASK & ~eventBit(Event.VALIDATE_CONTAINER_ADJUSTMENT);

const EVENT_OF = new Map(Object.entries(EVENT_NAMES).map(([n, name]) => [name, Number(n) as Event]));

/** Whether a subscription mask the runtime accepted includes an event (Synchronize always). */
export function maskHas(mask: number, event: NriEventName): boolean {
  const e = EVENT_OF.get(event);
  return e === undefined || (mask & eventBit(e)) !== 0;
}

interface Waiter {
  match: (s: Seen) => boolean;
  resolve: (s: Seen | undefined) => void;
}

export class TestPlugin {
  readonly seen: Seen[] = [];
  private readonly fired = new Set<Rule>();
  private readonly active = new Set<Hold & { end(): void }>();
  private readonly untaken: Hold[] = [];
  private readonly holdWaiters: Array<(h: Hold | undefined) => void> = [];
  private readonly waiters = new Set<Waiter>();
  private set: ProbeSet | undefined;
  /** The subscription the runtime accepted. */
  accepted = 0;
  /** Why the runtime dropped the plugin, once it did. */
  dropped: Error | undefined;
  private ended = false;
  /** The check is over: every event is answered at once, no rule acts. */
  private disarmed = false;

  constructor(
    readonly spec: PluginSpec,
    /** The name it registers with: the index order and the name order of a check's plugins differ on purpose. */
    readonly name: string,
    private readonly scope: PluginScope,
  ) {}

  get index(): string {
    return this.spec.index;
  }

  get fullName(): string {
    return `${this.spec.index}-${this.name}`;
  }

  /** Registers and resolves once synchronized; rejects with the session's error. */
  async register(socketPath: string, signal?: AbortSignal): Promise<void> {
    const set = await ProbeSet.open({
      target: { socketPath },
      name: this.name,
      probes: [{ index: this.spec.index, handlers: this.handlers(), events: SUBSCRIBED }],
      ...(signal ? { signal } : {}),
    });
    this.set = set;
    this.accepted = set.probes[0]?.events ?? 0;
    set.once('end', (err?: Error) => {
      this.ended = true;
      if (err) this.dropped = err;
      this.releaseAll();
      for (const w of this.waiters) w.resolve(undefined);
      this.waiters.clear();
    });
  }

  /** Whether the runtime delivers this event to it (what it accepted of the subscription). */
  receives(event: NriEventName): boolean {
    return maskHas(this.accepted, event);
  }

  /** Still registered: neither closed by us nor dropped by the runtime. */
  get live(): boolean {
    return this.set !== undefined && !this.ended;
  }

  /** The first event, seen or to come, that matches; undefined after timeoutMs or once the plugin is gone. */
  waitFor(match: (s: Seen) => boolean, timeoutMs: number): Promise<Seen | undefined> {
    const found = this.seen.find(match);
    if (found) return Promise.resolve(found);
    if (this.ended) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      const w: Waiter = {
        match,
        resolve: (s) => {
          clearTimeout(timer);
          this.waiters.delete(w);
          resolve(s);
        },
      };
      const timer = setTimeout(() => w.resolve(undefined), timeoutMs);
      this.waiters.add(w);
    });
  }

  /** The next hold a block rule engages (or one not yet taken); undefined after timeoutMs. */
  nextHold(timeoutMs: number): Promise<Hold | undefined> {
    const h = this.untaken.shift();
    if (h) return Promise.resolve(h);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        const i = this.holdWaiters.indexOf(take);
        if (i >= 0) this.holdWaiters.splice(i, 1);
        resolve(undefined);
      }, timeoutMs);
      const take = (hold: Hold | undefined): void => {
        clearTimeout(timer);
        resolve(hold);
      };
      this.holdWaiters.push(take);
    });
  }

  /** Releases every hold: before the plugin leaves, and when a check ends on any path. */
  releaseAll(): void {
    for (const h of [...this.active]) h.end();
  }

  /**
   * The check is over and its teardown begins: holds released, and every event from now
   * on answered at once with no rule acting, while the plugin stays connected. The
   * runtime sends it the teardown of the pods it watched; a plugin gone by then is a call
   * on a closed connection, which containerd logs ("ttrpc: closed") and counts as the
   * plugin's fatal failure.
   */
  disarm(): void {
    this.disarmed = true;
    this.releaseAll();
  }

  /** Releases its holds, then leaves the runtime. */
  async close(): Promise<void> {
    this.releaseAll();
    await this.set?.close();
  }

  private handlers(): PluginHandlers {
    const pod = (event: NriEventName) => (p: nri.IPodSandbox) => voidAnswer(this.react(event, p));
    const ctr = (event: NriEventName) => (p: nri.IPodSandbox, c: nri.IContainer) => voidAnswer(this.react(event, p, c));
    return {
      synchronize: (pods, containers) => this.synchronize(pods, containers),
      runPodSandbox: pod('RunPodSandbox'),
      stopPodSandbox: pod('StopPodSandbox'),
      removePodSandbox: pod('RemovePodSandbox'),
      postUpdatePodSandbox: pod('PostUpdatePodSandbox'),
      updatePodSandbox: (p, overhead, resources) =>
        voidAnswer(this.react('UpdatePodSandbox', p, undefined, { overhead, resources })),
      createContainer: (p, c) => this.react('CreateContainer', p, c),
      postCreateContainer: ctr('PostCreateContainer'),
      startContainer: ctr('StartContainer'),
      postStartContainer: ctr('PostStartContainer'),
      updateContainer: (p, c, resources) => voidAnswer(this.react('UpdateContainer', p, c, { resources })),
      postUpdateContainer: ctr('PostUpdateContainer'),
      stopContainer: (p, c) => voidAnswer(this.react('StopContainer', p, c)),
      removeContainer: ctr('RemoveContainer'),
    };
  }

  private ours(pod: nri.IPodSandbox | null | undefined): boolean {
    if (!pod) return false;
    return (
      pod.namespace === this.scope.namespace ||
      pod.labels?.[this.scope.label.key] === this.scope.label.value ||
      pod.id === this.scope.unknownId
    );
  }

  private synchronize(pods: nri.IPodSandbox[], containers: nri.IContainer[]): Promise<void> | void {
    const mine = pods.filter((p) => this.ours(p));
    const ids = new Set(mine.map((p) => p.id ?? ''));
    const seen = this.record({
      event: 'Synchronize',
      podId: '',
      podName: '',
      podNamespace: '',
      podUid: '',
      syncPodIds: [...ids],
      syncContainerIds: containers.filter((c) => ids.has(c.podSandboxId ?? '')).map((c) => c.id ?? ''),
      syncPods: mine,
    });
    const rule = this.disarmed ? undefined : this.rule('Synchronize', undefined, undefined);
    if (rule && 'block' in rule.react) return this.hold(seen);
  }

  /** Records an event of the run's own pods and answers as its rule says: at once, after a hold, or with an error. */
  private react(
    event: NriEventName,
    pod: nri.IPodSandbox,
    ctr?: nri.IContainer,
    extra: Pick<Seen, 'resources' | 'overhead'> = {},
  ): void | Promise<void> | { adjust: nri.IContainerAdjustment } {
    if (!this.ours(pod)) return;
    const seen = this.record({
      event,
      podId: pod.id ?? '',
      podName: pod.name ?? '',
      podNamespace: pod.namespace ?? '',
      podUid: pod.uid ?? '',
      ...(ctr ? { containerId: ctr.id ?? '', containerName: ctr.name ?? '', container: ctr } : {}),
      ...extra,
    });
    const rule = this.disarmed ? undefined : this.rule(event, pod, ctr);
    if (!rule) return;
    const r = rule.react;
    if ('fail' in r) throw new Error(r.fail);
    if ('adjust' in r) return { adjust: r.adjust };
    return this.hold(seen);
  }

  private record(s: Omit<Seen, 'seq' | 'plugin'>): Seen {
    const seen: Seen = { seq: this.scope.nextSeq(), plugin: this.spec.index, ...s };
    this.scope.sawIds(s.podId, s.containerId);
    for (const id of s.syncPodIds ?? []) this.scope.sawIds(id);
    for (const id of s.syncContainerIds ?? []) this.scope.sawIds(id);
    if (this.seen.length < MAX_SEEN) this.seen.push(seen);
    for (const w of [...this.waiters]) if (w.match(seen)) w.resolve(seen);
    return seen;
  }

  /** The rule for this event, marked fired when it acts once. */
  private rule(
    event: NriEventName,
    pod: nri.IPodSandbox | undefined,
    ctr: nri.IContainer | undefined,
  ): Rule | undefined {
    const rule = this.spec.rules?.find(
      (r) =>
        r.on === event &&
        !this.fired.has(r) &&
        (r.pod === undefined ||
          pod?.name === this.scope.podName(r.pod) ||
          (!!pod?.uid && pod.uid === this.scope.podUid(r.pod))) &&
        (r.container === undefined ||
          ctr?.name === this.scope.containerName(r.container) ||
          ctr?.labels?.[this.scope.containerLabel] === r.container),
    );
    if (rule && (rule.times ?? 'once') === 'once') this.fired.add(rule);
    return rule;
  }

  private hold(seen: Seen): Promise<void> {
    return new Promise<void>((resolve) => {
      let expired = false;
      const h = {
        seen,
        get expired() {
          return expired;
        },
        release: () => h.end(),
        end: () => {
          clearTimeout(timer);
          this.active.delete(h);
          resolve();
        },
      };
      const timer = setTimeout(() => {
        expired = true;
        h.end();
      }, this.scope.holdBoundMs);
      this.active.add(h);
      const waiter = this.holdWaiters.shift();
      if (waiter) waiter(h);
      else this.untaken.push(h);
    });
  }
}

/** Every event but CreateContainer answers with nothing (UpdateContainer and StopContainer: no updates). */
function voidAnswer(r: void | Promise<void> | object): void | Promise<void> {
  if (r instanceof Promise) return r;
}
