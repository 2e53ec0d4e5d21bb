// A recording's pods, containers and requests may carry fields this nrictl's nri.proto does
// not have (a newer NRI's, a runtime's own). The decoder drops them; the reader counts
// them by path, and replay says, before anything runs, what it replays without, as it does
// for the header's unknown fields. Nothing is dropped without being counted.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkRecording } from '../../src/recording/index.js';
import { replayRecording } from '../../src/replay/index.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'replay-unknown-body-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const HEADER = {
  format: 'nrictl-recording',
  version: 1,
  nrictlVersion: '0.1.0',
  source: 'logs',
  started: '2026-11-28T04:00:00.000Z',
  runtime: { name: 'containerd', version: 'v2.3.4', nriVersion: 'v0.12.0' },
  plugin: '00-nrictl-logs',
  events: ['RunPodSandbox', 'CreateContainer'],
  redacted: ['env'],
};
const END = { type: 'end', ended: '2026-11-28T04:00:01.000Z', records: { written: 3, dropped: 0, truncated: 0 } };

function write(name: string, lines: object[]): string {
  const file = path.join(dir, name);
  writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  return file;
}

async function replay(file: string) {
  const said: string[] = [];
  const r = await replayRecording(
    { replay: file, onAssumption: (line) => said.push(line) },
    new AbortController().signal,
  );
  return { said, r };
}

describe('fields of recorded bodies that this nrictl does not know', () => {
  const file = write('newer-bodies.jsonl', [
    HEADER,
    { type: 'pod', pod: { id: 'pod-0', name: 'old', namespace: 'shop', zone: 'a' } },
    { type: 'synced', pods: 1, containers: 0 },
    {
      type: 'event',
      seq: 1,
      t: 0,
      event: 'RunPodSandbox',
      request: { pod: { id: 'pod-1', name: 'web', namespace: 'shop', zone: 'b' } },
    },
    {
      type: 'event',
      seq: 2,
      t: 1,
      event: 'CreateContainer',
      request: {
        pod: { id: 'pod-1', name: 'web', namespace: 'shop', zone: 'b' },
        container: {
          id: 'c-1',
          name: 'app',
          podSandboxId: 'pod-1',
          linux: { resources: { memory: { limit: { value: '1024' }, swapiness: 1 } } },
          mounts: [{ destination: '/d', source: '/s', idmap: true }],
        },
        hint: 'x',
      },
    },
    END,
  ]);

  it('are counted by path, per line that carried them', async () => {
    const check = await checkRecording(file);
    expect(check.unknown.lines).toBe(3);
    expect(Object.fromEntries(check.unknown.paths)).toEqual({
      'pod.zone': 3,
      'container.linux.resources.memory.swapiness': 1,
      'container.mounts.idmap': 1,
      hint: 1,
    });
  });

  it('are said once by replay, which goes on without them', async () => {
    const { said, r } = await replay(file);
    expect(said).toEqual([
      '3 recorded lines carry fields this nrictl does not know (pod.zone in 3 lines, container.linux.resources.memory.swapiness in 1 line, container.mounts.idmap in 1 line, hint in 1 line): replaying without them',
    ]);
    expect(r.replay.assumed).toEqual(said);
    expect(r.simulation.script).toEqual({ steps: 2, failed: 0 });
  });

  it('in lines of logs -o json too, whose own keys (time, plugin, adjust) are not the request’s', async () => {
    const logs = write('logs.jsonl', [
      {
        time: '2026-11-28T04:00:00.000Z',
        event: 'RunPodSandbox',
        plugin: '00-nrictl-logs',
        pod: { id: 'pod-1', name: 'web', namespace: 'shop', zone: 'b' },
      },
      {
        time: '2026-11-28T04:00:00.010Z',
        event: 'CreateContainer',
        pod: { id: 'pod-1', name: 'web', namespace: 'shop' },
        container: { id: 'c-1', name: 'app', podSandboxId: 'pod-1' },
        adjust: { env: [] },
      },
    ]);
    const check = await checkRecording(logs);
    expect(check.unknown.lines).toBe(1);
    expect(Object.fromEntries(check.unknown.paths)).toEqual({ 'pod.zone': 1 });
  });

  it('none: nothing said', async () => {
    const plain = write('plain.jsonl', [
      HEADER,
      { type: 'synced', pods: 0, containers: 0 },
      { type: 'event', seq: 1, t: 0, event: 'RunPodSandbox', request: { pod: { id: 'pod-1', name: 'web' } } },
      END,
    ]);
    const { said } = await replay(plain);
    expect(said).toEqual([]);
  });
});
