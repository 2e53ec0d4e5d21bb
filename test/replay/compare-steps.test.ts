// The two pure halves of a replay: recorded events as the simulator's steps (what is no
// step, what a recording implies but lacks), and the comparison of recorded and replayed
// trace results (what ends differently, a creation the runtime refused after the last
// plugin, an event only one side saw).
import { describe, expect, it } from 'vitest';
import { Event } from '../../src/api/index.js';
import type { RecordingEntry, TraceLine } from '../../src/recording/index.js';
import { Comparer } from '../../src/replay/compare.js';
import { recordedSteps, StepMapper, stepsOf, type StepCounts } from '../../src/replay/steps.js';
import { stepLabel, type Step } from '../../src/runtime/index.js';
import type { TraceRecord } from '../../src/trace/index.js';

const pod = { id: 'p1', name: 'web-0', namespace: 'shop' };
const ctr = { id: 'c1', name: 'web', podSandboxId: 'p1' };
let seq = 0;
const ev = (event: Event, request: object, t = 0): RecordingEntry & { kind: 'event' } => ({
  kind: 'event',
  line: ++seq,
  seq,
  t,
  event,
  request: request as never,
});

async function* source(entries: RecordingEntry[]): AsyncGenerator<RecordingEntry> {
  yield* entries;
}

const none = (): StepCounts => ({ events: 0, steps: 0, madeUp: 0, notSteps: 0 });

/** Reads the steps as the simulator's script does, running (here: keeping) `take` of them. */
async function replay(
  entries: RecordingEntry[],
  opts: { take?: number; speed?: number; signal?: AbortSignal; onRun?: (s: Step) => void } = {},
): Promise<{ ran: Step[]; replayed: StepCounts }> {
  const replayed = none();
  const ran: Step[] = [];
  const pace = { speed: opts.speed, signal: opts.signal };
  for await (const s of recordedSteps(source(entries), new StepMapper(), pace, replayed)) {
    if (ran.length === (opts.take ?? Infinity)) break;
    ran.push(s);
    opts.onRun?.(s);
  }
  return { ran, replayed };
}

describe('StepMapper', () => {
  it('one step per lifecycle event; post-events and validation are none', async () => {
    const { ran, replayed } = await replay([
      ev(Event.RUN_POD_SANDBOX, { pod }),
      ev(Event.CREATE_CONTAINER, { pod, container: ctr }),
      ev(Event.POST_CREATE_CONTAINER, { pod, container: ctr }),
      ev(Event.VALIDATE_CONTAINER_ADJUSTMENT, { pod, container: ctr }),
      ev(Event.START_CONTAINER, { pod, container: ctr }),
      ev(Event.UPDATE_CONTAINER, { pod, container: ctr, linuxResources: { cpu: { shares: { value: 512 } } } }),
      ev(Event.UPDATE_POD_SANDBOX, { pod, linuxResources: {} }),
      ev(Event.POST_UPDATE_POD_SANDBOX, { pod }),
      ev(Event.STOP_CONTAINER, { pod, container: ctr }),
      ev(Event.REMOVE_CONTAINER, { pod, container: ctr }),
      ev(Event.STOP_POD_SANDBOX, { pod }),
      ev(Event.REMOVE_POD_SANDBOX, { pod }),
    ]);
    expect(ran.map(stepLabel)).toEqual([
      'run-pod p1',
      'create c1',
      'start c1',
      'update c1',
      'update-pod p1',
      'stop c1',
      'remove c1',
      'stop-pod p1',
      'remove-pod p1',
    ]);
    expect(replayed).toEqual({ events: 12, steps: 9, madeUp: 0, notSteps: 3 });
  });

  it('makes up what a recording names but never created, and knows the Synchronize state', () => {
    const m = new StepMapper();
    m.knowPod('p0');
    m.knowContainer('c0', 'p0');
    // An update of a synchronized container: no more than the update.
    expect(
      stepsOf(m.map(ev(Event.UPDATE_CONTAINER, { pod: { id: 'p0' }, container: { id: 'c0' } }))).map(stepLabel),
    ).toEqual(['update c0']);
    // A container of a pod whose RunPodSandbox was not recorded, started without its creation recorded.
    const steps = m.map(ev(Event.START_CONTAINER, { pod, container: ctr }));
    expect(steps.madeUp.map(stepLabel)).toEqual(['run-pod p1', 'create c1']);
    expect(steps.own && stepLabel(steps.own)).toBe('start c1');
    expect(steps.madeUp[1]).toMatchObject({ kind: 'create', container: { id: 'c1', podSandboxId: 'p1' } });
    // Removing the pod removes its containers: a later event for one makes it up again.
    m.map(ev(Event.REMOVE_POD_SANDBOX, { pod }));
    expect(stepsOf(m.map(ev(Event.STOP_CONTAINER, { pod, container: ctr }))).map(stepLabel)).toEqual([
      'run-pod p1',
      'create c1',
      'stop c1',
    ]);
  });
});

