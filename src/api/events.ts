// Event subscription masks and what a given runtime can deliver.
//
// A plugin subscribes with ConfigureResponse.events, one bit per Event at 1 << (event - 1).
// The runtime rejects the whole plugin ("invalid plugin events") when the mask has a bit
// it does not know, and a mask of 0 means "every event this runtime knows". Runtimes up
// to NRI v0.9 know events 1..11 (0x7ff); v0.10 added 12..14 (UpdatePodSandbox,
// PostUpdatePodSandbox, ValidateContainerAdjustment).
import type { ErrorKind } from '../errors/index.js';
import { EVENT_NAMES_BY_NUMBER } from './event-names.js';
import { compareVersions, parseVersion, type ReleaseVersion } from './release-version.js';
import { nri } from './schema.js';

export const Event = nri.Event;
export type Event = nri.Event;
type ConfigureRequest = nri.IConfigureRequest;

/** Subscribable events, in enum order (UNKNOWN and LAST are markers, not events). */
const SUBSCRIBABLE_EVENTS: readonly Event[] = Object.freeze(
  Array.from({ length: Event.LAST - 1 }, (_, i) => (i + 1) as Event),
);

/** The name of each event by its number (UNKNOWN and LAST have none). */
export const EVENT_NAMES: Readonly<Record<number, string>> = Object.freeze(
  Object.fromEntries(EVENT_NAMES_BY_NUMBER.map((name, n) => [n, name] as const).slice(1)),
);

/** Human name of an event, `unknown(N)` for values this schema does not define. */
export function eventName(event: number): string {
  return EVENT_NAMES[event] ?? `unknown(${event})`;
}

export const LEGACY_EVENTS_MASK = 0x7ff;
export const ALL_EVENTS_MASK = (1 << (Event.LAST - 1)) - 1;

export function eventBit(event: Event): number {
  return 1 << (event - 1);
}

export function eventMask(events: Iterable<Event>): number {
  let mask = 0;
  for (const e of events) {
    if (!(e > Event.UNKNOWN && e < Event.LAST))
      throw new EventNameError(String(e), `event ${e} is not a subscribable event`);
    mask |= eventBit(e);
  }
  return mask;
}

/** Events whose bits are set; bits beyond this schema's events are ignored (see unknownMaskBits). */
export function eventsOfMask(mask: number): Event[] {
  return SUBSCRIBABLE_EVENTS.filter((e) => (mask & eventBit(e)) !== 0);
}

function unknownMaskBits(mask: number): number {
  return mask & ~ALL_EVENTS_MASK;
}

/** "RunPodSandbox,CreateContainer", with unknown(0x...) for leftover bits, as NRI prints masks. */
export function formatEventMask(mask: number): string {
  const parts = eventsOfMask(mask).map((e) => eventName(e));
  const rest = unknownMaskBits(mask) >>> 0;
  if (rest !== 0) parts.push(`unknown(0x${rest.toString(16)})`);
  return parts.join(',');
}

export class EventNameError extends Error {
  readonly kind: ErrorKind = 'usage';
  readonly code = 'EVENT_NAME' as const;
  constructor(
    readonly input: string,
    message: string,
  ) {
    super(message);
    this.name = 'EventNameError';
  }
}

// Accepted spellings: the full name in any case with or without separators
// ("CreateContainer", "create-container", "CREATE_CONTAINER"), and the short forms a
// command line wants: without "container" for container events ("create", "poststart"),
// without "sandbox" for pod events ("runpod", "stoppod").
const normalize = (s: string): string => s.toLowerCase().replace(/[\s_-]/g, '');

const EVENT_BY_SPELLING: ReadonlyMap<string, Event> = (() => {
  const m = new Map<string, Event>();
  for (const e of SUBSCRIBABLE_EVENTS) {
    const full = normalize(EVENT_NAMES[e]);
    m.set(full, e);
    if (full.endsWith('podsandbox')) m.set(full.slice(0, -'sandbox'.length), e);
    else if (full.endsWith('container')) m.set(full.slice(0, -'container'.length), e);
  }
  m.set('validate', Event.VALIDATE_CONTAINER_ADJUSTMENT);
  m.set('validateadjustment', Event.VALIDATE_CONTAINER_ADJUSTMENT);
  return m;
})();

