import { execFileSync, spawnSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { PluginError, Stub, connectTo, pluginIdentity, resolveTarget } from '../../src/plugin/index.js';
import { PluginNameError } from '../../src/api/index.js';
import { MODE_BOUND_UNAVAILABLE, modeBound } from '../support/mode-bound.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const dirs: string[] = [];
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

async function tempDir(): Promise<string> {
  const d = await mkdtemp(path.join(os.tmpdir(), 'nric-'));
  dirs.push(d);
  return d;
}

async function failure(socketPath: string): Promise<PluginError> {
  const err = await connectTo({ kind: 'path', socketPath }).then(
    (s) => {
      s.destroy();
      throw new Error('connected unexpectedly');
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(PluginError);
  return err as PluginError;
}

describe('connecting', () => {
  it('refuses a path longer than 107 bytes instead of dialling its cut-off prefix', async () => {
    const dir = await tempDir();
    // A live socket at exactly the first 107 bytes of the long path: what Node would dial.
    const prefix = path.join(dir, 'p'.repeat(107 - dir.length - 1));
    const long = `${prefix}${'x'.repeat(134 - 107)}`;
    let accepted = 0;
    const server = net.createServer((s) => {
      accepted++;
      s.destroy();
    });
    await new Promise<void>((r) => server.listen(prefix, r));
    try {
      const err = await failure(long);
      expect(err).toMatchObject({ step: 'connect', reason: 'path-too-long', socketPath: long });
      expect(err.message).toMatch(
        new RegExp(`^socket path ${long} is 134 bytes long; a unix socket path can have at most 107 bytes: `),
      );
      await new Promise((r) => setTimeout(r, 50));
      expect(accepted).toBe(0);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });

  it('names a missing socket and suggests enabling NRI', async () => {
    const p = path.join(await tempDir(), 'nri.sock');
    const err = await failure(p);
    expect(err).toMatchObject({ step: 'connect', reason: 'no-socket', socketPath: p });
    expect(err.message).toBe(`no NRI socket at ${p}: is NRI enabled in the runtime?`);
  });

  it('tells a regular file or a directory from a socket nobody listens on', async () => {
    const dir = await tempDir();
    const file = path.join(dir, 'file');
    await writeFile(file, 'not a socket');
    const asFile = await failure(file);
    expect(asFile.reason).toBe('not-a-socket');
    expect(asFile.message).toMatch(new RegExp(`^${file} is not a socket \\(it is a regular file\\)`));

    const sub = path.join(dir, 'sub');
    await mkdir(sub);
    expect((await failure(sub)).reason).toBe('not-a-socket');
  });

  // Node cannot bind without listening, and unlinks its sockets on close; python3 can leave one behind.
  const python = spawnSync('python3', ['-c', 'pass']).status === 0;
  it.skipIf(!python)(
    'reports a stale socket (bound, not listening) as connection refused (needs python3)',
    async () => {
      const p = path.join(await tempDir(), 'stale.sock');
      const bound = spawnSync('python3', [
        '-c',
        'import socket,sys; s=socket.socket(socket.AF_UNIX); s.bind(sys.argv[1])',
        p,
      ]);
      expect(bound.status).toBe(0);
      const err = await failure(p);
      expect(err.reason).toBe('refused');
      expect(err.message).toBe(`connection refused at ${p}: the runtime is not listening (stale socket?)`);
    },
  );

  // A listening socket with mode 000: connect() needs write permission on it, which nobody
  // has; the child is one file modes apply to, whoever runs the tests (see mode-bound.ts).
  it.skipIf(MODE_BOUND_UNAVAILABLE !== undefined)(
    `reports permission denied when the caller may not open the socket${MODE_BOUND_UNAVAILABLE ? ` (skipped: ${MODE_BOUND_UNAVAILABLE})` : ''}`,
    async () => {
      const p = path.join(await tempDir(), 'nri.sock');
      const server = net.createServer();
      await new Promise<void>((resolve) => server.listen(p, resolve));
      try {
        await chmod(p, 0o000);
        const child = modeBound(process.execPath, ['--import', 'tsx', path.join(here, 'fixtures/try-connect.ts'), p]);
        const out = execFileSync(child.command, child.args, { cwd: path.join(here, '../..'), encoding: 'utf8' });
        const result = JSON.parse(out.trim().split('\n').pop()!) as {
          reason: string;
          message: string;
          isPluginError: boolean;
        };
        expect(result).toMatchObject({ reason: 'permission-denied', isPluginError: true });
        expect(result.message).toBe(`permission denied on ${p}: run as root or as the socket's owner`);
      } finally {
        server.close();
      }
    },
  );

  it('rejects an NRI_PLUGIN_SOCKET that is not a descriptor number', async () => {
    const target = resolveTarget(undefined, { NRI_PLUGIN_SOCKET: 'three' });
    expect(target.kind).toBe('fd');
    const err = (await connectTo(target).catch((e: unknown) => e)) as PluginError;
    expect(err).toMatchObject({ reason: 'not-a-socket', step: 'connect' });
    expect(err.message).toContain('NRI_PLUGIN_SOCKET');
  });

  it('prefers an explicit path, then the inherited fd, then the default socket', () => {
    expect(resolveTarget('/x.sock', { NRI_PLUGIN_SOCKET: '3' })).toEqual({ kind: 'path', socketPath: '/x.sock' });
    expect(resolveTarget(undefined, { NRI_PLUGIN_SOCKET: '3' })).toEqual({ kind: 'fd', fd: 3, raw: '3' });
    expect(resolveTarget(undefined, {})).toEqual({ kind: 'path', socketPath: '/var/run/nri/nri.sock' });
  });

  it('start() rejects with the connect error', async () => {
    const p = path.join(await tempDir(), 'nri.sock');
    const stub = new Stub({ createContainer: () => {} }, { name: 'x', index: '01', socketPath: p });
    await expect(stub.start()).rejects.toMatchObject({ step: 'connect', reason: 'no-socket' });
  });
});

describe('plugin identity', () => {
  it('takes options first, then the environment, then the executable name', () => {
    expect(pluginIdentity({ name: 'a', index: '01' }, { NRI_PLUGIN_NAME: 'b', NRI_PLUGIN_IDX: '02' })).toEqual({
      name: 'a',
      index: '01',
    });
    expect(pluginIdentity({}, { NRI_PLUGIN_NAME: 'b', NRI_PLUGIN_IDX: '02' })).toEqual({ name: 'b', index: '02' });
    expect(pluginIdentity({}, {}, ['node', '/opt/nri/plugins/30-logger.js'])).toEqual({ name: 'logger', index: '30' });
    expect(pluginIdentity({}, { NRI_PLUGIN_IDX: '40' }, ['/opt/nri/plugins/my-plugin'])).toEqual({
      name: 'my-plugin',
      index: '40',
    });
  });

  it('refuses an executable name without an index, and a malformed index', () => {
    expect(() => pluginIdentity({}, {}, ['node', '/usr/bin/logger'])).toThrow(PluginNameError);
    expect(() => pluginIdentity({ name: 'x', index: '1' }, {})).toThrow(/must be 2 digits/);
  });
});
