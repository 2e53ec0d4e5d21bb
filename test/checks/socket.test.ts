import { chmodSync, chownSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkSocket, socketExposureFindings } from '../../src/checks/index.js';
import { OTHERS_CANNOT_REACH, reachableTempDir, UNREACHABLE_NOTE } from '../support/reachable.js';
import { AS_ROOT, codesOf, listenSocket, mkfifo, NOT_ROOT_HOW, notRootOwned } from './helpers.js';

// Real sockets with real modes in temporary directories. The temporary directory itself
// (mkdtemp: 0700) is opened to 0755 where a test needs others to be able to walk past it;
// above it is a place others can reach (test/support/reachable.ts: TMPDIR, or /tmp when
// TMPDIR is private), and the tests that need that are skipped, saying so, without one.
let t: ReturnType<typeof reachableTempDir>;
const reach = OTHERS_CANNOT_REACH !== undefined;
const servers: Server[] = [];
let dir: string;
beforeEach(() => {
  t = reachableTempDir('nrisk-');
  chmodSync(t.dir, 0o755);
  dir = join(t.dir, 'nri');
  mkdirSync(dir, { mode: 0o700 });
  chmodSync(dir, 0o700);
});
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
  t.cleanup();
});

async function socketAt(path: string, mode: number): Promise<string> {
  servers.push(await listenSocket(path));
  chmodSync(path, mode);
  return path;
}

// Owner checks as root; otherwise the files are ours and not root's.
const check = (path: string) => checkSocket(path, { checkOwner: AS_ROOT });

describe('checkSocket: a path no client can connect at', () => {
  it('is socket-path-too-long over 107 bytes, whether or not anything is there', () => {
    const long = join(dir, 'x'.repeat(120), 'nri.sock');
    const findings = check(long);
    expect(codesOf(findings)).toEqual(['error:socket-path-too-long']);
    expect(findings[0].message).toContain('a unix socket path can have at most 107 bytes');
    // At the limit, wherever the temporary directory is: 107 bytes in all.
    const limit = join(dir, 'x'.repeat(Math.max(1, 107 - Buffer.byteLength(join(dir, 'nri.sock')) - 1)), 'nri.sock');
    expect(Buffer.byteLength(limit)).toBeLessThanOrEqual(107);
    expect(codesOf(check(limit))).toEqual(['error:socket-missing']);
  });
});

describe('checkSocket: who can connect', () => {
  it("accepts the runtime's own 0755 socket in a 0700 or a 0755 directory: only root can connect", async () => {
    const path = await socketAt(join(dir, 'nri.sock'), 0o755);
    expect(check(path)).toEqual([]);
    chmodSync(dir, 0o755);
    expect(check(path)).toEqual([]);
    expect(socketExposureFindings(path)).toEqual([]);
  });

  it('accepts a 0600 socket in a 0700 directory', async () => {
    const path = await socketAt(join(dir, 'nri.sock'), 0o600);
    expect(check(path)).toEqual([]);
  });

  it.skipIf(reach)(`reports a socket others can write and reach${UNREACHABLE_NOTE}`, async () => {
    const path = await socketAt(join(dir, 'nri.sock'), 0o666);
    chmodSync(dir, 0o755);
    const found = check(path);
    expect(codesOf(found)).toEqual(['error:socket-writable-by-others']);
    expect(found[0].message).toMatch(/^mode 0666: others .*can reach and connect/);
    expect(found[0].fix).toBe(`chmod 0600 ${path}`);
    expect(codesOf(socketExposureFindings(path))).toEqual(['error:socket-writable-by-others']);
  });

  it('only notes a writable socket that nobody but root can reach (0700 directory, or one above it)', async () => {
    const path = await socketAt(join(dir, 'nri.sock'), 0o666);
    expect(codesOf(check(path))).toEqual(['info:socket-mode-loose']);
    expect(check(path)[0].message).toContain(`${dir} is 0700`);
    expect(socketExposureFindings(path)).toEqual([]);
    chmodSync(dir, 0o755);
    chmodSync(t.dir, 0o700);
    expect(codesOf(check(path))).toEqual(['info:socket-mode-loose']);
  });

  it.skipIf(reach)(
    `reports a group-writable socket when its group can walk the directories (group bits, not others)${UNREACHABLE_NOTE}`,
    async () => {
      const gid = process.getgid!();
      const path = await socketAt(join(dir, 'nri.sock'), 0o660);
      chownSync(dir, process.getuid!(), gid);
      chmodSync(dir, 0o750);
      // t.dir (0755) and /tmp let anyone through; dir lets its group through.
      const found = check(path);
      expect(codesOf(found)).toEqual(['error:socket-writable-by-others']);
      expect(found[0].message).toContain(`group ${gid} can reach and connect`);
      // Others may write to the socket but not pass dir; the group may pass but not write.
      chmodSync(path, 0o606);
      expect(codesOf(check(path))).toEqual(['info:socket-mode-loose']);
    },
  );
});

