// Why a dial failed, as the plugin SDK and the CRI client both read it: real dials at real
// paths in a temporary directory where the kernel can be made to give the error; built
// errors only for the codes a test cannot be given here (EACCES and EPERM, which the
// callers' own tests meet through a mode-bound child, ENOTSOCK, and an error of any other kind).
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialFailure } from '../../src/api/socket-path.js';
import { listenSocket, mkfifo } from '../checks/helpers.js';

let dir: string;
let server: net.Server;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'nridf-'));
  await writeFile(path.join(dir, 'file'), 'not a socket');
  await mkdir(path.join(dir, 'sub'));
  mkfifo(path.join(dir, 'fifo'));
  server = await listenSocket(path.join(dir, 'live.sock'));
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  await rm(dir, { recursive: true, force: true });
});

/** The error a real dial at p fails with. */
function dialError(p: string): Promise<NodeJS.ErrnoException> {
  return new Promise((resolve, reject) => {
    const sock = net.connect(p);
    sock.once('error', resolve);
    sock.once('connect', () => {
      sock.destroy();
      reject(new Error(`${p} accepted the connection`));
    });
  });
}

function errno(code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`connect ${code}`), { code });
}

describe('dialFailure', () => {
  it.each([
    ['missing', { code: 'ENOENT', reason: 'no-socket' }],
    ['file/under-a-file', { code: 'ENOTDIR', reason: 'no-socket' }],
    ['file', { code: 'ECONNREFUSED', reason: 'not-a-socket', holds: 'a regular file' }],
    ['sub', { code: 'ECONNREFUSED', reason: 'not-a-socket', holds: 'a directory' }],
    ['fifo', { code: 'ECONNREFUSED', reason: 'not-a-socket', holds: 'a fifo' }],
  ])('reads a real dial at %s', async (name, { code, ...expected }) => {
    const p = path.join(dir, name);
    const err = await dialError(p);
    expect(err.code).toBe(code);
    expect(await dialFailure(p, err)).toEqual(expected);
  });

  it('reads a stale socket (bound, nobody listening) as refused', async () => {
    // A process that listened and exited without closing leaves its socket file behind.
    const p = path.join(dir, 'stale.sock');
    const listen = `require('net').createServer().listen(${JSON.stringify(p)}, () => process.exit(0))`;
    expect(spawnSync(process.execPath, ['-e', listen]).status).toBe(0);
    const err = await dialError(p);
    expect(err.code).toBe('ECONNREFUSED');
    expect(await dialFailure(p, err)).toEqual({ reason: 'refused' });
  });

  it.each([
    ['EACCES', 'live.sock', { reason: 'permission-denied' }],
    ['EPERM', 'live.sock', { reason: 'permission-denied' }],
    // ENOTSOCK and ECONNREFUSED look at the path alike: a socket there, or nothing, is refused.
    ['ENOTSOCK', 'file', { reason: 'not-a-socket', holds: 'a regular file' }],
    ['ENOTSOCK', 'live.sock', { reason: 'refused' }],
    ['ECONNREFUSED', 'gone.sock', { reason: 'refused' }],
    ['EAGAIN', 'live.sock', { reason: 'other' }],
  ])('reads %s at %s', async (code, name, expected) => {
    expect(await dialFailure(path.join(dir, name), errno(code))).toEqual(expected);
  });
});
