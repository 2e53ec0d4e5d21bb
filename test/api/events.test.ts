import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { EVENT_NAMES_BY_NUMBER } from '../../src/api/event-names.js';
import {
  ALL_EVENTS_MASK,
  EVENT_NAMES,
  Event,
  EventNameError,
  LEGACY_EVENTS_MASK,
  eventMask,
  eventName,
  eventsOfMask,
  formatEventMask,
  nri,
  parseEventNames,
  runtimeVintage,
} from '../../src/api/index.js';

describe('event masks', () => {
  it('uses bit (event - 1) per event, as the runtime does', () => {
    expect(eventMask([Event.RUN_POD_SANDBOX])).toBe(0x1);
    expect(eventMask([Event.CREATE_CONTAINER, Event.START_CONTAINER])).toBe(0x8 | 0x20);
    expect(eventMask([Event.VALIDATE_CONTAINER_ADJUSTMENT])).toBe(0x2000);
    expect(eventMask([])).toBe(0);
  });

  it('has the legacy mask of events 1..11 and the full mask of events 1..14', () => {
    expect(LEGACY_EVENTS_MASK).toBe(0x7ff);
    expect(
      eventMask([
        Event.RUN_POD_SANDBOX,
        Event.STOP_POD_SANDBOX,
        Event.REMOVE_POD_SANDBOX,
        Event.CREATE_CONTAINER,
        Event.POST_CREATE_CONTAINER,
        Event.START_CONTAINER,
        Event.POST_START_CONTAINER,
        Event.UPDATE_CONTAINER,
        Event.POST_UPDATE_CONTAINER,
        Event.STOP_CONTAINER,
        Event.REMOVE_CONTAINER,
      ]),
    ).toBe(LEGACY_EVENTS_MASK);
    expect(ALL_EVENTS_MASK).toBe(0x3fff);
    expect(eventsOfMask(ALL_EVENTS_MASK)).toHaveLength(14);
  });

  it('rejects markers that are not events', () => {
    expect(() => eventMask([Event.UNKNOWN])).toThrow(EventNameError);
    expect(() => eventMask([Event.LAST])).toThrow(EventNameError);
  });

  it('eventsOfMask inverts eventMask for every subset of events', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: ALL_EVENTS_MASK }), (mask) => {
        expect(eventMask(eventsOfMask(mask))).toBe(mask);
      }),
    );
  });

  it('formats masks with names and leftover bits', () => {
    expect(formatEventMask(0x9)).toBe('RunPodSandbox,CreateContainer');
    expect(formatEventMask(0x1 | 0x8000)).toBe('RunPodSandbox,unknown(0x8000)');
    expect(eventName(Event.POST_UPDATE_POD_SANDBOX)).toBe('PostUpdatePodSandbox');
    expect(eventName(77)).toBe('unknown(77)');
  });

  it('names every subscribable event', () => {
    expect(Object.keys(EVENT_NAMES).map(Number)).toEqual(Array.from({ length: 14 }, (_, i) => i + 1));
    expect(EVENT_NAMES[Event.CREATE_CONTAINER]).toBe('CreateContainer');
  });
});

describe('parseEventNames', () => {
  it('accepts short, full and separated spellings in any case', () => {
    expect(parseEventNames('create,start,runpodsandbox')).toEqual([
      Event.RUN_POD_SANDBOX,
      Event.CREATE_CONTAINER,
      Event.START_CONTAINER,
    ]);
    expect(parseEventNames('CreateContainer, post-create ,POST_START_CONTAINER')).toEqual([
      Event.CREATE_CONTAINER,
      Event.POST_CREATE_CONTAINER,
      Event.POST_START_CONTAINER,
    ]);
    expect(parseEventNames('runpod,stoppod,updatepod,postupdatepod')).toEqual([
      Event.RUN_POD_SANDBOX,
      Event.STOP_POD_SANDBOX,
      Event.UPDATE_POD_SANDBOX,
      Event.POST_UPDATE_POD_SANDBOX,
    ]);
    expect(parseEventNames('validate')).toEqual([Event.VALIDATE_CONTAINER_ADJUSTMENT]);
  });

  it('expands the groups all, pod and container like the Go parser', () => {
    expect(eventMask(parseEventNames('all'))).toBe(ALL_EVENTS_MASK);
    expect(parseEventNames('pod').map((e) => EVENT_NAMES[e])).toEqual([
      'RunPodSandbox',
      'StopPodSandbox',
      'RemovePodSandbox',
      'UpdatePodSandbox',
      'PostUpdatePodSandbox',
    ]);
    const container = parseEventNames('container');
    expect(container).toHaveLength(9);
    expect(container).toContain(Event.VALIDATE_CONTAINER_ADJUSTMENT);
    expect(container).not.toContain(Event.RUN_POD_SANDBOX);
  });

  it('joins several arguments, drops duplicates and empty words', () => {
    expect(parseEventNames('create,,create', 'start', '')).toEqual([Event.CREATE_CONTAINER, Event.START_CONTAINER]);
  });

  it('names the word it does not know', () => {
    expect(() => parseEventNames('create,explode')).toThrow(/unknown event "explode"/);
    try {
      parseEventNames('create,explode');
    } catch (e) {
      expect(e).toBeInstanceOf(EventNameError);
      expect((e as EventNameError).input).toBe('explode');
    }
    // "toString" must not resolve through the prototype of the group table
    expect(() => parseEventNames('toString')).toThrow(EventNameError);
  });
});

