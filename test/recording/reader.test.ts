// Reading recordings back: a good one line by line, the JSON lines of `logs -o json`, and
// every kind of bad input (cut short, corrupt, foreign, newer, a .gz that is not gzip),
// each one error that names the file, the line and what was wrong.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Event } from '../../src/api/index.js';
import { checkRecording, openRecording, RecordingError, RecordingWriter } from '../../src/recording/index.js';

let dir: string;
let good: string;
let goodLines: string[];
beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'rec-reader-'));
  good = path.join(dir, 'good.jsonl');
  const w = await RecordingWriter.open({ file: good });
  w.begin({
    nrictlVersion: '0.0.0-test',
    source: 'logs',
    runtime: { name: 'containerd', version: 'v2.3.4' },
    plugin: '00-nrictl-logs',
    events: 0x7ff,
  });
  const pod = { id: 'pod0', name: 'web-0', namespace: 'shop' };
  w.event(Event.RUN_POD_SANDBOX, { pod });
  w.event(Event.CREATE_CONTAINER, { pod, container: { id: 'c1', podSandboxId: 'pod0', name: 'web' } });
  w.event(Event.START_CONTAINER, { pod, container: { id: 'c1', podSandboxId: 'pod0', name: 'web' } });
  await w.end();
  goodLines = readFileSync(good, 'utf8').split('\n'); // the last one is '' (a final newline)
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
function file(content: string | Buffer, name = `bad-${++n}.jsonl`): string {
  const f = path.join(dir, name);
  writeFileSync(f, content);
  return f;
}

async function failure(f: string): Promise<RecordingError> {
  const err = await checkRecording(f).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(RecordingError);
  expect((err as RecordingError).kind === 'usage' || (err as RecordingError).kind === 'not-found').toBe(true);
  expect((err as Error).message).not.toMatch(/\n/);
  return err as RecordingError;
}

