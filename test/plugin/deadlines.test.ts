// Every call the SDK makes has a deadline: by default the runtime's request timeout from
// Configure (Go's stub RequestTimeout()), so a runtime that accepts a plugin and then goes
// silent ends in a typed error, never a hang.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { nri } from '../../src/api/index.js';
import { DEFAULT_REQUEST_TIMEOUT_MS, PluginError, Stub } from '../../src/plugin/index.js';
import { listenGoRuntime, type GoRuntimeOptions } from '../go-peer/go-nri.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});

/** An SDK plugin registered with a Go-like runtime that sent `requestTimeout` ms in Configure. */
async function registered(requestTimeout: number, opts: GoRuntimeOptions = {}): Promise<Stub> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'deadline-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  const socketPath = path.join(dir, 'nri.sock');
  const listening = await listenGoRuntime(socketPath, opts);
  cleanups.push(() => listening.close());
  const stub = new Stub({ createContainer: () => undefined }, { name: 'deadline', index: '50', socketPath });
  cleanups.push(() => stub.stop());
  const started = stub.start();
  const rt = await listening.accepted;
  await rt.registration;
  await rt.call(
    'Configure',
    nri.ConfigureRequest.encode({
      runtimeName: 'go',
      runtimeVersion: 'v0.8.0',
      requestTimeout,
      registrationTimeout: 5000,
    }).finish(),
    (b) => b,
  );
  await rt.call('Synchronize', nri.SynchronizeRequest.encode({}).finish(), (b) => b);
  await started;
  return stub;
}

describe('SDK deadlines', () => {
  it('keeps the request timeout the runtime sent in Configure, and the 2 s default when it sent none', async () => {
    expect((await registered(750)).requestTimeoutMs).toBe(750);
    expect((await registered(0)).requestTimeoutMs).toBe(DEFAULT_REQUEST_TIMEOUT_MS);
  });

  it('ends UpdateContainers to a runtime that never answers with a timeout error after the request timeout', async () => {
    const stub = await registered(400, { stallUpdates: true });
    const began = Date.now();
    const err = await stub.updateContainers([{ containerId: 'c1' }]).catch((e: unknown) => e);
    const took = Date.now() - began;
    expect(err).toBeInstanceOf(PluginError);
    expect(err).toMatchObject({ step: 'update', reason: 'timeout' });
    expect((err as Error).message).toMatch(/got no answer from the runtime at .* within 400ms/);
    // Not before the request timeout. How long after is the machine's business: the message
    // above says which bound ended it (400ms, not the 2 s default).
    expect(took).toBeGreaterThanOrEqual(390);
  });

  it('takes a deadline per call', async () => {
    const stub = await registered(5000, { stallUpdates: true });
    const err = await stub.updateContainers([{ containerId: 'c1' }], [], { timeoutMs: 150 }).catch((e: unknown) => e);
    expect(err).toMatchObject({ reason: 'timeout' });
  });
});