describe('runtimeVintage', () => {
  it('treats a request without timeouts as v0.6 or older, which knows events 1..11 only', () => {
    const v = runtimeVintage({ runtimeName: 'containerd', runtimeVersion: 'v1.7.20' });
    expect(v.knownEventsMask).toBe(LEGACY_EVENTS_MASK);
    expect(v.label).toMatch(/v0\.6 or older/);
    // Such a runtime (and iSulad, which sends no timeouts either) synchronizes no plugin it launched.
    expect(v.synchronizesPreStarted).toBe(false);
  });

  it('reads a decoded v0.6.1 wire ConfigureRequest the same way', () => {
    const bytes = nri.ConfigureRequest.encode({ runtimeName: 'refrt', runtimeVersion: '0.1.0' }).finish();
    expect(runtimeVintage(nri.ConfigureRequest.decode(bytes)).knownEventsMask).toBe(0x7ff);
  });

  it('treats timeouts without an NRI version as v0.7..v0.11 and stays with the safe mask', () => {
    const v = runtimeVintage({
      runtimeName: 'containerd',
      runtimeVersion: 'v2.0.4',
      registrationTimeout: 5000,
      requestTimeout: 2000,
    });
    expect(v.knownEventsMask).toBe(LEGACY_EVENTS_MASK);
    expect(v.label).toMatch(/v0\.7 to v0\.11/);
    expect(v.synchronizesPreStarted).toBe(true);
  });

  it('recognizes runtime releases known to vendor NRI v0.10 or newer', () => {
    for (const [name, version] of [
      ['containerd', 'v2.2.0'],
      ['containerd', '2.3.1'],
      ['cri-o', '1.34.2'],
      ['CRI-O', 'v1.35.0'],
    ]) {
      const v = runtimeVintage({
        runtimeName: name,
        runtimeVersion: version,
        registrationTimeout: 5000,
        requestTimeout: 2000,
      });
      expect(v.knownEventsMask, `${name} ${version}`).toBe(ALL_EVENTS_MASK);
    }
    for (const [name, version] of [
      ['containerd', 'v2.1.6'],
      ['cri-o', '1.33.8'],
      ['isulad', '9.9.9'],
      ['containerd', 'garbage'],
    ]) {
      const v = runtimeVintage({
        runtimeName: name,
        runtimeVersion: version,
        registrationTimeout: 5000,
        requestTimeout: 2000,
      });
      expect(v.knownEventsMask, `${name} ${version}`).toBe(LEGACY_EVENTS_MASK);
    }
  });

  it('trusts an NRI version when the runtime sends one (v0.12+)', () => {
    const v = runtimeVintage({
      runtimeName: 'containerd',
      registrationTimeout: 5000,
      requestTimeout: 2000,
      NRIVersion: 'v0.12.1',
    });
    expect(v.knownEventsMask).toBe(ALL_EVENTS_MASK);
    expect(v.label).toBe('NRI v0.12.1');
  });
});

describe('event names without the bindings (api/event-names.ts)', () => {
  it('name every value of the Event enum, in its order, as the enum spells it', () => {
    const camel = (enumKey: string) =>
      enumKey
        .toLowerCase()
        .split('_')
        .map((w) => w[0].toUpperCase() + w.slice(1))
        .join('');
    const values = Object.entries(Event).filter(([k]) => k !== 'LAST');
    expect(EVENT_NAMES_BY_NUMBER).toHaveLength(values.length);
    for (const [key, n] of values) expect(EVENT_NAMES_BY_NUMBER[n as number], key).toBe(camel(key));
  });
});
