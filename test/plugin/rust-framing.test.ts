// iSulad's NRI library (isula-rust-extensions nri/src/nri/mux.rs, on ttrpc-rust 0.8's sync
// client) frames its requests unlike Go: ttrpc-rust writes the 10-byte header and the
// body with two sends (sync/channel.rs write_message), and the mux forwards whatever one
// read of its 1024-byte buffer returns as one mux frame. So a message reaches the plugin
// as a header-only frame, then its body in frames of at most 1024 bytes. The SDK must
// answer such requests as it answers Go's: this held when conformance's canary seemed
// not to reach its plugin on iSulad (the cause was the pod's name, not the wire).
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Duplex } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { Event, eventBit, nri } from '../../src/api/index.js';
import { MuxDecoder, PLUGIN_SERVICE_CONN, encodeMuxHeader } from '../../src/mux/index.js';
import { Stub } from '../../src/plugin/index.js';
import { HEADER_LENGTH } from '../../src/ttrpc/index.js';
import { PeerSession, V061_CONFIGURE } from './peer.js';

/** The largest mux frame isula_nri's connection reader makes: one read of its 1024-byte buffer. */
const RUST_READ = 1024;

/**
 * The runtime's side of the trunk, re-framed as isula_nri frames what it sends on
 * connection 1: each ttrpc message's header in a frame of its own, its body in frames of
 * at most RUST_READ bytes. What it sends on other connections, and what it reads, pass as they are.
 */
function rustFramed(sock: net.Socket, framesOut: number[]): Duplex {
  const decoder = new MuxDecoder({ label: 'test runtime (out)' });
  const frame = (connId: number, b: Buffer): void => {
    framesOut.push(b.length);
    sock.write(Buffer.concat([encodeMuxHeader(connId, b.length), b]));
  };
  const duplex = new Duplex({
    read() {
      sock.resume();
    },
    write(chunk: Buffer, _enc, cb) {
      for (const f of decoder.push(chunk)) {
        if (f.connId !== PLUGIN_SERVICE_CONN) {
          sock.write(Buffer.concat([encodeMuxHeader(f.connId, f.payload.length), f.payload]));
          continue;
        }
        // Whole ttrpc messages: the peer's client writes one message per write.
        let at = 0;
        while (at < f.payload.length) {
          const length = f.payload.readUInt32BE(at);
          frame(f.connId, f.payload.subarray(at, at + HEADER_LENGTH));
          const body = f.payload.subarray(at + HEADER_LENGTH, at + HEADER_LENGTH + length);
          for (let b = 0; b < body.length; b += RUST_READ) frame(f.connId, body.subarray(b, b + RUST_READ));
          at += HEADER_LENGTH + length;
        }
      }
      cb();
    },
    destroy(err, cb) {
      sock.destroy();
      cb(err);
    },
  });
  sock.on('data', (d: Buffer) => {
    if (!duplex.push(d)) sock.pause();
  });
  sock.on('end', () => duplex.push(null));
  sock.on('close', () => duplex.destroy());
  return duplex;
}

/** A pod as iSulad shows it to plugins: its own name, and enough labels that the event is several kilobytes. */
function isuladPod(id: string): nri.IPodSandbox {
  const labels: Record<string, string> = {};
  for (let i = 0; i < 40; i++) labels[`nrictl.io/label-${i}`] = 'x'.repeat(60);
  return {
    id,
    name: 'k8s_POD_canary1-c3_nrictl-conformance-1_run-canary1-c3_1',
    uid: 'run-canary1-c3',
    namespace: 'nrictl-conformance-1',
    labels,
  };
}

describe('requests framed as iSulad frames them', () => {
  it('answers Configure, Synchronize and each RunPodSandbox that reaches it in pieces', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'nri-rust-'));
    const socketPath = path.join(dir, 'nri.sock');
    const framesOut: number[] = [];
    let session: PeerSession | undefined;
    const server = net.createServer((sock) => {
      session = new PeerSession(rustFramed(sock, framesOut));
    });
    await new Promise<void>((resolve) => server.listen(socketPath, resolve));
    const seen: string[] = [];
    const stub = new Stub(
      { runPodSandbox: (pod) => void seen.push(`${pod.id} ${pod.name}`) },
      { name: 'rust-framing', index: '00', socketPath },
    );
    try {
      const started = stub.start();
      while (!session) await new Promise((r) => setTimeout(r, 5));
      const { configured } = await session.handshake(V061_CONFIGURE, [{ pods: [isuladPod('sync-pod')] }]);
      await started;
      expect(configured.events & eventBit(Event.RUN_POD_SANDBOX)).not.toBe(0);
      // ttrpc-rust numbers its requests 1, 3, 5, ... and waits for each answer (one plugin, one call at a time).
      for (const id of ['pod-a', 'pod-b', 'pod-c']) {
        const answer = await session.call('StateChange', { event: Event.RUN_POD_SANDBOX, pod: isuladPod(id) }, 2000);
        expect(answer).toEqual({});
      }
      expect(seen).toEqual(['pod-a', 'pod-b', 'pod-c'].map((id) => `${id} ${isuladPod(id).name}`));
      // The test framed as iSulad does: header-only frames, and bodies cut at 1024 bytes.
      expect(framesOut).toContain(HEADER_LENGTH);
      expect(framesOut).toContain(RUST_READ);
      expect(Math.max(...framesOut)).toBeLessThanOrEqual(RUST_READ);
    } finally {
      await stub.stop();
      session?.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(dir, { recursive: true, force: true });
    }
  });
});
