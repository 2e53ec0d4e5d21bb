// nrictl trace reaches the runtime through src/session, as every connecting command does:
// the same errors and exit codes, --timeout on the registration of its probes, Ctrl-C
// while they register, and a probe dropped later. The built CLI against the
// runtime-side test peer on a real socket in a temporary directory.
import { chmodSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { MODERN_CONFIGURE, RuntimePeer, type PeerSession } from '../plugin/peer.js';
import { runCli, startCli, tempDir } from './nri-cli.js';
import { BUSY_MACHINE_MARGIN_MS } from '../support/margin.js';

let t: ReturnType<typeof tempDir>;
beforeAll(() => {
  t = tempDir('nrtc-');
});
afterAll(() => t.cleanup());

const peers: RuntimePeer[] = [];
afterEach(async () => {
  for (const p of peers.splice(0)) await p.close();
});

/** A peer whose socket is 0600, as a runtime's should be: no permission warning in the way. */
async function listen(behaviour: Parameters<typeof RuntimePeer.listen>[0] = {}): Promise<RuntimePeer> {
  const peer = await RuntimePeer.listen(behaviour);
  chmodSync(peer.socketPath, 0o600);
  peers.push(peer);
  return peer;
}

/** Plugins at 30 (from --index, none in the empty plugin directory): probes around it. */
const traceArgs = (socketPath: string): string[] => [
  'trace',
  '--socket',
  socketPath,
  '--plugin-dir',
  t.dir,
  '--index',
  '30',
  '-o',
  'json',
];

/** Takes each connection the peer accepts and hands it to `drive`. */
function serveAll(peer: RuntimePeer, drive: (s: PeerSession) => Promise<unknown>): PeerSession[] {
  const taken: PeerSession[] = [];
  const loop = (): void =>
    void peer.next().then((s) => {
      taken.push(s);
      void drive(s).catch(() => {});
      loop();
    });
  loop();
  return taken;
}

describe('nrictl trace through the session layer', () => {
  it("no socket: exit 4 with the session's one-line error, not an internal error", async () => {
    const r = await runCli(['trace', '--socket', path.join(t.dir, 'nothing.sock'), '--plugin-dir', t.dir]);
    expect(r.code).toBe(4);
    expect(r.stderr.trim()).toBe(
      `Error: no NRI socket at ${path.join(t.dir, 'nothing.sock')}: is NRI enabled in the runtime? To try nrictl without a runtime: --sim demo`,
    );
  });

  it('a runtime that configures the probes and never synchronizes them: exit 5 within --timeout, every connection closed', async () => {
    const peer = await listen();
    let configuredAt = 0;
    const sessions = serveAll(peer, async (s) => {
      await s.registered;
      await s.call('Configure', MODERN_CONFIGURE);
      configuredAt ||= Date.now();
    });
    const r = await runCli([...traceArgs(peer.socketPath), '--timeout', '1s']);
    // Which deadline ended it, the message says (1s, not the 2 s default); the clock only that it ended.
    expect(Date.now() - configuredAt).toBeLessThan(1000 + BUSY_MACHINE_MARGIN_MS);
    expect(r.code).toBe(5);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^Error: .*not completed within 1s: no final Synchronize request/);
    expect(sessions.length).toBeGreaterThanOrEqual(3);
    // The command closed them as it ended (it runs in this process, which goes on): the
    // runtime's side learns of each close on a later turn of the event loop.
    await vi.waitFor(() => expect(sessions.every((s) => s.mux.closed)).toBe(true));
  });

  it('Ctrl-C while the probes register: every connection closed, the (empty) summary, exit 0', async () => {
    const peer = await listen({ register: () => new Promise<void>(() => {}) });
    const sessions = serveAll(peer, (s) => s.registered);
    const run = startCli(traceArgs(peer.socketPath));
    await expect.poll(() => sessions.length, { timeout: 5000 }).toBeGreaterThanOrEqual(3);
    run.child.kill('SIGINT');
    const { code } = await run.exited;
    expect(code).toBe(0);
    const summary = JSON.parse(run.stdout().trim()) as { type: string; events: { traced: number } };
    expect(summary).toMatchObject({ type: 'summary', events: { traced: 0 } });
    await expect.poll(() => sessions.every((s) => s.mux.closed), { timeout: 2000 }).toBe(true);
  });

  it('a probe the runtime drops: the summary, then exit 6, and the other probes leave', async () => {
    const peer = await listen();
    const sessions = serveAll(peer, (s) => s.handshake(MODERN_CONFIGURE));
    const run = startCli(traceArgs(peer.socketPath));
    await run.waitForStderr('Ctrl-C to stop');
    sessions[1].close();
    const { code } = await run.exited;
    expect(code).toBe(6);
    expect(run.stderr()).toMatch(
      /Error: .*: the runtime went away, restarted or dropped a probe; start nrictl trace again once it is back\n$/,
    );
    expect(JSON.parse(run.stdout().trim().split('\n').at(-1)!)).toMatchObject({ type: 'summary' });
    expect(sessions.every((s) => s.mux.closed)).toBe(true);
  });
});