describe('reading a recording', () => {
  it('reads a good one: header, events in order, trailer', async () => {
    const { info, entries } = await openRecording(good);
    expect(info).toMatchObject({ format: 'recording', header: { source: 'logs', runtime: { name: 'containerd' } } });
    const kinds: string[] = [];
    for await (const e of entries) kinds.push(e.kind === 'event' ? `${e.seq}:${Event[e.event]}` : e.kind);
    expect(kinds).toEqual(['synced', '1:RUN_POD_SANDBOX', '2:CREATE_CONTAINER', '3:START_CONTAINER', 'end']);
  });

  it('reads the JSON lines logs -o json printed: no state, times from each line', async () => {
    const f = file(
      [
        '{"time":"2026-11-27T08:00:00.000Z","event":"RunPodSandbox","pod":{"id":"p","name":"n"}}',
        '{"time":"2026-11-27T08:00:01.500Z","event":"CreateContainer","pod":{"id":"p"},"container":{"id":"c","linux":{"resources":{"memory":{"limit":{"value":"268435456"}}}}}}',
        '{"time":"2026-11-27T08:00:02.000Z","event":"UpdateContainer","pod":{"id":"p"},"container":{"id":"c"},"linuxResources":{"cpu":{"shares":{"value":"512"}}},"previousResources":{}}',
      ].join('\n'),
    );
    const { info, entries } = await openRecording(f);
    expect(info.format).toBe('logs-json');
    const events = [];
    for await (const e of entries) if (e.kind === 'event') events.push(e);
    expect(events.map((e) => [e.seq, e.t, Event[e.event]])).toEqual([
      [1, 0, 'RUN_POD_SANDBOX'],
      [2, 1500, 'CREATE_CONTAINER'],
      [3, 2000, 'UPDATE_CONTAINER'],
    ]);
    expect(events[1].request.container?.linux?.resources?.memory?.limit?.value).toBe(268435456);
    expect(
      (events[2].request as { linuxResources?: { cpu?: { shares?: { value?: number } } } }).linuxResources,
    ).toMatchObject({
      cpu: { shares: { value: 512 } },
    });
  });

  it('cut short: no trailer, a line cut in two, gzip data that ends early', async () => {
    const noTrailer = file(goodLines.slice(0, -2).join('\n') + '\n');
    expect((await failure(noTrailer)).message).toBe(
      `${noTrailer}: line ${goodLines.length - 1}: the recording ends without its trailer: it was cut short (copied while being written, or nrictl was killed)`,
    );
    const cutLine = file(goodLines.slice(0, 3).join('\n') + '\n' + goodLines[3].slice(0, 40));
    expect((await failure(cutLine)).message).toBe(
      `${cutLine}: line 4: the file ends inside this line: it was cut short (copied while being written?)`,
    );
    const gz = gzipSync(readFileSync(good));
    const cutGz = file(gz.subarray(0, gz.length - 12), 'cut.jsonl.gz');
    expect((await failure(cutGz)).message).toMatch(
      new RegExp(`^${cutGz}: line \\d+: the gzip data ends early: the file was cut short`),
    );
  });

  it('corrupt: a line that is not JSON, an event out of order, an unknown line type or event, a wrong value', async () => {
    const notJson = file([goodLines[0], goodLines[1], '{"type":"event",', ...goodLines.slice(2)].join('\n'));
    expect((await failure(notJson)).message).toMatch(new RegExp(`^${notJson}: line 3: not JSON \\(`));
    const swapped = file([goodLines[0], goodLines[1], goodLines[3], goodLines[2], ...goodLines.slice(4)].join('\n'));
    expect((await failure(swapped)).message).toBe(`${swapped}: line 4: event number 1 out of order (after 2)`);
    const odd = file([goodLines[0], '{"type":"mystery"}', ...goodLines.slice(1)].join('\n'));
    expect((await failure(odd)).message).toBe(`${odd}: line 2: unknown line type "mystery"`);
    const unknownEvent = file(
      [
        goodLines[0],
        goodLines[1],
        goodLines[2].replace('"RunPodSandbox"', '"ReticulateSplines"'),
        ...goodLines.slice(3),
      ].join('\n'),
    );
    expect((await failure(unknownEvent)).message).toBe(
      `${unknownEvent}: line 3: unknown event "ReticulateSplines" (recorded by a newer nrictl or runtime?)`,
    );
    const badValue = file(
      [
        goodLines[0],
        goodLines[1],
        goodLines[2].replace('"pod":{', '"pod":{"labels":"not a map",'),
        ...goodLines.slice(3),
      ].join('\n'),
    );
    expect((await failure(badValue)).message).toMatch(
      new RegExp(`^${badValue}: line 3: the RunPodSandbox request cannot be read: .*labels`),
    );
    const afterEnd = file(goodLines.join('\n') + goodLines[2] + '\n');
    expect((await failure(afterEnd)).message).toBe(`${afterEnd}: line ${goodLines.length}: a line after the trailer`);
  });

  it('foreign: another JSON file, an empty one, a gzip name on plain text, a directory, nothing there', async () => {
    const foreign = file('{"apiVersion":"v1","kind":"Pod"}\n');
    expect((await failure(foreign)).message).toBe(
      `${foreign}: line 1: not an nrictl recording (no "format": "nrictl-recording") nor a line of nrictl logs -o json`,
    );
    const text = file('hello world\n');
    expect((await failure(text)).message).toMatch(new RegExp(`^${text}: line 1: not JSON`));
    const empty = file('');
    expect((await failure(empty)).message).toBe(`${empty}: line 1: the file is empty: not an nrictl recording`);
    const notGz = file(readFileSync(good), 'plain.jsonl.gz');
    expect((await failure(notGz)).message).toBe(`${notGz}: the name ends in .gz but it is not gzip data`);
    expect((await failure(dir)).message).toBe(`${dir} is a directory, not a recording`);
    const missing = path.join(dir, 'missing.jsonl');
    expect(await failure(missing)).toMatchObject({ kind: 'not-found', message: `${missing} does not exist` });
  });

  it('newer: a format version this nrictl does not read', async () => {
    const newer = file([goodLines[0].replace('"version":1', '"version":2'), ...goodLines.slice(1)].join('\n'));
    expect((await failure(newer)).message).toBe(
      `${newer}: line 1: recorded in format version 2 by nrictl 0.0.0-test, newer than this nrictl reads (1): upgrade nrictl`,
    );
  });

  it('reads a gzip recording whatever its name', async () => {
    const f = file(gzipSync(readFileSync(good)), 'renamed.jsonl');
    expect((await checkRecording(f)).events).toBe(3);
  });
});
