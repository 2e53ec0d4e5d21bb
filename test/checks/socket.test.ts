import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkSocket } from '../../src/checks/index.js';
import { AS_ROOT, codesOf, listenSocket, mkfifo, NOT_ROOT_HOW, notRootOwned, tempDir } from './helpers.js';

let t: ReturnType<typeof tempDir>;
let server: Server | undefined;
let dir: string;
beforeEach(() => {
  t = tempDir('nrisk-');
  dir = join(t.dir, 'nri');
  mkdirSync(dir, { mode: 0o700 });
});
afterEach(() => {
  server?.close();
  server = undefined;
  t.cleanup();
});

describe('checkSocket', () => {
  it('accepts a 0600 socket in a 0700 directory', async () => {
    const path = join(dir, 'nri.sock');
    server = await listenSocket(path);
    chmodSync(path, 0o600);
    expect(checkSocket(path, { checkOwner: AS_ROOT })).toEqual([]);
  });

  it('reports a missing socket and a path that is not a socket', () => {
    expect(codesOf(checkSocket(join(dir, 'none.sock')))).toEqual(['error:socket-missing']);
    writeFileSync(join(dir, 'file.sock'), '');
    mkfifo(join(dir, 'fifo.sock'));
    expect(codesOf(checkSocket(join(dir, 'file.sock')))).toEqual(['error:not-a-socket']);
    expect(codesOf(checkSocket(join(dir, 'fifo.sock')))).toEqual(['error:not-a-socket']);
  });

  it('reports modes looser than 0600 and a directory others can write', async () => {
    const path = join(dir, 'nri.sock');
    server = await listenSocket(path);
    chmodSync(path, 0o666);
    expect(codesOf(checkSocket(path, { checkOwner: false }))).toEqual(['error:socket-writable-by-others']);
    chmodSync(path, 0o640);
    expect(codesOf(checkSocket(path, { checkOwner: false }))).toEqual(['warning:socket-too-permissive']);
    chmodSync(path, 0o600);
    chmodSync(dir, 0o777);
    expect(codesOf(checkSocket(path, { checkOwner: false }))).toEqual(['error:socket-dir-writable-by-others']);
  });

  it(`reports a socket and a directory not owned by root (${NOT_ROOT_HOW})`, async () => {
    const path = join(dir, 'nri.sock');
    server = await listenSocket(path);
    chmodSync(path, 0o600);
    notRootOwned(path, dir);
    expect(codesOf(checkSocket(path))).toEqual(['error:socket-dir-not-root-owned', 'error:socket-not-root-owned']);
    expect(checkSocket(path, { checkOwner: false })).toEqual([]);
  });
});
