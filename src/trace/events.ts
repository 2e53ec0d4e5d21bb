// Which events trace can follow: container events, which a probe can correlate by the
// container's id across the probes. Pod events have no container.
import { EventNameError, eventName, type Event } from '../api/index.js';
import { TRACEABLE_EVENTS } from './session.js';

/** Refuses events trace cannot follow (a usage error naming them); for --events. */
export function checkTraceable(events: readonly Event[]): void {
  const untraceable = events.filter((e) => !TRACEABLE_EVENTS.includes(e));
  if (untraceable.length > 0)
    throw new EventNameError(
      untraceable.map(eventName).join(','),
      `trace follows container events only, not ${untraceable.map(eventName).join(', ')}; e.g. create,update`,
    );
}
