// EventWatch waiting for a runtime that is not there at start (what the exporter needs in
// a DaemonSet whose pod may start before the runtime's NRI): the first registration
// tried again with backoff until the simulated runtime comes up on that very socket, a
// 'waiting' notice each time; stop() ends the wait at once; without waitForRuntime the
// first failure is the answer, and a usage error is never retried.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Event, eventBit } from '../../src/api/index.js';
import { EventWatch, SessionError, type WatchNotice } from '../../src/session/index.js';
import { startRuntime } from '../commands/nri-cli.js';

let dir = '';
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'nrwait-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const BACKOFF = { initialMs: 40, maxMs: 160 };

function watchAt(socketPath: string, waitForRuntime: typeof BACKOFF | undefined): EventWatch {
  return new EventWatch({
    target: { socketPath },
    name: 'wait-test',
    index: '90',
    timeoutMs: 2000,
    events: eventBit(Event.REMOVE_POD_SANDBOX),
    handlers: { removePodSandbox: () => {} },
    reconnect: BACKOFF,
    ...(waitForRuntime ? { waitForRuntime } : {}),
  });
}

describe('EventWatch.waitForRuntime', () => {
  it('tries the first registration again, doubling the wait, until the runtime is there', async () => {
    const socketPath = path.join(dir, 'nri.sock');
    const watch = watchAt(socketPath, BACKOFF);
    const notices: WatchNotice[] = [];
    watch.on('notice', (n: WatchNotice) => notices.push(n));
    const started = watch.start();
    await expect.poll(() => notices.length, { timeout: 3000 }).toBeGreaterThanOrEqual(4);
    expect(notices.slice(0, 4).map((n) => [n.kind, 'inMs' in n ? n.inMs : undefined])).toEqual([
      ['waiting', 40],
      ['waiting', 80],
      ['waiting', 160],
      ['waiting', 160],
    ]);
    const first = notices[0] as Extract<WatchNotice, { kind: 'waiting' }>;
    expect(first.error).toBeInstanceOf(SessionError);
    expect(first.error.kind).toBe('connect');
    const rt = await startRuntime({}, { socketPath });
    try {
      const synced = rt.synchronized('90-wait-test');
      expect(await started).toBe(true);
      await synced;
      expect(watch.runtime?.name).toBe('nrictl-sim');
      // Registered once: the waiting is over, nothing more is said.
      const said = notices.length;
      await new Promise((r) => setTimeout(r, 300));
      expect(notices.length).toBe(said);
    } finally {
      await watch.stop();
      await rt.stop();
    }
  });

  it('stop() during the wait ends it at once: start() resolves false, no end error', async () => {
    const watch = watchAt(path.join(dir, 'never.sock'), { initialMs: 10_000, maxMs: 10_000 });
    const ended: unknown[] = [];
    watch.on('end', (err: unknown) => ended.push(err));
    const notices: WatchNotice[] = [];
    watch.on('notice', (n: WatchNotice) => notices.push(n));
    const started = watch.start();
    await expect.poll(() => notices.length, { timeout: 3000 }).toBe(1);
    const t = Date.now();
    await watch.stop();
    expect(await started).toBe(false);
    expect(Date.now() - t).toBeLessThan(1000);
    expect(ended).toEqual([undefined]);
  });

  it('without it, the first failure rejects; with it, a usage error still does', async () => {
    const err = await watchAt(path.join(dir, 'none.sock'), undefined)
      .start()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SessionError);
    expect((err as SessionError).kind).toBe('connect');
    const tooLong = path.join(dir, 'x'.repeat(120), 'nri.sock');
    const usage = await watchAt(tooLong, BACKOFF)
      .start()
      .catch((e: unknown) => e);
    expect(usage).toBeInstanceOf(SessionError);
    expect((usage as SessionError).kind).toBe('usage');
  });
});