// Groups as the Go ParseEventMask has them: "pod" is every event with "pod" in its
// name, "container" every one with "container" (which includes validation).
const GROUPS: Record<string, () => Event[]> = {
  all: () => [...SUBSCRIBABLE_EVENTS],
  pod: () => SUBSCRIBABLE_EVENTS.filter((e) => /pod/i.test(EVENT_NAMES[e])),
  podsandbox: () => GROUPS.pod(),
  container: () => SUBSCRIBABLE_EVENTS.filter((e) => /container/i.test(EVENT_NAMES[e])),
};

/**
 * Parses a comma-separated list such as "create,start,runpodsandbox" (several
 * arguments are joined). Returns the events in enum order without duplicates;
 * throws EventNameError naming the first word it does not know.
 */
export function parseEventNames(...lists: string[]): Event[] {
  const seen = new Set<Event>();
  for (const list of lists) {
    for (const word of list.split(',')) {
      const key = normalize(word);
      if (key === '') continue;
      const group = Object.hasOwn(GROUPS, key) ? GROUPS[key] : undefined;
      if (group) {
        for (const e of group()) seen.add(e);
        continue;
      }
      const e = EVENT_BY_SPELLING.get(key);
      if (e === undefined) {
        throw new EventNameError(
          word.trim(),
          `unknown event "${word.trim()}" (known: all, pod, container, ${SUBSCRIBABLE_EVENTS.map((x) => EVENT_NAMES[x]).join(', ')})`,
        );
      }
      seen.add(e);
    }
  }
  return SUBSCRIBABLE_EVENTS.filter((e) => seen.has(e));
}

export interface RuntimeVintage {
  /** Events the runtime can deliver; a subscription must stay inside this mask. */
  knownEventsMask: number;
  label: string;
  /**
   * Whether the runtime synchronizes a plugin it launched itself. The Go adaptation before
   * v0.7 synchronizes only external plugins (v0.6.1 adaptation.go:434), and so does
   * iSulad's own NRI (nri_adaption.cc:224); neither sends timeouts in Configure.
   */
  synchronizesPreStarted: boolean;
}

/**
 * Reads from a ConfigureRequest which NRI generation the runtime runs:
 * - no timeouts: v0.6 or older (those never sent them), events 1..11 only, and no
 *   Synchronize for a plugin the runtime launched (iSulad sends no timeouts either, and
 *   does the same);
 * - timeouts but no NRI version: v0.7 .. v0.11. Only v0.10+ knows events 12..14 and the
 *   request cannot tell, so we assume the older mask unless the runtime name and version
 *   identify a release known to vendor v0.10+;
 * - NRI version present: v0.12 or newer, every event of this schema.
 */
export function runtimeVintage(configure: ConfigureRequest): RuntimeVintage {
  const registration = Number(configure.registrationTimeout ?? 0);
  const request = Number(configure.requestTimeout ?? 0);
  const version = (configure.NRIVersion ?? '').trim();
  if (version !== '')
    return { knownEventsMask: ALL_EVENTS_MASK, label: `NRI ${version}`, synchronizesPreStarted: true };
  if (registration === 0 && request === 0) {
    return { knownEventsMask: LEGACY_EVENTS_MASK, label: 'NRI v0.6 or older', synchronizesPreStarted: false };
  }
  if (vendorsV010OrNewer(configure.runtimeName ?? '', configure.runtimeVersion ?? '')) {
    return { knownEventsMask: ALL_EVENTS_MASK, label: 'NRI v0.10 or v0.11', synchronizesPreStarted: true };
  }
  return { knownEventsMask: LEGACY_EVENTS_MASK, label: 'NRI v0.7 to v0.11', synchronizesPreStarted: true };
}

// First releases that vendor NRI v0.10 (from the runtime -> NRI version table in
// containerd/nri pkg/api/version.go): containerd 2.2.0, CRI-O 1.34.0.
const FIRST_V010_RELEASE: Record<string, ReleaseVersion> = {
  containerd: [2, 2, 0],
  'cri-o': [1, 34, 0],
};

function vendorsV010OrNewer(runtimeName: string, runtimeVersion: string): boolean {
  const first = FIRST_V010_RELEASE[runtimeName.toLowerCase()];
  const v = parseVersion(runtimeVersion.trim());
  if (!first || !v) return false;
  return compareVersions(v, first) >= 0;
}
