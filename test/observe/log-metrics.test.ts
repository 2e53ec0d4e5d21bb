// LogMetrics reads logs' own counters at scrape time: the counters follow them, by event
// type, and scraping twice does not count twice.
import { describe, expect, it } from 'vitest';
import { Event } from '../../src/api/index.js';
import { LogMetrics } from '../../src/observe/index.js';

describe('LogMetrics', () => {
  it("exposes the event log's per-type counts, the queue's drops and the registrations", async () => {
    const seenByEvent = new Map<Event, number>([[Event.CREATE_CONTAINER, 2]]);
    let dropped = 0;
    const metrics = new LogMetrics({ seenByEvent, dropped: () => dropped, registrations: () => 1 });
    const value = async (name: string, event?: string): Promise<number | undefined> => {
      const m = (await metrics.registry.getMetricsAsJSON()).find((x) => x.name === name);
      return m?.values.find((v) => event === undefined || v.labels.event === event)?.value;
    };
    expect(await value('nrictl_logs_events_total', 'CreateContainer')).toBe(2);
    expect(await value('nrictl_logs_events_total', 'CreateContainer')).toBe(2);
    seenByEvent.set(Event.CREATE_CONTAINER, 5);
    seenByEvent.set(Event.STOP_CONTAINER, 1);
    dropped = 7;
    expect(await value('nrictl_logs_events_total', 'CreateContainer')).toBe(5);
    expect(await value('nrictl_logs_events_total', 'StopContainer')).toBe(1);
    expect(await value('nrictl_logs_dropped_lines_total')).toBe(7);
    expect(await value('nrictl_logs_registrations_total')).toBe(1);
  });
});
