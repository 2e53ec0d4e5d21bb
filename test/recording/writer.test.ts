// The recording writer on real files in a temporary directory: mode 0600, put in place
// whole and never over an existing file without force, environment values redacted,
// drops and --record-max counted into the trailer, gzip for .gz, nothing left behind
// when the recording never began.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Event, nri } from '../../src/api/index.js';
import {
  checkRecording,
  RECORDING_MODE,
  RecordingError,
  RecordingWriter,
  REDACTED,
  type RecordingNote,
} from '../../src/recording/index.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'rec-writer-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const START = {
  nrictlVersion: '0.0.0-test',
  source: 'logs' as const,
  runtime: { name: 'containerd', version: 'v2.3.4', nriVersion: 'v0.12.2' },
  plugin: '00-nrictl-logs',
  events: (1 << (Event.CREATE_CONTAINER - 1)) | (1 << (Event.RUN_POD_SANDBOX - 1)),
};
const pod = { id: 'pod0', name: 'web-0', namespace: 'shop' };
const ctr = (id: string) => ({ id, podSandboxId: 'pod0', name: id, env: ['PASSWORD=hunter2', 'PLAIN', 'PATH=/bin'] });
const lines = (file: string) =>
  readFileSync(file, 'utf8')
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, any>);
const syncPayload = () => Buffer.from(nri.SynchronizeRequest.encode({ pods: [pod], containers: [ctr('c0')] }).finish());

