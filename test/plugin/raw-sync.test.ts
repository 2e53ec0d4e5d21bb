// PluginHandlers.synchronizeRaw: Synchronize answered unread, the payloads handed on
// only after the runtime has its answer; read back with src/api's sync-wire helpers.
import { describe, expect, it } from 'vitest';
import { decodeSyncEntry, nri, synchronizeEntries, synchronizeMore } from '../../src/api/index.js';
import { Stub } from '../../src/plugin/index.js';
import { MODERN_CONFIGURE, RuntimePeer } from './peer.js';

const ctr = (id: string): nri.IContainer => ({ id, podSandboxId: 'p1', name: `ctr-${id}` });

describe('synchronizeRaw', () => {
  it('answers each part with no update and hands both payloads on once, after the final part', async () => {
    const peer = await RuntimePeer.listen();
    const handed: Buffer[][] = [];
    const stub = new Stub(
      { synchronizeRaw: (p) => void handed.push(p), runPodSandbox: () => {} },
      { name: 'raw', index: '10', socketPath: peer.socketPath },
    );
    try {
      const started = stub.start();
      const session = await peer.next();
      const parts = [
        { pods: [{ id: 'p1', name: 'web' }], containers: [ctr('a'), ctr('b')], more: true },
        { containers: [ctr('c')], more: false },
      ];
      const { synced } = await session.handshake(MODERN_CONFIGURE, parts);
      await started;
      expect(synced.map((s) => s.more)).toEqual([true, false]);
      expect(synced.flatMap((s) => s.update)).toEqual([]);
      expect(handed.map((h) => h.length)).toEqual([2]); // once, both parts
      const entries = handed[0].flatMap((b) => synchronizeEntries(b).map((e) => decodeSyncEntry(b, e)));
      expect(entries.map((e) => e.id)).toEqual(['p1', 'a', 'b', 'c']);
    } finally {
      await stub.stop();
      await peer.close();
    }
  });

  it('synchronizeMore reads the flag without the rest', () => {
    const enc = (r: nri.ISynchronizeRequest) => nri.SynchronizeRequest.encode(r).finish();
    expect(synchronizeMore(enc({ containers: [ctr('a')], more: true }))).toBe(true);
    expect(synchronizeMore(enc({ containers: [ctr('a')] }))).toBe(false);
    expect(synchronizeMore(new Uint8Array())).toBe(false);
  });
});
