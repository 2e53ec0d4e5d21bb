// The plugin's clock of a request starts when the request reaches its handler, the
// runtime's when it sent it. On a busy machine the gap is unbounded: the runtime can give
// up and close the connection while, by the plugin's clock, its handler has run far less
// than the request timeout. The SDK must still name the handler when the handler goes on
// to run past the timeout, and must not when it answers well within it. These tests make
// that order of events happen on purpose, with no clock to win a race: the runtime closes
// the connection the moment the handler has begun.
import { afterEach, describe, expect, it } from 'vitest';
import { PluginError, Stub } from '../../src/plugin/index.js';
import { RuntimePeer } from './peer.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});

/** A handler that tells when it began and answers only when released. */
function gated(): { began: Promise<void>; release(): void; handler: () => Promise<[]> } {
  let began!: () => void;
  let release!: () => void;
  const beganP = new Promise<void>((r) => (began = r));
  const released = new Promise<void>((r) => (release = r));
  return {
    began: beganP,
    release,
    handler: async () => {
      began();
      await released;
      return [];
    },
  };
}

/**
 * Registers a plugin whose synchronize handler is `handler`, sends Configure with the
 * request timeout, then Synchronize, and closes the connection as soon as the handler
 * has begun, as a runtime whose own clock of the request ran out does.
 */
async function closedAtOnce(requestTimeout: number, sync: ReturnType<typeof gated>): Promise<PluginError> {
  const peer = await RuntimePeer.listen();
  cleanups.push(() => peer.close());
  const stub = new Stub(
    { synchronize: sync.handler, createContainer: () => undefined },
    { name: 'slow', index: '50', socketPath: peer.socketPath },
  );
  cleanups.push(() => stub.stop());
  const started = stub.start().catch((e: unknown) => e);
  const session = await peer.next();
  await session.registered;
  await session.call('Configure', {
    runtimeName: 'containerd',
    runtimeVersion: 'v2.3.4',
    requestTimeout,
    registrationTimeout: 60_000,
    NRIVersion: 'v0.12.0',
  });
  void session.call('Synchronize', {}, 60_000).catch(() => undefined);
  await sync.began;
  session.close();
  return (await started) as PluginError;
}

describe('a runtime that closes the connection before the plugin’s clock reached the request timeout', () => {
  it('names the handler that then runs past the timeout: the runtime dropped it for that', async () => {
    const sync = gated();
    cleanups.push(() => sync.release());
    const err = await closedAtOnce(300, sync);
    sync.release();
    expect(err).toBeInstanceOf(PluginError);
    expect(err).toMatchObject({ step: 'synchronize', reason: 'closed' });
    expect(err.late).toMatchObject({ handler: 'synchronize', running: true, requestTimeoutMs: 300 });
    expect(err.late!.ms).toBeGreaterThanOrEqual(285);
    expect(err.message).toMatch(
      /the synchronize handler had run \d\.\d\d s without answering, and the runtime's request timeout is 300ms: .*plugin_request_timeout in containerd's config\.toml/,
    );
  });

  it('claims nothing when the handler answers well within the timeout after the close', async () => {
    const sync = gated();
    // The handler answers as soon as the plugin has seen the close (the next turns), far
    // within the 60 s timeout (a bound no machine comes near): the runtime closed for another reason.
    const err = await closedAtOnce(60_000, {
      ...sync,
      began: sync.began.then(() => void setImmediate(() => sync.release())),
    });
    expect(err).toBeInstanceOf(PluginError);
    expect(err.late).toBeUndefined();
    expect(err.message).not.toMatch(/handler|timeout is/);
  });
});
