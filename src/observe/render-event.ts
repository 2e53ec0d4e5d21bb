// Turning a logged event into output, in the queue's writer (never on the reply path).
import { eventName } from '../api/index.js';
import { formatEventLine, jsonLine, yamlStreamItem } from '../render/index.js';
import type { LoggedEvent } from './event-log.js';

export type LogFormat = 'text' | 'json' | 'yaml';

/**
 * The data form of an event: the event's name, an ISO timestamp and the request's
 * protobuf content (pod, container, resources) with enum names, as toPlain renders
 * messages. previousResources is what the container had before an update, when known.
 */
export function loggedEventObject(e: LoggedEvent): Record<string, unknown> {
  const out: Record<string, unknown> = { time: new Date(e.time).toISOString(), event: eventName(e.event), pod: e.pod };
  if (e.container) out.container = e.container;
  if (e.resources) out.linuxResources = e.resources;
  if (e.overhead) out.overheadLinuxResources = e.overhead;
  if (e.previous) out.previousResources = e.previous;
  if (e.validation) {
    const v = e.validation;
    if (v.adjust) out.adjust = v.adjust;
    if (v.update?.length) out.update = v.update;
    if (v.owners) out.owners = v.owners;
    if (v.plugins?.length) out.plugins = v.plugins;
  }
  return out;
}

export function renderLoggedEvent(e: LoggedEvent, format: LogFormat): string {
  switch (format) {
    case 'json':
      return jsonLine(loggedEventObject(e));
    case 'yaml':
      return yamlStreamItem(loggedEventObject(e));
    default:
      return `${formatEventLine({ time: e.time, event: e.event, pod: e.pod, container: e.container ?? null, resources: e.resources ?? null }, e.previous)}\n`;
  }
}
