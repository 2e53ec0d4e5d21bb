// ProbeSet: several transient plugins on one runtime, held as one. Against the real
// simulator and, for what the simulator cannot be made to do (reject one registration
// on cue, stall, drop one connection), the runtime-side test peer; real unix sockets in
// temporary directories either way.
import { existsSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Event, eventBit } from '../../src/api/index.js';
import { describeError, ExitCode } from '../../src/cli/index.js';
import { openEndpoint, ProbeSet, SessionError, type ProbeSpec } from '../../src/session/index.js';
import { MODERN_CONFIGURE, RuntimePeer, type PeerSession } from '../plugin/peer.js';
import { ofType, simPerTest, waitFor } from '../runtime/helpers.js';
import { BUSY_MACHINE_MARGIN_MS } from '../support/margin.js';

const perTest = simPerTest();
const CREATE = eventBit(Event.CREATE_CONTAINER);
const SCENARIO = { pods: [{ id: 'pod0', name: 'web', namespace: 'shop' }], containers: [] };

const peers: RuntimePeer[] = [];
afterEach(async () => {
  for (const p of peers.splice(0)) await p.close();
});

async function listen(behaviour: Parameters<typeof RuntimePeer.listen>[0] = {}): Promise<RuntimePeer> {
  const peer = await RuntimePeer.listen(behaviour);
  peers.push(peer);
  return peer;
}

/** Probes at these indexes that note which of them saw a CreateContainer, in order. */
function probesAt(indexes: string[], seen: string[] = []): ProbeSpec[] {
  return indexes.map((index) => ({
    index,
    events: CREATE,
    handlers: { createContainer: () => void seen.push(index) },
  }));
}

const probeNames = (names: string[]): string[] => names.filter((n) => n.endsWith('-nrictl-probe')).sort();

async function rejection(p: Promise<unknown>): Promise<SessionError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(SessionError);
  return err as SessionError;
}