describe('recordedSteps counts what the script ran', () => {
  it("a stop during the pace's wait: the event waited for is not replayed", async () => {
    const stop = new AbortController();
    const { ran, replayed } = await replay(
      [
        ev(Event.RUN_POD_SANDBOX, { pod }, 0),
        ev(Event.CREATE_CONTAINER, { pod, container: ctr }, 0),
        ev(Event.POST_CREATE_CONTAINER, { pod, container: ctr }, 1),
        // Due 60 s later at the recorded pace: the stop comes while the replay waits for it.
        ev(Event.START_CONTAINER, { pod, container: ctr }, 60_000),
      ],
      {
        speed: 1,
        signal: stop.signal,
        onRun: (s) => {
          if (s.kind === 'create') setTimeout(() => stop.abort(), 20);
        },
      },
    );
    expect(ran.map(stepLabel)).toEqual(['run-pod p1', 'create c1']);
    expect(replayed).toEqual({ events: 3, steps: 2, madeUp: 0, notSteps: 1 });
  });

  it('a step handed out but never run (stopped before it) is not counted, nor its event', async () => {
    // StartContainer of a container never created: its pod and container are made up first.
    const { ran, replayed } = await replay([ev(Event.START_CONTAINER, { pod, container: ctr })], { take: 1 });
    // The made-up pod ran; the made-up container was handed out, then the script stopped.
    expect(ran.map(stepLabel)).toEqual(['run-pod p1']);
    expect(replayed).toEqual({ events: 0, steps: 0, madeUp: 1, notSteps: 0 });
  });
});

const segment = (label: string, changes: TraceLine['segments'][number]['changes']) => ({
  label,
  plugins: [label],
  group: false,
  calibration: false,
  from: '00',
  to: '99',
  changes,
});

function recorded(s: number, end: TraceLine['end'], segments: ReturnType<typeof segment>[]): TraceLine {
  const final = segments.flatMap((g) =>
    g.changes.map((c) => ({
      field: c.field,
      key: c.key,
      ...(c.new !== undefined ? { value: c.new } : {}),
      by: g.label,
    })),
  );
  return { type: 'trace', seq: s, event: 'CreateContainer', container: 'c1', end, segments, final };
}

function replayed(end: TraceRecord['end'], segments: ReturnType<typeof segment>[]): TraceRecord {
  return {
    time: 0,
    event: 'CreateContainer',
    pod: { id: 'p1', namespace: 'shop', name: 'web-0', uid: 'u1', cgroupParent: '/kubepods' },
    container: { id: 'c1', name: 'web' },
    segments,
    totalMs: 0,
    hopMs: 0,
    end,
    attribution: 'probes',
  };
}

describe('Comparer', () => {
  it('the same ends on both sides: compared, nothing differs, whichever side comes first', () => {
    const c = new Comparer('f', false);
    c.event(2, pod, 'web');
    c.replayed(replayed('complete', [segment('10-a', [{ field: 'env', key: 'X', new: '1' }])]));
    c.recorded(recorded(2, 'complete', [segment('10-a', [{ field: 'env', key: 'X', new: '1' }])]));
    expect(c.result()).toEqual({ file: 'f', compared: 1, uncompared: { then: 0, now: 0 }, containers: [], notes: [] });
  });

  it('names each field that ends differently, with who set it then and now', () => {
    const c = new Comparer('f', false);
    c.event(2, pod, 'web');
    c.recorded(
      recorded(2, 'complete', [
        segment('10-a', [
          { field: 'resources', key: 'cpu.cpus', new: '0-1' },
          { field: 'annotations', key: 'k', new: 'v' },
        ]),
      ]),
    );
    c.replayed(
      replayed('complete', [
        segment('10-a', [{ field: 'resources', key: 'cpu.cpus', new: '0-3' }]),
        segment('20-b', [{ field: 'mounts', key: '/cache', new: '/x bind' }]),
      ]),
    );
    const r = c.result();
    expect(r.containers).toEqual([
      {
        id: 'c1',
        name: 'web',
        pod: 'shop/web-0',
        differences: [
          {
            seq: 2,
            event: 'CreateContainer',
            field: 'annotations',
            key: 'k',
            then: { value: 'v', by: '10-a' },
            now: {},
          },
          {
            seq: 2,
            event: 'CreateContainer',
            field: 'mounts',
            key: '/cache',
            then: {},
            now: { value: '/x bind', by: '20-b' },
          },
          {
            seq: 2,
            event: 'CreateContainer',
            field: 'resources',
            key: 'cpu.cpus',
            then: { value: '0-1', by: '10-a' },
            now: { value: '0-3', by: '10-a' },
          },
        ],
      },
    ]);
  });

  it('a creation the runtime refuses after every plugin answered is an outcome that differs', () => {
    const c = new Comparer('f', false);
    c.event(2, pod, 'web');
    c.recorded(recorded(2, 'complete', []));
    c.replayed(replayed('complete', []));
    c.runtimeFailed('c1', 'unsupported container adjustments: annotations');
    expect(c.result().containers[0].differences).toEqual([
      {
        seq: 2,
        event: 'CreateContainer',
        field: 'outcome',
        key: '',
        then: { value: 'complete' },
        now: { value: 'failed', by: 'unsupported container adjustments: annotations' },
      },
    ]);
  });

  it('hides env values where the recording did, and counts what one side alone saw', () => {
    const c = new Comparer('f', true);
    c.event(2, pod, 'web');
    c.recorded(recorded(2, 'complete', [segment('10-a', [{ field: 'env', key: 'X', new: '<redacted>' }])]));
    c.replayed(replayed('complete', [segment('10-a', [{ field: 'env', key: 'X', new: 'the secret' }])]));
    c.recorded({ ...recorded(4, 'complete', []), container: 'c9' });
    const r = c.result();
    expect(r).toMatchObject({ compared: 1, uncompared: { then: 1, now: 0 }, containers: [] });
    expect(r.notes).toEqual([
      'environment values are not compared, only which variables are set: the recording holds names only (made without --record-env)',
      '1 traced event(s) of the recording were not traced in the replay: not compared',
    ]);
  });
});
