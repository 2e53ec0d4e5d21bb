// Hostile runtimes on a real unix socket in a temporary directory, for the deadline tests
// of issue 20 (item 5) and for measuring them:
// - 'stops-reading': registers nrictl, configures and synchronizes it, then keeps sending
//   requests but never reads another byte, so that nrictl's answers (and its own calls)
//   pile up unsent;
// - 'unregistered-flood': never answers RegisterPlugin, and sends StateChange events
//   meanwhile.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Event, PLUGIN_SERVICE, nri } from '../../src/api/index.js';
import { encodeMuxHeader, PLUGIN_SERVICE_CONN } from '../../src/mux/index.js';
import { encodeFrame, encodeRequest, MessageType } from '../../src/ttrpc/index.js';
import { MODERN_CONFIGURE, PeerSession } from '../plugin/peer.js';

export const POD: nri.IPodSandbox = { id: 'p1', name: 'web-0', namespace: 'shop', uid: 'u1' };
export const CTR: nri.IContainer = { id: 'c1aaaaaaaaaa', podSandboxId: 'p1', name: 'web', state: 3 };

export type Hostility = 'stops-reading' | 'unregistered-flood';

export interface StalledRuntime {
  socketPath: string;
  /** Resolves once the runtime stopped reading (stops-reading) or sent its flood (unregistered-flood). */
  stalled: Promise<void>;
  /** Requests sent to nrictl so far. */
  sent(): number;
  close(): Promise<void>;
}

const never = (): Promise<void> => new Promise(() => {});

export async function stalledRuntime(how: Hostility, opts: { flood?: number } = {}): Promise<StalledRuntime> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'nristall-'));
  const socketPath = path.join(dir, 'nri.sock');
  const sockets = new Set<net.Socket>();
  let sent = 0;
  let stop = false;
  let onStalled!: () => void;
  const stalled = new Promise<void>((resolve) => (onStalled = resolve));
  const event = nri.StateChangeEvent.encode({ event: Event.RUN_POD_SANDBOX, pod: POD }).finish();

  const server = net.createServer((sock) => {
    sockets.add(sock);
    sock.on('error', () => {});
    sock.on('close', () => sockets.delete(sock));
    if (how === 'unregistered-flood') {
      const s = new PeerSession(sock, { register: never });
      void s.registered.then(() => {
        for (let i = 0; i < (opts.flood ?? 1000); i++) {
          sent++;
          void s.client
            .call('nri.pkg.api.v1alpha1.Plugin', 'StateChange', event, { timeoutMs: Infinity })
            .catch(() => {});
        }
        onStalled();
      });
      return;
    }
    const s = new PeerSession(sock);
    const handshake = async (): Promise<void> => {
      await s.registered;
      await s.call('Configure', MODERN_CONFIGURE);
      // Synchronize is sent, and from then on nothing more is read: not the answer to it,
      // not nrictl's calls (its UpdateContainers comes right after its answer).
      void s.call('Synchronize', { pods: [POD], containers: [CTR] }, 600_000).catch(() => {});
      sock.pause();
      sock.resume = () => sock;
    };
    void handshake().then(
      () => {
        onStalled();
        // Raw request frames on the Plugin service connection, past the peer's own client
        // (which would stop at its limit of calls in flight): a runtime that keeps sending.
        let streamId = 1_000_001; // odd, and clear of the ids the handshake used
        const flood = (): void => {
          if (stop || sock.destroyed) return;
          // Keep the kernel's buffers full in both directions, without growing this process's.
          if (sock.writableLength < 1 << 20) {
            for (let i = 0; i < 200; i++) {
              sent++;
              const req = encodeRequest({
                service: PLUGIN_SERVICE,
                method: 'StateChange',
                payload: event,
                timeoutNano: 0,
                metadata: [],
              });
              const frame = encodeFrame(streamId, MessageType.Request, req);
              streamId += 2;
              sock.write(Buffer.concat([encodeMuxHeader(PLUGIN_SERVICE_CONN, frame.length), frame]));
            }
          }
          setTimeout(flood, 5);
        };
        // After the Synchronize request has left (the peer's client sends it on the next tick).
        setTimeout(flood, 20);
      },
      () => {},
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, resolve);
  });
  chmodSync(socketPath, 0o600); // as a runtime's: no permission warning in the way
  return {
    socketPath,
    stalled,
    sent: () => sent,
    close: async () => {
      stop = true;
      for (const sock of sockets) sock.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
