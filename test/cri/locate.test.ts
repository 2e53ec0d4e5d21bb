// Where the CRI socket is when no --cri-socket is given: the runtime config's, else a
// well-known one that is there; Docker has none. A node's root in a temp dir, with real
// config files and real sockets.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { describeError } from '../../src/cli/error-table.js';
import { ExitCode } from '../../src/cli/exit-codes.js';
import { CriError, DOCKER_HAS_NO_CRI, locateCriSocket } from '../../src/cri/index.js';

let root: string;
const servers: net.Server[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
  rmSync(root, { recursive: true, force: true });
});

function node(files: Record<string, string>): string {
  root = mkdtempSync(path.join(os.tmpdir(), 'cri-node-'));
  for (const [p, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, p)), { recursive: true });
    writeFileSync(path.join(root, p), text);
  }
  return root;
}

async function socketAt(p: string): Promise<void> {
  const full = path.join(root, p);
  mkdirSync(path.dirname(full), { recursive: true });
  const s = net.createServer();
  servers.push(s);
  await new Promise<void>((r) => s.listen(full, r));
}

describe('locateCriSocket', () => {
  it('takes a given socket as it is, crictl’s unix:// form too', () => {
    expect(locateCriSocket({ criSocket: 'unix:///run/x/cri.sock' })).toEqual({
      socketPath: '/run/x/cri.sock',
      source: 'given',
      note: 'CRI socket /run/x/cri.sock (as given)',
    });
    root = mkdtempSync(path.join(os.tmpdir(), 'cri-node-'));
  });

  it("containerd: its config's [grpc] address", async () => {
    const r = node({ 'etc/containerd/config.toml': 'version = 3\n[grpc]\n  address = "/run/k8s/containerd.sock"\n' });
    await socketAt('run/k8s/containerd.sock');
    expect(locateCriSocket({ root: r })).toEqual({
      socketPath: path.join(r, 'run/k8s/containerd.sock'),
      runtime: 'containerd',
      source: 'config',
      config: path.join(r, 'etc/containerd/config.toml'),
      present: true,
      note: `CRI socket ${path.join(r, 'run/k8s/containerd.sock')} (containerd's, from ${path.join(r, 'etc/containerd/config.toml')})`,
    });
  });

  it('containerd without [grpc] address: its default; said to be missing when it is', () => {
    const r = node({ 'etc/containerd/config.toml': 'version = 3\n' });
    const c = locateCriSocket({ root: r });
    expect(c.socketPath).toBe(path.join(r, 'run/containerd/containerd.sock'));
    expect(c.note).toMatch(/; it is not there\)$/);
    expect(c.present).toBe(false);
  });

  it('CRI-O: [crio.api] listen, a drop-in overriding crio.conf', () => {
    const r = node({
      'etc/crio/crio.conf': '[crio.api]\nlisten = "/run/a/crio.sock"\n',
      'etc/crio/crio.conf.d/10-api.conf': '[crio.api]\nlisten = "/run/b/crio.sock"\n',
    });
    expect(locateCriSocket({ root: r })).toMatchObject({
      socketPath: path.join(r, 'run/b/crio.sock'),
      runtime: 'crio',
      config: path.join(r, 'etc/crio/crio.conf.d/10-api.conf'),
    });
  });

  it("iSulad: daemon.json's first unix:// host", () => {
    const r = node({
      'etc/isulad/daemon.json': JSON.stringify({
        'nri-support': true,
        hosts: ['tcp://0.0.0.0:2375', 'unix:///run/isula.sock'],
      }),
    });
    expect(locateCriSocket({ root: r })).toMatchObject({
      socketPath: path.join(r, 'run/isula.sock'),
      runtime: 'isulad',
    });
  });

  it('prefers the runtime whose socket is there when several are configured', async () => {
    const r = node({
      'etc/containerd/config.toml': 'version = 3\n',
      'etc/crio/crio.conf': '[crio.nri]\nenable_nri = true\n',
    });
    await socketAt('var/run/crio/crio.sock');
    expect(locateCriSocket({ root: r })).toMatchObject({ runtime: 'crio', source: 'config' });
  });

  it('no config: the first well-known socket that is there', async () => {
    const r = node({});
    await socketAt('var/run/isulad.sock');
    expect(locateCriSocket({ root: r })).toEqual({
      socketPath: path.join(r, 'var/run/isulad.sock'),
      runtime: 'isulad',
      source: 'well-known',
      present: true,
      note: `CRI socket ${path.join(r, 'var/run/isulad.sock')} (iSulad's well-known path; no runtime config names one)`,
    });
    servers.splice(0).forEach((s) => s.close());
    expect(locateCriSocket({ root: r })).toMatchObject({
      present: false,
      note: expect.stringMatching(/no runtime config found, and none of .* is there/),
    });
  });

  it('Docker: no CRI, said in one line (connect, exit 4)', () => {
    const r = node({
      'etc/docker/daemon.json': JSON.stringify({ 'nri-opts': { enable: true } }),
      // Docker's own containerd turns CRI off.
      'etc/containerd/config.toml': 'disabled_plugins = ["cri"]\n',
    });
    const err = (() => {
      try {
        locateCriSocket({ root: r });
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(CriError);
    expect(err).toMatchObject({ code: 'no-cri', message: DOCKER_HAS_NO_CRI });
    expect(describeError(err)).toEqual({ exitCode: ExitCode.CONNECT, message: DOCKER_HAS_NO_CRI });
  });
});
