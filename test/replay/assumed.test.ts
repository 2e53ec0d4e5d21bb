// A recording says what its runtime said, and real runtimes say things this nrictl cannot
// use: containerd built from its vendor tree (as distributions build it) says NRI version
// "0.0.0-unknown". Replay says, once and before anything runs, what it assumed instead,
// and goes on; it never refuses such a recording. The recordings are made here, line by line.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { replayRecording } from '../../src/replay/index.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'replay-assumed-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const POD = { id: 'pod-1', name: 'web', namespace: 'shop', uid: 'uid-1' };

/** A recording of one pod run on `runtime`, with `extra` fields in its header. */
function recording(name: string, runtime: Record<string, unknown>, extra: Record<string, unknown> = {}): string {
  const file = path.join(dir, name);
  const lines = [
    {
      format: 'nrictl-recording',
      version: 1,
      nrictlVersion: '0.1.0',
      source: 'logs',
      started: '2026-11-28T04:00:00.000Z',
      runtime,
      plugin: '00-nrictl-logs',
      events: ['RunPodSandbox'],
      redacted: ['env'],
      ...extra,
    },
    { type: 'synced', pods: 0, containers: 0 },
    { type: 'event', seq: 1, t: 0, event: 'RunPodSandbox', request: { pod: POD } },
    { type: 'end', ended: '2026-11-28T04:00:01.000Z', records: { written: 1, dropped: 0, truncated: 0 } },
  ];
  writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  return file;
}

async function replay(file: string, opts: { nriVersion?: string } = {}) {
  const said: string[] = [];
  const r = await replayRecording(
    { replay: file, ...opts, onAssumption: (line) => said.push(line) },
    new AbortController().signal,
  );
  return { said, r };
}

describe('replay of what real runtimes write', () => {
  it('an NRI version it cannot read: the runtime’s preset’s, said in one line', async () => {
    const file = recording('vendored.jsonl', { name: 'containerd', version: 'v2.3.4', nriVersion: '0.0.0-unknown' });
    const { said, r } = await replay(file);
    expect(said).toEqual([
      'the recording\'s NRI version "0.0.0-unknown" (containerd v2.3.4) cannot be read: replaying with the containerd-2.3 preset\'s NRI version; give --nri-version to choose',
    ]);
    expect(r.replay).toMatchObject({ preset: 'containerd-2.3', presetFrom: 'recording', assumed: said });
    expect(r.simulation.script).toEqual({ steps: 1, failed: 0 });
  });

  it('--nri-version given: nothing assumed', async () => {
    const file = recording('vendored2.jsonl', { name: 'containerd', version: 'v2.3.4', nriVersion: '0.0.0-unknown' });
    const { said, r } = await replay(file, { nriVersion: 'v0.12.0' });
    expect(said).toEqual([]);
    expect(r.simulation.script).toEqual({ steps: 1, failed: 0 });
  });

  it('a runtime it has no preset for, with an unreadable NRI version too: its name and version, the newest rules', async () => {
    const file = recording('unknown-rt.jsonl', { name: 'acme-runtime', version: 'r7', nriVersion: 'dev' });
    const { said, r } = await replay(file);
    expect(said).toEqual([
      'the recording\'s NRI version "dev" (acme-runtime r7) cannot be read: replaying with the newest NRI version; give --nri-version to choose',
      "no preset for acme-runtime r7: replaying with its name and version, the Go adaptation's rules of NRI at its newest and no runtime's quirks; give --preset to choose",
    ]);
    expect(r.replay.preset).toBeUndefined();
    expect(r.simulation.script).toEqual({ steps: 1, failed: 0 });
  });

  it('header fields it does not know: named, and passed over', async () => {
    const file = recording(
      'newer.jsonl',
      { name: 'containerd', version: 'v2.3.4', nriVersion: 'v0.12.0', build: 'vendor' },
      { host: 'node-1' },
    );
    const { said, r } = await replay(file);
    expect(said).toEqual([
      "the recording's header has fields this nrictl does not know (host, runtime.build): replaying without them",
    ]);
    expect(r.simulation.script).toEqual({ steps: 1, failed: 0 });
  });

  it('a recording that says only what it knows: nothing assumed', async () => {
    const file = recording('plain.jsonl', { name: 'cri-o', version: '1.32.13' });
    const { said, r } = await replay(file);
    expect(said).toEqual([]);
    expect(r.replay.preset).toBe('crio-1.32');
  });
});