describe('ProbeSet on the simulator', () => {
  it('registers N probes at their indexes, each sees the event in index order, and close() takes them all off', async () => {
    const sim = await perTest.start(SCENARIO, { requestTimeoutMs: 1500 });
    const seen: string[] = [];
    const set = await ProbeSet.open({
      target: { socketPath: sim.socketPath },
      name: 'nrictl-probe',
      probes: probesAt(['40', '10', '30', '20'], seen),
    });
    // The simulator puts a plugin in its invocation list once it has read the Synchronize answer.
    await waitFor(
      'every probe in the invocation list',
      () => probeNames(sim.runtime.plugins().map((p) => p.name)).length === 4,
    );
    expect(probeNames(sim.runtime.plugins().map((p) => p.name))).toEqual([
      '10-nrictl-probe',
      '20-nrictl-probe',
      '30-nrictl-probe',
      '40-nrictl-probe',
    ]);
    expect(set.probes.map((p) => [p.pluginName, p.events])).toEqual([
      ['40-nrictl-probe', CREATE],
      ['10-nrictl-probe', CREATE],
      ['30-nrictl-probe', CREATE],
      ['20-nrictl-probe', CREATE],
    ]);
    expect(set.runtime?.vintage).toMatch(/^NRI v0\.1\d/);
    expect(set.configuredRequestTimeoutMs).toBe(1500);
    expect(set.label).toBe(sim.socketPath);

    expect((await sim.runtime.createContainer('pod0', { id: 'ctr0', name: 'app' })).ok).toBe(true);
    expect(seen).toEqual(['10', '20', '30', '40']);

    let ended: unknown = 'not yet';
    set.once('end', (err?: SessionError) => (ended = err));
    await set.close();
    await set.close(); // twice is harmless
    expect(ended).toBeUndefined();
    await waitFor(
      'the probes to leave the simulator',
      () => probeNames(sim.runtime.plugins().map((p) => p.name)).length === 0,
    );
  });

  it('--sim: starts the simulator for the probes and stops it on close()', async () => {
    const set = await ProbeSet.open({
      target: { socketPath: '/nonexistent/nri.sock', sim: 'examples/demo.yaml' },
      name: 'nrictl-probe',
      probes: probesAt(['10', '90']),
    });
    expect(set.label).toBe('the embedded simulator (examples/demo.yaml)');
    await waitFor(
      'both probes in the invocation list',
      () => probeNames(set.sim!.runtime.plugins().map((p) => p.name)).length === 2,
    );
    expect(probeNames(set.sim!.runtime.plugins().map((p) => p.name))).toEqual(['10-nrictl-probe', '90-nrictl-probe']);
    const socket = set.socketPath;
    expect(existsSync(socket)).toBe(true);
    await set.close();
    expect(existsSync(socket)).toBe(false);
  });

  it('an endpoint the caller opened stays open after close(): the caller stops its simulator', async () => {
    const endpoint = await openEndpoint({ socketPath: '/nonexistent/nri.sock', sim: 'examples/demo.yaml' });
    try {
      const set = await ProbeSet.open({ target: endpoint, name: 'nrictl-probe', probes: probesAt(['10', '90']) });
      await set.close();
      expect(existsSync(endpoint.socketPath)).toBe(true);
      await waitFor(
        'the probes to leave',
        () => probeNames(endpoint.sim!.runtime.plugins().map((p) => p.name)).length === 0,
      );
    } finally {
      await endpoint.close();
    }
    expect(existsSync(endpoint.socketPath)).toBe(false);
  });

  it('when the k-th registration fails, the probes already registered leave again', async () => {
    // A runtime of NRI v0.9 knows no validation: a probe that asks for nothing else is refused at Configure.
    const sim = await perTest.start(SCENARIO, { nriVersion: 'v0.9.0' });
    const probes = probesAt(['10', '20', '30', '40']);
    probes[2] = {
      index: '30',
      events: eventBit(Event.VALIDATE_CONTAINER_ADJUSTMENT),
      handlers: { validateContainerAdjustment: () => undefined },
    };
    const err = await rejection(
      ProbeSet.open({ target: { socketPath: sim.socketPath }, name: 'nrictl-probe', probes }),
    );
    expect(err.code).toBe('no-events');
    expect(err.message).toMatch(
      /^nrictl-sim \S+ \(NRI v0\.7 to v0\.11\) at \S+nri\.sock cannot deliver any of the events asked for/,
    );
    expect(describeError(err).exitCode).toBe(ExitCode.REGISTRATION);
    // Some probes had registered before the refusal. None of them is left: a container
    // created now (under the simulator's lock, so after any synchronization still queued)
    // reaches no probe.
    expect(ofType(sim.events, 'registered').filter((e) => e.plugin !== '30-nrictl-probe').length).toBeGreaterThan(0);
    expect((await sim.runtime.createContainer('pod0', { id: 'ctr0', name: 'app' })).ok).toBe(true);
    expect(ofType(sim.events, 'invoke').filter((e) => e.plugin.endsWith('-nrictl-probe'))).toEqual([]);
    expect(probeNames(sim.runtime.plugins().map((p) => p.name))).toEqual([]);
  });

  it('Ctrl-C once the probes are live takes them all off and ends the set without an error', async () => {
    const sim = await perTest.start(SCENARIO);
    const ac = new AbortController();
    const set = await ProbeSet.open({
      target: { socketPath: sim.socketPath },
      name: 'nrictl-probe',
      probes: probesAt(['10', '20', '30']),
      signal: ac.signal,
    });
    const ended = new Promise((resolve) => set.once('end', resolve));
    ac.abort('SIGINT');
    expect(await ended).toBeUndefined();
    // Stopped by the user, the probes drop their connections at once (no clean end that a
    // runtime which stopped reading could delay); the runtime sees them go when it next reads.
    await vi.waitFor(() => expect(probeNames(sim.runtime.plugins().map((p) => p.name))).toEqual([]), {
      timeout: 2000,
    });
  });
});