describe('RecordingWriter', () => {
  it('writes header, state, events and trailer into a 0600 file that appears only at the end', async () => {
    const file = path.join(dir, 'rec.jsonl');
    const w = await RecordingWriter.open({ file });
    w.sync([syncPayload()]);
    w.begin(START);
    expect(w.event(Event.RUN_POD_SANDBOX, { pod })).toBe(1);
    expect(w.event(Event.CREATE_CONTAINER, { pod, container: ctr('c1') })).toBe(2);
    // Still being written: only a hidden temporary file, mode 0600, and nothing at the target.
    expect(existsSync(file)).toBe(false);
    const temp = readdirSync(dir);
    expect(temp).toHaveLength(1);
    expect(temp[0]).toMatch(/^\.rec\.jsonl\.\d+\.[0-9a-f]+\.tmp$/);
    expect(statSync(path.join(dir, temp[0])).mode & 0o777).toBe(RECORDING_MODE);
    const summary = await w.end();
    expect(summary).toMatchObject({ written: 2, dropped: 0, truncated: 0, complete: true });
    expect(readdirSync(dir)).toEqual(['rec.jsonl']);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const all = lines(file);
    expect(all.map((l) => l.type ?? l.format)).toEqual([
      'nrictl-recording',
      'pod',
      'container',
      'synced',
      'event',
      'event',
      'end',
    ]);
    expect(all[0]).toMatchObject({
      version: 1,
      source: 'logs',
      runtime: START.runtime,
      events: ['RunPodSandbox', 'CreateContainer'],
      redacted: ['env'],
    });
    expect(all[5]).toMatchObject({ seq: 2, event: 'CreateContainer', request: { pod, container: { id: 'c1' } } });
    expect(all[6].records).toEqual({ written: 2, dropped: 0, truncated: 0 });
    // And it reads back.
    const check = await checkRecording(file);
    expect(check).toMatchObject({ pods: 1, containers: 1, synced: true, events: 2 });
  });

  it('replaces environment values with one marker, in events and in the state; --record-env keeps them', async () => {
    const file = path.join(dir, 'rec.jsonl');
    const w = await RecordingWriter.open({ file });
    w.sync([syncPayload()]);
    w.begin(START);
    w.event(Event.CREATE_CONTAINER, { pod, container: ctr('c1') });
    w.event(Event.VALIDATE_CONTAINER_ADJUSTMENT, {
      pod,
      container: ctr('c1'),
      adjust: { env: [{ key: 'TOKEN', value: 's3cret' }] },
    });
    w.trace(1, {
      event: 'CreateContainer',
      container: { id: 'c1' },
      end: 'complete',
      segments: [
        {
          label: '10-env',
          plugins: ['10-env'],
          calibration: false,
          changes: [{ field: 'env', key: 'TOKEN', old: 'a', new: 's3cret' }],
        },
      ],
    });
    await w.end();
    const text = readFileSync(file, 'utf8');
    expect(text).not.toMatch(/hunter2|s3cret|"a"/);
    const all = lines(file);
    expect(all[2].container.env).toEqual([`PASSWORD=${REDACTED}`, 'PLAIN', `PATH=${REDACTED}`]);
    expect(all[4].request.container.env).toEqual([`PASSWORD=${REDACTED}`, 'PLAIN', `PATH=${REDACTED}`]);
    expect(all[5].request.adjust.env).toEqual([{ key: 'TOKEN', value: REDACTED }]);
    expect(all[6].final).toEqual([{ field: 'env', key: 'TOKEN', value: REDACTED, by: '10-env' }]);

    const kept = path.join(dir, 'kept.jsonl');
    const k = await RecordingWriter.open({ file: kept, keepEnv: true });
    k.begin(START);
    k.event(Event.CREATE_CONTAINER, { pod, container: ctr('c1') });
    await k.end();
    const keptLines = lines(kept);
    expect(keptLines[0].redacted).toEqual([]);
    expect(keptLines[2].request.container.env).toEqual(['PASSWORD=hunter2', 'PLAIN', 'PATH=/bin']);
  });

  it('never replaces an existing file without force, and says so before anything starts', async () => {
    const file = path.join(dir, 'rec.jsonl');
    writeFileSync(file, 'precious\n');
    const err = await RecordingWriter.open({ file }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RecordingError);
    expect(err).toMatchObject({ kind: 'conflict', option: 'record' });
    expect((err as Error).message).toBe(`${file} exists: give another name, or --force to replace it`);
    expect(readdirSync(dir)).toEqual(['rec.jsonl']);
    const w = await RecordingWriter.open({ file, force: true });
    w.begin(START);
    await w.end();
    expect(readFileSync(file, 'utf8')).toMatch(/^\{"format":"nrictl-recording"/);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    // A directory that is not there is named.
    await expect(RecordingWriter.open({ file: path.join(dir, 'no/such/rec.jsonl') })).rejects.toMatchObject({
      kind: 'not-found',
    });
  });

  it('keeps the recording as its temporary file, as it says, when a file appeared at the target meanwhile', async () => {
    const file = path.join(dir, 'rec.jsonl');
    const w = await RecordingWriter.open({ file });
    w.begin(START);
    w.event(Event.RUN_POD_SANDBOX, { pod });
    const [temp] = readdirSync(dir);
    writeFileSync(file, 'precious\n');
    const summary = await w.end();
    expect(summary).toMatchObject({ written: 1, complete: false });
    expect(summary.error).toBe(`${file} appeared while recording: the recording is kept as ${path.join(dir, temp)}`);
    expect(readFileSync(file, 'utf8')).toBe('precious\n');
    expect(readdirSync(dir).sort()).toEqual([temp, 'rec.jsonl'].sort());
    expect((await checkRecording(path.join(dir, temp))).events).toBe(1);
  });

  it('leaves nothing behind when the recording never began (the registration failed)', async () => {
    const w = await RecordingWriter.open({ file: path.join(dir, 'rec.jsonl') });
    w.event(Event.RUN_POD_SANDBOX, { pod });
    expect(await w.end()).toMatchObject({ complete: false, error: 'nothing was recorded' });
    expect(readdirSync(dir)).toEqual([]);
  });

  it('counts what a full queue drops, in the summary and the trailer', async () => {
    const file = path.join(dir, 'rec.jsonl');
    const w = await RecordingWriter.open({ file, capacity: 2 });
    w.begin(START);
    // All on one turn of the event loop: the writer has not run yet, so the queue fills.
    for (let i = 0; i < 10; i++) w.event(Event.RUN_POD_SANDBOX, { pod: { ...pod, id: `p${i}` } });
    const summary = await w.end();
    expect(summary).toMatchObject({ written: 2, dropped: 8, complete: true });
    const all = lines(file);
    expect(all.filter((l) => l.type === 'event').map((l) => l.seq)).toEqual([1, 2]);
    expect(all.at(-1)!.records).toEqual({ written: 2, dropped: 8, truncated: 0 });
  });

  it('--record-max ends the recording, not the writer: a note once, the trailer counts the rest, the file stays under it', async () => {
    const file = path.join(dir, 'rec.jsonl');
    const notes: RecordingNote[] = [];
    const maxBytes = 4096;
    const w = await RecordingWriter.open({ file, maxBytes, capacity: 1000 }, (n) => notes.push(n));
    w.begin(START);
    for (let i = 0; i < 200; i++) w.event(Event.CREATE_CONTAINER, { pod, container: ctr(`c${i}`) });
    await new Promise((r) => setTimeout(r, 20));
    for (let i = 0; i < 5; i++) w.event(Event.RUN_POD_SANDBOX, { pod });
    const summary = await w.end();
    expect(notes).toEqual([{ kind: 'recording-full', file, maxBytes }]);
    expect(summary.full).toEqual({ maxBytes });
    expect(summary.written).toBeGreaterThan(0);
    expect(summary.written + summary.truncated).toBe(205);
    expect(statSync(file).size).toBeLessThanOrEqual(maxBytes);
    const end = lines(file).at(-1)!;
    expect(end.records).toEqual({ written: summary.written, dropped: 0, truncated: summary.truncated });
    expect(end.note).toMatch(/--record-max/);
    expect((await checkRecording(file)).events).toBe(summary.written);
  });

  it('compresses a .gz recording with gzip', async () => {
    const file = path.join(dir, 'rec.jsonl.gz');
    const w = await RecordingWriter.open({ file });
    w.begin(START);
    w.event(Event.RUN_POD_SANDBOX, { pod });
    await w.end();
    const raw = readFileSync(file);
    expect([raw[0], raw[1]]).toEqual([0x1f, 0x8b]);
    expect(gunzipSync(raw).toString('utf8')).toMatch(/"event":"RunPodSandbox"/);
    expect((await checkRecording(file)).events).toBe(1);
  });
});
