// A runtime socket that sends bytes outside the protocol: the SDK must say that it, not
// the runtime, ended the connection, and why.
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PluginError, Stub } from '../../src/plugin/index.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});

async function peerSending(bytes: Buffer): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'malformed-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  const socketPath = path.join(dir, 'nri.sock');
  const server = net.createServer((sock) => {
    sock.on('error', () => undefined);
    sock.write(bytes);
  });
  await new Promise<void>((r) => server.listen(socketPath, r));
  cleanups.push(() => server.close());
  return socketPath;
}

function muxFrame(connId: number, payload: Buffer): Buffer {
  const h = Buffer.alloc(8);
  h.writeUInt32BE(connId, 0);
  h.writeUInt32BE(payload.length, 4);
  return Buffer.concat([h, payload]);
}

describe('a runtime that sends garbage', () => {
  it('fails start() saying nrictl rejected a mux frame larger than any NRI peer sends', async () => {
    const socketPath = await peerSending(Buffer.from([0, 0, 0, 1, 0xff, 0xff, 0xff, 0xff]));
    const err = await new Stub(
      { createContainer: () => undefined },
      { name: 'g', index: '50', socketPath, registrationTimeoutMs: 3000 },
    )
      .start()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PluginError);
    expect(err).toMatchObject({ reason: 'protocol', step: 'register' });
    expect((err as Error).message).toMatch(
      /^nrictl rejected a malformed message from .*nri\.sock during register and closed the connection: .*announces 4294967295 bytes/,
    );
    expect((err as Error).message).not.toMatch(/runtime's log|dropped/);
  });

  it('fails start() the same way for a ttrpc message of an unknown type on the Runtime service connection', async () => {
    const ttrpc = Buffer.alloc(10);
    ttrpc.writeUInt32BE(0, 0);
    ttrpc.writeUInt32BE(1, 4);
    ttrpc[8] = 9; // no such message type
    const socketPath = await peerSending(muxFrame(2, ttrpc));
    const err = await new Stub(
      { createContainer: () => undefined },
      { name: 'g', index: '50', socketPath, registrationTimeoutMs: 3000 },
    )
      .start()
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ reason: 'protocol' });
    expect((err as Error).message).toMatch(/nrictl rejected a malformed message .*unknown ttrpc message type 9/);
  });
});
