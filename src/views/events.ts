// The one event renderer: how nrictl shows an NRI event, to people and to programs,
// for logs' lines, trace's blocks and the simulator's lines alike.
//   people:   12:04:05.123 CreateContainer      default/web-0 nginx 3f2a9c1d0b7e4  cpus=0-3 memory=512Mi
//             (the clock in local time, the event's name in a column, the pod as
//             namespace/name, the container's name and short id, then the resources)
//   programs: "time": "2024-05-02T09:14:07.331Z" (RFC 3339, UTC, milliseconds), "event": "CreateContainer"
import {
  chalk,
  type Container,
  containerResources,
  type Pod,
  podDisplayName,
  requestedResources,
  type Resources,
  type ResourceSummary,
  shortId,
  summariseResources,
} from '../output/index.js';

// Event names in the order of NRI's Event enum (api.proto), so a number from the
// wire and a name from JSON both find their display name without loading the
// generated protobuf module.
const EVENT_NAMES = [
  'Unknown',
  'RunPodSandbox',
  'StopPodSandbox',
  'RemovePodSandbox',
  'CreateContainer',
  'PostCreateContainer',
  'StartContainer',
  'PostStartContainer',
  'UpdateContainer',
  'PostUpdateContainer',
  'StopContainer',
  'RemoveContainer',
  'UpdatePodSandbox',
  'PostUpdatePodSandbox',
  'ValidateContainerAdjustment',
] as const;
export type EventName = (typeof EVENT_NAMES)[number];

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
 * then the container's name and short id (none for a pod event, and no id where the
 * runtime sends none: iSulad's CreateContainer).
 */
function eventSubject(pod: Pod | null | undefined, container: Container | null | undefined): string {
  const parts: string[] = [];
  if (pod) parts.push(chalk.bold(podDisplayName(pod)));
  if (container) {
    const id = shortId(container.id);
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

/** The head every event line and block starts with: clock, event, pod and container. */
export function eventHead(rec: EventRecord): string {
  const subject = eventSubject(rec.pod, rec.container);
  const head = `${chalk.dim(formatClock(rec.time))} ${eventColumn(rec.event)}`;
  return subject ? `${head} ${subject}` : head;
}

const RESOURCE_FIELDS: Array<[keyof ResourceSummary, string]> = [
  ['cpus', 'cpus'],
  ['mems', 'mems'],
  ['memoryLimit', 'memory'],
  ['quota', 'quota'],
  ['period', 'period'],
  ['shares', 'shares'],
];

/** "cpus=0-3 memory=512Mi quota=50000 period=100000": the fields that are set. */
function describeResources(res: Resources | null | undefined): string {
  const s = summariseResources(res);
  return RESOURCE_FIELDS.filter(([k]) => s[k] !== undefined)
    .map(([k, label]) => `${label}=${s[k]}`)
    .join(' ');
}

/**
 * What an update changes: "cpus 0-1 -> 0-3, memory 256Mi -> 512Mi". Fields the
 * update leaves unset keep their value and are not listed; "no change" when
 * every set field already had its value.
 */
export function describeResourceChange(
  previous: Resources | null | undefined,
  next: Resources | null | undefined,
): string {
  const before = summariseResources(previous);
  const after = summariseResources(next);
  const changes: string[] = [];
  for (const [k, label] of RESOURCE_FIELDS) {
    if (after[k] === undefined || after[k] === before[k]) continue;
    changes.push(`${label} ${before[k] ?? 'unset'} -> ${after[k]}`);
  }
  return changes.length ? changes.join(', ') : 'no change';
}

/**
 * One line per event (`nrictl logs`):
 *   12:04:05.123 CreateContainer      default/web-0 nginx 3f2a9c1d0b7e4  cpus=0-3 memory=512Mi
 * For an update, `previous` (the container's resources before it) turns the
 * resources into what changed, old -> new; for PostCreate/PostUpdate it shows what
 * changed after the create or update request was seen, if anything.
 */
export function formatEventLine(rec: EventRecord, previous?: Resources | null): string {
  const name = eventDisplayName(rec.event);
  let detail = '';
  if (name === 'CreateContainer') {
    detail = describeResources(rec.resources ?? containerResources(rec.container ?? undefined));
  } else if (name === 'UpdateContainer' || name === 'UpdatePodSandbox') {
    // Zeros in a request mean "leave it" (see requestedResources), not a new value of 0.
    const requested = requestedResources(rec.resources);
    if (previous) detail = describeResourceChange(previous, requested);
    else detail = describeResources(requested);
  } else if ((name === 'PostCreateContainer' || name === 'PostUpdateContainer') && previous) {
    // What the plugins after us (or the runtime) changed since we saw the request; quiet when nothing.
    const change = describeResourceChange(previous, rec.resources ?? containerResources(rec.container ?? undefined));
    if (change !== 'no change') detail = `then ${change}`;
  }
  const head = eventHead(rec);
  return detail ? `${head}  ${detail}` : head;
}
