// What `nrictl logs` counts, as Prometheus metrics, through prom-client with a registry
// of its own. The counts are the ones logs already keeps for its summary; they are read
// when /metrics is scraped, so the handlers that answer the runtime do no extra work.
import { createRequire } from 'node:module';
import type { Counter, Registry } from 'prom-client';
import { eventName, type Event } from '../api/index.js';

type PromClient = typeof import('prom-client');
let promClient: PromClient | undefined;
// Loaded (its CommonJS build) when logs serves metrics: some 30-70 ms of start-up that
// every command importing this layer (sync dump) paid and never used.
function loadPromClient(): PromClient {
  promClient ??= createRequire(import.meta.url)('prom-client') as PromClient;
  return promClient;
}

/** Where the figures come from: the event log's and the output queue's own counters. */
export interface LogCountSources {
  seenByEvent: ReadonlyMap<Event, number>;
  dropped: () => number;
  registrations: () => number;
}

export class LogMetrics {
  readonly registry: Registry;

  constructor(sources: LogCountSources) {
    const { Counter, Registry } = loadPromClient();
    this.registry = new Registry();
    const registers = [this.registry];
    // A counter only goes up: each scrape adds what is new since the last one.
    const seen = new Map<string, number>();
    const catchUp = (counter: Counter<string>, key: string, now: number, labels: Record<string, string> = {}): void => {
      const delta = now - (seen.get(key) ?? 0);
      if (delta <= 0) return;
      counter.inc(labels, delta);
      seen.set(key, now);
    };
    new Counter({
      name: 'nrictl_logs_events_total',
      help: 'Events the runtime delivered to nrictl logs, by type (filtered out or not).',
      labelNames: ['event'],
      registers,
      collect() {
        for (const [event, n] of sources.seenByEvent) {
          const name = eventName(event);
          catchUp(this, `event:${name}`, n, { event: name });
        }
      },
    });
    new Counter({
      name: 'nrictl_logs_dropped_lines_total',
      help: 'Events that passed the filters but were dropped because the output could not keep up.',
      registers,
      collect() {
        catchUp(this, 'dropped', sources.dropped());
      },
    });
    new Counter({
      name: 'nrictl_logs_registrations_total',
      help: 'Registrations with the runtime: 1, plus one per registration again after the runtime went away (--reconnect).',
      registers,
      collect() {
        catchUp(this, 'registrations', sources.registrations());
      },
    });
  }
}
