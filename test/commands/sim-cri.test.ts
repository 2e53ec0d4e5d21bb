// `nrictl sim --cri-socket` as a user runs it: the built CLI in a child process serves CRI
// on a 0600 socket in a directory it makes 0700, a CRI client drives it and the run's
// events show what the calls did; SIGTERM ends it and removes both sockets. Bad inputs
// end it before anything listens: exit 2, one line.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openCriClient } from '../../src/cri/index.js';
import { POD, container } from '../cri/helpers.js';
import { assertBuilt, BIN, tempDir } from './nri-cli.js';

beforeAll(() => assertBuilt('sim'));
const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

function scratch(): string {
  const t = tempDir('simcri-');
  cleanups.push(() => t.cleanup());
  return t.dir;
}

function sim(...args: string[]) {
  return spawnSync(process.execPath, [BIN, 'sim', ...args], {
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', CI: '1' },
    timeout: 30_000,
  });
}

describe('nrictl sim --cri-socket', () => {
  it('serves CRI beside NRI until stopped; a CRI client drives it; the sockets go with it', async () => {
    const dir = scratch();
    const criSocket = path.join(dir, 'cri', 'cri.sock');
    const nriSocket = path.join(dir, 'nri.sock');
    const child = spawn(
      process.execPath,
      [BIN, 'sim', '--cri-socket', criSocket, '--socket', nriSocket, '-o', 'json'],
      {
        env: { ...process.env, NO_COLOR: '1', CI: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    cleanups.push(() => child.kill('SIGKILL'));
    let out = '';
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const listening = new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('"api":"cri"')) resolve();
      });
      child.on('close', () => reject(new Error(`sim exited: ${err}`)));
    });
    await listening;
    expect(statSync(criSocket).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(criSocket)).mode & 0o777).toBe(0o700);

    const client = await openCriClient({ socketPath: criSocket, timeoutMs: 5000 });
    try {
      const { podSandboxId } = await client.runPodSandbox(POD);
      const { containerId } = await client.createContainer(podSandboxId, container('app'), POD);
      await client.startContainer(containerId);
      expect((await client.listContainers()).containers.map((c) => c.id)).toEqual([containerId]);
    } finally {
      client.close();
    }
    const closed = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
    child.kill('SIGTERM');
    expect(await closed).toBe(0);
    expect(err).toBe('');
    const records = out
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(records.filter((r) => r.type === 'listening').map((r) => [r.socketPath, r.api])).toEqual([
      [nriSocket, undefined],
      [criSocket, 'cri'],
    ]);
    expect(records.filter((r) => r.type === 'state-changed').map((r) => r.event)).toEqual([
      'RunPodSandbox',
      'CreateContainer',
      'StartContainer',
    ]);
    expect(existsSync(criSocket)).toBe(false);
    expect(existsSync(nriSocket)).toBe(false);
  });

  it('Docker has no CRI: exit 2, one line, nothing made', () => {
    const dir = scratch();
    const r = sim('--preset', 'docker-29', '--cri-socket', path.join(dir, 'cri.sock'));
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(
      'Error: --cri-socket: Docker serves no CRI (the kubelet reaches it through cri-dockerd): leave out --cri-socket, or pick a containerd, CRI-O or iSulad preset\n',
    );
    expect(existsSync(path.join(dir, 'cri.sock'))).toBe(false);
  });

  it('a directory others may write to: exit 2, one line', () => {
    const dir = scratch();
    const open = path.join(dir, 'open');
    mkdirSync(open);
    chmodSync(open, 0o777);
    const r = sim('--cri-socket', path.join(open, 'cri.sock'), 'demo');
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain(`its directory ${open} is writable by group or others`);
    expect(r.stderr).toContain('leave out --cri-socket');
  });

  it('a file in the way, the NRI socket’s own path, or preset all: exit 2, one line', () => {
    const dir = scratch();
    const file = path.join(dir, 'cri.sock');
    writeFileSync(file, 'not a socket');
    for (const [args, text] of [
      [['--cri-socket', file, 'demo'], 'a file that is not a socket is in the way'],
      [
        ['--cri-socket', path.join(dir, 's'), '--socket', path.join(dir, 's'), 'demo'],
        'the CRI socket cannot be the NRI socket',
      ],
      [['--cri-socket', path.join(dir, 'c.sock'), '--preset', 'all', 'demo'], 'not with preset all'],
    ] as const) {
      const r = sim(...args);
      expect({ args, status: r.status, lines: r.stderr.trim().split('\n').length }).toEqual({
        args,
        status: 2,
        lines: 1,
      });
      expect(r.stderr).toContain(text);
    }
  });
});
