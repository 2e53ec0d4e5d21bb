// The one event renderer: how nrictl shows an NRI event, to people and to programs,
// for logs' lines, trace's blocks and the simulator's lines alike.
//   people:   12:04:05.123 CreateContainer      default/web-0 nginx 3f2a9c1d0b7e4  cpus=0-3 memory=512Mi
//             (the clock in local time, the event's name in a column, the pod as
//             namespace/name, the container's name and short id, then the resources)
//   -o wide:  the same with the container's full id, then pod-id=, pod-uid= and
//             cgroup-parent=, then every resource field that is set; one line into a
//             pipe, fitted at spaces to a terminal (later lines under the event's name)
//   programs: "time": "2024-05-02T09:14:07.331Z" (RFC 3339, UTC, milliseconds), "event": "CreateContainer"
import {
  chalk,
  containerResources,
  oneWord,
  podDisplayName,
  requestedResources,
  resourceFields,
  visibleLength,
  wrapWords,
  type Container,
  type Layout,
  type Pod,
  type Resources,
} from '../output/index.js';
import { EVENT_NAMES_BY_NUMBER as EVENT_NAMES, type EventName } from '../api/event-names.js';
import { shortId } from '../api/short-id.js';

export type { EventName };

/** "CreateContainer" for 4, "CREATE_CONTAINER", "CreateContainer" or "createContainer". */
export function eventDisplayName(event: number | string): string {
  if (typeof event === 'number') return EVENT_NAMES[event] ?? `Event(${event})`;
  const key = event.replace(/_/g, '').toLowerCase();
  return EVENT_NAMES.find((n) => n.toLowerCase() === key) ?? event;
}

/** The width of the event name column: "PostUpdatePodSandbox"; the rare longer one just pushes the line. */
const EVENT_NAME_WIDTH = 20;

function eventColour(name: string): (s: string) => string {
  if (name.startsWith('Post')) return (s) => chalk.dim(s);
  if (name.startsWith('Run') || name.startsWith('Create') || name.startsWith('Start')) return (s) => chalk.green(s);
  if (name.startsWith('Update')) return (s) => chalk.yellow(s);
  if (name.startsWith('Stop') || name.startsWith('Remove')) return (s) => chalk.red(s);
  if (name.startsWith('Validate')) return (s) => chalk.magenta(s);
  return (s) => s;
}

/** The event's name in its column, coloured by what it does (create green, stop red ...) unless told not to. */
export function eventColumn(event: number | string, colour = true): string {
  const name = eventDisplayName(event);
  const cell = name.padEnd(EVENT_NAME_WIDTH);
  return colour ? eventColour(name)(cell) : cell;
}

/** HH:MM:SS.mmm in local time, like a log line: when, for people. */
export function formatClock(time: Date | number): string {
  const d = typeof time === 'number' ? new Date(time) : time;
  const two = (n: number): string => String(n).padStart(2, '0');
  return `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}.${String(d.getMilliseconds()).padStart(3, '0')}`;
}

/** RFC 3339 in UTC with milliseconds, "2024-05-02T09:14:07.331Z": when, for programs. */
export function dataTime(time: Date | number): string {
  const ms = typeof time === 'number' ? time : time.getTime();
  // A stream writes many records within one millisecond (sim: several per relayed call):
  // the string of the last one is made once.
  if (ms !== lastTime.ms) lastTime = { ms, text: (typeof time === 'number' ? new Date(time) : time).toISOString() };
  return lastTime.text;
}
let lastTime = { ms: Number.NaN, text: '' };

/**
 * Whom an event is about: "shop/web-0 nginx 3f2a9c1d0b7e4", the pod as namespace/name,
 * then the container's name and short id, or with `fullId` the whole id (none for a pod
 * event, and no id where the runtime sends none: iSulad's CreateContainer).
 */
function eventSubject(pod: Pod | null | undefined, container: Container | null | undefined, fullId: boolean): string {
  const parts: string[] = [];
  if (pod) parts.push(chalk.bold(podDisplayName(pod)));
  if (container) {
    const id = fullId ? (container.id ?? '') : shortId(container.id);
    parts.push(`${container.name ?? ''}${id ? ` ${chalk.dim(id)}` : ''}`.trim());
  }
  return parts.filter(Boolean).join(' ');
}

export interface EventRecord {
  /** When the event arrived: a Date or ms since the epoch. */
  time: Date | number;
  /** nri.Event value or its name. */
  event: number | string;
  pod?: Pod | null;
  container?: Container | null;
  /** New resources of an UpdateContainer / UpdatePodSandbox; CreateContainer shows the container's own. */
  resources?: Resources | null;
}

/** The head every event line and block starts with: clock, event, pod and container (`fullId`: its whole id). */
export function eventHead(rec: EventRecord, fullId = false): string {
  const subject = eventSubject(rec.pod, rec.container, fullId);
  const head = `${chalk.dim(formatClock(rec.time))} ${eventColumn(rec.event)}`;
  return subject ? `${head} ${subject}` : head;
}