describe('checkSocket: who can replace it', () => {
  it.skipIf(reach)(`reports the socket's directory when others can write to it${UNREACHABLE_NOTE}`, async () => {
    const path = await socketAt(join(dir, 'nri.sock'), 0o600);
    chmodSync(dir, 0o777);
    expect(codesOf(check(path))).toEqual(['error:socket-dir-writable-by-others']);
    expect(check(path)[0].path).toBe(dir);
  });

  it.skipIf(reach)(
    `warns for a sticky shared directory holding the socket: others can take the name while the runtime is down${UNREACHABLE_NOTE}`,
    async () => {
      const path = await socketAt(join(dir, 'nri.sock'), 0o600);
      chmodSync(dir, 0o1777);
      expect(codesOf(check(path))).toEqual(['warning:socket-dir-writable-by-others']);
    },
  );

  it.skipIf(reach)(
    `reports a directory above the socket that others can write, unless it is sticky or out of their reach${UNREACHABLE_NOTE}`,
    async () => {
      const parent = join(t.dir, 'shared');
      mkdirSync(parent);
      const inner = join(parent, 'nri');
      mkdirSync(inner, { mode: 0o700 });
      chmodSync(inner, 0o700);
      const path = await socketAt(join(inner, 'nri.sock'), 0o755);
      chmodSync(parent, 0o777);
      expect(codesOf(check(path))).toEqual(['error:socket-dir-writable-by-others']);
      expect(check(path)[0].path).toBe(parent);
      chmodSync(parent, 0o1777); // like /tmp: others cannot rename nri/
      expect(check(path)).toEqual([]);
      chmodSync(parent, 0o777);
      chmodSync(t.dir, 0o700); // nobody but its owner gets to shared/
      expect(check(path)).toEqual([]);
    },
  );

  it.skipIf(reach)(`follows a symlink: the directory holding the link counts too${UNREACHABLE_NOTE}`, async () => {
    const path = await socketAt(join(dir, 'nri.sock'), 0o600);
    const pub = join(t.dir, 'pub');
    mkdirSync(pub);
    chmodSync(pub, 0o777);
    symlinkSync(path, join(pub, 'nri.sock'));
    expect(codesOf(check(join(pub, 'nri.sock')))).toEqual(['error:socket-dir-writable-by-others']);
    expect(check(path)).toEqual([]);
  });

  // Needs root: only root can give a directory to a user other than the socket's owner.
  it.skipIf(!AS_ROOT)('reports a directory on the way owned by another user (needs root to chown)', async () => {
    const path = await socketAt(join(dir, 'nri.sock'), 0o600);
    chownSync(t.dir, 1234, 1234);
    expect(codesOf(checkSocket(path))).toEqual(['error:socket-dir-not-root-owned']);
    expect(codesOf(socketExposureFindings(path))).toEqual(['error:socket-dir-owned-by-another-user']);
  });
});

describe('checkSocket: what is there', () => {
  it('reports a missing socket and a path that is not a socket', () => {
    expect(codesOf(checkSocket(join(dir, 'none.sock')))).toEqual(['error:socket-missing']);
    writeFileSync(join(dir, 'file.sock'), '');
    mkfifo(join(dir, 'fifo.sock'));
    expect(codesOf(checkSocket(join(dir, 'file.sock')))).toEqual(['error:not-a-socket']);
    expect(codesOf(checkSocket(join(dir, 'fifo.sock')))).toEqual(['error:not-a-socket']);
    expect(socketExposureFindings(join(dir, 'none.sock'))).toEqual([]);
  });

  it(`reports a socket not owned by root (${NOT_ROOT_HOW})`, async () => {
    const path = await socketAt(join(dir, 'nri.sock'), 0o600);
    notRootOwned(path);
    expect(codesOf(checkSocket(path))).toEqual(['error:socket-not-root-owned']);
  });
});
