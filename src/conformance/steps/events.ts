// Expectations on what the test plugins saw. Each waits for the canary first (CheckRun
// settle): once it arrived, everything relayed before it has arrived, so an event that is
// not there was not sent.
import type { CheckRun } from '../check-run.js';
import { CheckFailure } from '../errors.js';
import type { Step } from '../check.js';
import type { KnownGap, NriEventName, Seen } from '../model.js';

/** Whether an event is about container `alias` (by id; by name where the runtime sends no id yet: iSulad's CreateContainer). */
export function aboutContainer(r: CheckRun, alias: string): (s: Seen) => boolean {
  const id = r.containers.get(alias)?.id;
  return (s) =>
    s.containerId !== undefined &&
    ((id !== undefined && s.containerId === id) || (s.containerId === '' && s.containerName === alias));
}

function listed(events: readonly Seen[]): string {
  return events.length === 0 ? 'none' : events.map((s) => s.event).join(', ');
}

export interface EventScope {
  pod: string;
  /** Only this container's events. */
  container?: string;
  /** Only these kinds of event. */
  only?: readonly NriEventName[];
}

function scoped(r: CheckRun, index: string, scope: EventScope): Seen[] {
  let seen = r.podEvents(index, scope.pod);
  if (scope.container !== undefined) seen = seen.filter(aboutContainer(r, scope.container));
  if (scope.only) seen = seen.filter((s) => scope.only!.includes(s.event));
  return seen;
}

function describe(r: CheckRun, scope: EventScope): string {
  return scope.container === undefined ? `pod ${r.podName(scope.pod)}` : `container ${scope.container}`;
}

/** Exactly these events (of the scope), each once, in this order. */
export function expectEvents(index: string, scope: EventScope, expected: NriEventName[]): Step {
  return {
    label: `plugin ${index} saw ${expected.join(', ')}`,
    run: async (r) => {
      await r.settle();
      const seen = scoped(r, index, scope);
      const names = seen.map((s) => s.event);
      if (names.join() !== expected.join())
        throw new CheckFailure(`${expected.join(', ')} for ${describe(r, scope)}`, listed(seen));
    },
  };
}

/** An event of the scope arrives (waited for; it may come after the call that caused it returned). */
export function expectEventComes(index: string, scope: EventScope, event: NriEventName): Step {
  return {
    label: `plugin ${index} gets ${event}`,
    run: async (r) => {
      await r.event(
        index,
        (s) => s.event === event && scoped(r, index, scope).includes(s),
        `${event} for ${describe(r, scope)}`,
        event === 'StopContainer' ? r.timing.exitEventWaitMs : undefined,
      );
    },
  };
}

/** Exactly `n` events of this kind for the pod. */
export function expectCount(index: string, pod: string, event: NriEventName, n: number, known: KnownGap[] = []): Step {
  return {
    label: `plugin ${index} saw ${event} ${n} time(s)`,
    run: async (r) => {
      await r.settle();
      const count = r.podEvents(index, pod).filter((s) => s.event === event).length;
      if (count !== n)
        throw new CheckFailure(`${n} ${event} for pod ${r.podName(pod)}`, count === 0 ? 'none' : String(count), known);
    },
  };
}

/** No event of the run's pods since the mark (canary pods aside). */
export function expectNoEvents(index: string, mark: string, what: string): Step {
  return {
    label: `no hook fired for ${what}`,
    run: async (r) => {
      await r.settle();
      const seen = r.since(index, mark);
      if (seen.length > 0)
        throw new CheckFailure(
          `no NRI event for ${what}`,
          seen.map((s) => `${s.event}${s.podName ? ` of ${s.podName}` : ` of pod ${s.podId || '""'}`}`).join(', '),
        );
    },
  };
}

/** No event of this kind for the scope since the mark. */
export function expectNoEvent(index: string, mark: string, scope: EventScope, event: NriEventName): Step {
  return {
    label: `plugin ${index} saw no ${event}`,
    run: async (r) => {
      await r.settle();
      const inScope = new Set(scoped(r, index, scope));
      const seen = r.since(index, mark).filter((s) => s.event === event && inScope.has(s));
      if (seen.length > 0) throw new CheckFailure(`no ${event} for ${describe(r, scope)}`, `${seen.length}`);
    },
  };
}

/** Every event of the container carries its CRI name. */
export function expectContainerNames(index: string, pod: string, alias: string, known: KnownGap[]): Step {
  return {
    label: `events of ${alias} carry its name`,
    run: async (r) => {
      await r.settle();
      const bad = scoped(r, index, { pod, container: alias }).find((s) => s.containerName !== alias);
      if (bad)
        throw new CheckFailure(
          `${bad.event} of container ${alias} to carry its name "${alias}"`,
          JSON.stringify(bad.containerName ?? ''),
          known,
        );
    },
  };
}

/** Each of these events of the pod reached the plugins once each, in index order (`indexes` ascending). */
export function expectIndexOrder(indexes: string[], scope: EventScope, events: NriEventName[]): Step {
  return {
    label: `plugins ${indexes.join(', ')} called in index order`,
    run: async (r) => {
      await r.settle();
      for (const event of events) {
        const per = indexes.map((i) => scoped(r, i, scope).filter((s) => s.event === event));
        const counts = per.map((p) => p.length);
        if (counts.some((c) => c !== 1))
          throw new CheckFailure(
            `${event} for ${describe(r, scope)} once at each of plugins ${indexes.join(', ')}`,
            `it ${counts.map((c, i) => `${c} time(s) at ${indexes[i]}`).join(', ')}`,
          );
        const order = per.map((p, i) => ({ index: indexes[i], seq: p[0].seq })).sort((a, b) => a.seq - b.seq);
        if (order.map((o) => o.index).join() !== indexes.join())
          throw new CheckFailure(
            `${event} for ${describe(r, scope)} at plugins ${indexes.join(', ')} in that order`,
            `it at ${order.map((o) => o.index).join(', ')}`,
          );
      }
    },
  };
}