describe('ProbeSet against a runtime that misbehaves', () => {
  /** Every session the peer accepts, answered by `drive` as it comes. */
  function serve(peer: RuntimePeer, n: number, drive: (s: PeerSession) => Promise<unknown>): Promise<unknown[]> {
    return Promise.all(Array.from({ length: n }, () => peer.next().then(drive)));
  }

  it('a registration the runtime rejects after the others were synchronized closes the others', async () => {
    let othersSynced!: () => void;
    const synced = new Promise<void>((resolve) => (othersSynced = resolve));
    const peer = await listen({
      register: async (req) => {
        if (req.pluginIdx !== '30') return;
        await synced;
        throw new Error('plugin index 30 is reserved here');
      },
    });
    const sessions: PeerSession[] = [];
    const handshakes = Array.from({ length: 3 }, () =>
      peer.next().then(async (s) => {
        const req = await s.registered;
        if (req.pluginIdx === '30') return;
        sessions.push(s);
        await s.handshake(MODERN_CONFIGURE);
      }),
    );
    void Promise.all(handshakes).then(othersSynced);
    const err = await rejection(
      ProbeSet.open({
        target: { socketPath: peer.socketPath },
        name: 'nrictl-probe',
        probes: probesAt(['10', '30', '50']),
      }),
    );
    expect(err.code).toBe('registration-rejected');
    expect(err.message).toContain('plugin index 30 is reserved here');
    expect(describeError(err).exitCode).toBe(ExitCode.REGISTRATION);
    expect(sessions).toHaveLength(2);
    await waitFor('the synchronized probes to hang up', () => sessions.every((s) => s.mux.closed));
  });

  it('a runtime that stalls the registration ends within --timeout with exit 5, and leaves no connection open', async () => {
    const peer = await listen();
    const sessions: PeerSession[] = [];
    // Registered and configured, then silence: no Synchronize ever comes.
    void serve(peer, 3, async (s) => {
      sessions.push(s);
      await s.registered;
      await s.call('Configure', MODERN_CONFIGURE);
    });
    const began = Date.now();
    const err = await rejection(
      ProbeSet.open({
        target: { socketPath: peer.socketPath },
        name: 'nrictl-probe',
        probes: probesAt(['10', '20', '30']),
        timeoutMs: 500,
      }),
    );
    const took = Date.now() - began;
    expect(err.code).toBe('registration-timeout');
    expect(describeError(err).exitCode).toBe(ExitCode.REGISTRATION);
    expect(took).toBeGreaterThanOrEqual(450);
    // Against the SDK's 5 s default, which a deadline not passed on would give.
    expect(took).toBeLessThan(5000);
    expect(sessions).toHaveLength(3);
    await waitFor('every probe to hang up', () => sessions.every((s) => s.mux.closed));
  });

  it('Ctrl-C during a stalled registration ends at once as cancelled and closes every connection', async () => {
    const peer = await listen({ register: () => new Promise<void>(() => {}) });
    const sessions: PeerSession[] = [];
    const accepted = serve(peer, 3, async (s) => {
      sessions.push(s);
      await s.registered;
    });
    const ac = new AbortController();
    const opening = ProbeSet.open({
      target: { socketPath: peer.socketPath },
      name: 'nrictl-probe',
      probes: probesAt(['10', '20', '30']),
      timeoutMs: 30_000,
      signal: ac.signal,
    });
    await accepted;
    const began = Date.now();
    ac.abort('SIGINT');
    const err = await rejection(opening);
    // Against the 30 s registration timeout it would otherwise wait out.
    expect(Date.now() - began).toBeLessThan(BUSY_MACHINE_MARGIN_MS);
    expect(err.code).toBe('cancelled');
    expect(describeError(err).exitCode).toBe(ExitCode.FAILED);
    await waitFor('every probe to hang up', () => sessions.every((s) => s.mux.closed));
  });

  it('a probe the runtime drops later ends the set with runtime-gone, and the others leave too', async () => {
    const peer = await listen();
    const driven = serve(peer, 3, async (s) => {
      await s.handshake(MODERN_CONFIGURE);
      return s;
    });
    const set = await ProbeSet.open({
      target: { socketPath: peer.socketPath },
      name: 'nrictl-probe',
      probes: probesAt(['10', '20', '30']),
    });
    const sessions = (await driven) as PeerSession[];
    const ended = new Promise<SessionError | undefined>((resolve) => set.once('end', resolve));
    sessions[1].close();
    const err = await ended;
    expect(err).toBeInstanceOf(SessionError);
    expect(err!.code).toBe('runtime-gone');
    expect(describeError(err).exitCode).toBe(ExitCode.RUNTIME_GONE);
    await waitFor('the other probes to hang up', () => sessions.every((s) => s.mux.closed));
  });

  it('refuses two probes on one index, and a name the runtime would refuse, before dialling', async () => {
    const peer = await listen();
    const twice = await rejection(
      ProbeSet.open({ target: { socketPath: peer.socketPath }, name: 'nrictl-probe', probes: probesAt(['10', '10']) }),
    );
    expect(twice.code).toBe('bad-identity');
    const badName = await rejection(
      ProbeSet.open({ target: { socketPath: peer.socketPath }, name: 'no/slash', probes: probesAt(['10']) }),
    );
    expect(badName.code).toBe('bad-identity');
    expect(peer.sessions).toHaveLength(0);
  });
});
