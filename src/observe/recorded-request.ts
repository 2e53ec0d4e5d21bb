// The request of a logged event, put back together from what the handler was handed
// (the SDK hands the request's parts: pod, container, resources), for a recording. Built
// on the reply path, so it only makes one small object of references.
import { Event } from '../api/index.js';
import type { LoggedEvent } from './event-log.js';

export function loggedRequest(e: LoggedEvent): object {
  switch (e.event) {
    case Event.VALIDATE_CONTAINER_ADJUSTMENT:
      return e.validation ?? { pod: e.pod, container: e.container };
    case Event.UPDATE_POD_SANDBOX:
      return { pod: e.pod, overheadLinuxResources: e.overhead, linuxResources: e.resources };
    case Event.UPDATE_CONTAINER:
      return { pod: e.pod, container: e.container, linuxResources: e.resources };
    default:
      return e.container ? { pod: e.pod, container: e.container } : { pod: e.pod };
  }
}