/** "cpus=0-3 memory=512Mi quota=50000 period=100000": the fields that are set (`all`: every one, not only the summary's), a word each. */
function describeResources(res: Resources | null | undefined, all: boolean): string[] {
  return resourceFields(res, all).map(([label, value]) => `${label}=${value}`);
}

/**
 * What an update changes in the summary's fields: "cpus 0-1 -> 0-3, memory 256Mi -> 512Mi".
 * Fields the update leaves unset keep their value and are not listed; "no change" when
 * every set field already had its value.
 */
export function describeResourceChange(
  previous: Resources | null | undefined,
  next: Resources | null | undefined,
): string {
  return changeWords(previous, next, false).join(' ');
}

/** describeResourceChange's text as words, each change one word ("cpus 0-1 -> 0-3,"): a wide line is split between changes only. */
function changeWords(
  previous: Resources | null | undefined,
  next: Resources | null | undefined,
  all: boolean,
): string[] {
  const before = new Map(resourceFields(previous, all));
  const changes: string[] = [];
  for (const [label, value] of resourceFields(next, all)) {
    if (value === before.get(label)) continue;
    changes.push(`${label} ${before.get(label) ?? 'unset'} -> ${value}`);
  }
  return changes.length ? changes.map((c, i) => (i < changes.length - 1 ? `${c},` : c)) : ['no change'];
}

/**
 * The resources an event line shows, as words: a create's resources; what an update
 * changes, old -> new, when `previous` (the container's resources before it) is known,
 * else what it asks for; for PostCreate/PostUpdate what changed after the create or update
 * request was seen, if anything. Empty for the other events.
 */
function eventDetail(rec: EventRecord, previous: Resources | null | undefined, all: boolean): string[] {
  const name = eventDisplayName(rec.event);
  if (name === 'CreateContainer')
    return describeResources(rec.resources ?? containerResources(rec.container ?? undefined), all);
  if (name === 'UpdateContainer' || name === 'UpdatePodSandbox') {
    // Zeros in a request mean "leave it" (see requestedResources), not a new value of 0.
    const requested = requestedResources(rec.resources);
    return previous ? changeWords(previous, requested, all) : describeResources(requested, all);
  }
  if ((name === 'PostCreateContainer' || name === 'PostUpdateContainer') && previous) {
    // What the plugins after us (or the runtime) changed since we saw the request; quiet when nothing.
    const change = changeWords(previous, rec.resources ?? containerResources(rec.container ?? undefined), all);
    if (change[0] !== 'no change') return [`then ${change[0]}`, ...change.slice(1)];
  }
  return [];
}

/** What a wide line tells of the pod besides its name: its id, its uid and its cgroup parent, where set. */
function podWords(pod: Pod | null | undefined): string[] {
  const fields: Array<[string, string | null | undefined]> = [
    ['pod-id', pod?.id],
    ['pod-uid', pod?.uid],
    ['cgroup-parent', pod?.linux?.cgroupParent],
  ];
  return fields.filter(([, value]) => value).map(([label, value]) => `${label}=${oneWord(value ?? '')}`);
}

/**
 * One line per event (`nrictl logs`):
 *   12:04:05.123 CreateContainer      default/web-0 nginx 3f2a9c1d0b7e4  cpus=0-3 memory=512Mi
 * `previous` is what the container had before an update (see eventDetail). With
 * `layout.wide`: the container's full id, the pod's id, uid and cgroup parent, and every
 * resource field; fitted to `layout.width` at spaces, whole on one line without a width.
 */
export function formatEventLine(rec: EventRecord, previous?: Resources | null, layout?: Layout): string {
  if (layout?.wide)
    return fitLine(eventHead(rec, true), [...podWords(rec.pod), ...eventDetail(rec, previous, true)], layout.width);
  const detail = eventDetail(rec, previous, false);
  const head = eventHead(rec);
  return detail.length ? `${head}  ${detail.join(' ')}` : head;
}

/** Where a wide line's later lines start: under the event's name, past the clock. */
const HANG = 'hh:mm:ss.mmm '.length;

/**
 * The head, two spaces, then the words; with a width, the words go on at spaces on lines
 * of their own, indented by HANG, when the line is full. A word is never cut: one longer
 * than the width (a cgroup path) has a line of its own.
 */
function fitLine(head: string, words: readonly string[], width: number | undefined): string {
  if (words.length === 0) return head;
  if (width === undefined) return `${head}  ${words.join(' ')}`;
  // The head with one of its two spaces is the first word: wrapWords puts the other.
  const sized = [
    { text: head, length: visibleLength(head) + 1 },
    ...words.map((text) => ({ text, length: text.length })),
  ];
  const first = wrapWords(sized, width)[0];
  const rest = wrapWords(sized.slice(first.length), Math.max(width - HANG, 1));
  const text = (line: typeof sized): string => line.map((w) => w.text).join(' ');
  const firstLine = first.length > 1 ? `${head}  ${text(first.slice(1))}` : head;
  return [firstLine, ...rest.map((line) => `${' '.repeat(HANG)}${text(line)}`)].join('\n');
}
