// Docker Engine's NRI settings: daemon.json's "nri-opts" and dockerd's --nri-opts, and
// telling Docker's daemon.json from iSulad's by its keys.
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { diagnoseNode, lintRuntimeConfig } from '../../src/checks/index.js';
import { codesOf, tempDir, writeUnder } from './helpers.js';

let t: ReturnType<typeof tempDir>;
beforeEach(() => (t = tempDir('nridk-')));
afterEach(() => t.cleanup());
const file = (name: string, text: string) => writeUnder(t.dir, name, text);

describe("Docker's daemon.json", () => {
  it("nri-opts makes it Docker's wherever it lies, with no iSulad finding", () => {
    const r = lintRuntimeConfig(
      file('elsewhere/daemon.json', JSON.stringify({ 'nri-opts': { enable: true, 'socket-path': '/run/nri.sock' } })),
    );
    expect(r.format).toBe('docker');
    expect(r.settings).toMatchObject({
      runtime: 'docker',
      enabled: true,
      socketPath: '/run/nri.sock',
      pluginPath: '/usr/libexec/docker/nri-plugins',
      pluginConfigPath: '/etc/docker/nri/conf.d',
      externalConnections: true,
    });
    expect(codesOf(r.findings)).toEqual(['info:nri-settings', 'info:socket-mode-0777']);
    expect(r.findings.map((f) => f.message).join('\n')).not.toMatch(/iSulad|nri-support/);
  });

  it('without socket-path external plugins are shut out, and it says so', () => {
    const r = lintRuntimeConfig(file('docker/daemon.json', JSON.stringify({ 'nri-opts': { enable: true } })));
    expect(r.settings).toMatchObject({ enabled: true, externalConnections: false, socketPath: '(none)' });
    const note = r.findings.find((f) => f.code === 'external-connections-disabled');
    expect(note?.severity).toBe('info');
    expect(note?.message).toMatch(/Docker opens no NRI socket, so no external plugin/);
  });

  it('an empty socket-path is the same as none', () => {
    const r = lintRuntimeConfig(file('d/daemon.json', '{"nri-opts": {"enable": true, "socket-path": ""}}'));
    expect(r.settings.externalConnections).toBe(false);
    expect(codesOf(r.findings)).toContain('info:external-connections-disabled');
  });

  it('an unknown key inside nri-opts is an error (dockerd decodes it strictly), with the key meant', () => {
    const r = lintRuntimeConfig(file('d/daemon.json', '{"nri-opts": {"enable": true, "plugin_path": "/x"}}'));
    const bad = r.findings.find((f) => f.code === 'unknown-key');
    expect(bad?.severity).toBe('error');
    expect(bad?.message).toBe(
      '"nri-opts": unknown key "plugin_path" (did you mean "plugin-path"?): dockerd refuses unknown keys here and does not start',
    );
  });

  it('wrong types are errors, and the invalid value is never replaced by a default', () => {
    const r = lintRuntimeConfig(file('d/daemon.json', '{"nri-opts": {"enable": "yes"}}'));
    expect(r.findings.find((f) => f.code === 'wrong-type')?.message).toMatch(/"enable" is a string, not a boolean/);
    expect(r.settings.enabled).toBeUndefined();
    expect(r.settings.invalid.enabled).toBe('"yes"');
  });

  it('a Docker daemon.json without nri-opts is a note, not a warning: Docker without NRI is ordinary', () => {
    const r = lintRuntimeConfig(file('docker/daemon.json', JSON.stringify({ 'log-driver': 'journald' })));
    expect(r.format).toBe('docker');
    expect(r.findings.find((f) => f.code === 'nri-disabled')?.severity).toBe('info');
  });

  it("iSulad's daemon.json is still iSulad's, by its keys, even under /etc/docker", () => {
    const r = lintRuntimeConfig(
      file('docker/daemon.json', JSON.stringify({ 'nri-support': true, 'enable-cri-v1': true })),
    );
    expect(r.format).toBe('isulad');
  });
});

describe("dockerd's --nri-opts, from /proc on the node", () => {
  const proc = (pid: number, argv: string[]) => file(`proc/${pid}/cmdline`, `${argv.join('\0')}\0`);

  it('doctor reads a running dockerd flags when there is no daemon.json', () => {
    proc(1, ['/sbin/init']);
    proc(812, ['/usr/bin/dockerd', '-H', 'fd://', '--nri-opts', 'enable,socket-path=/run/docker-nri.sock']);
    const d = diagnoseNode({ root: t.dir });
    const docker = d.runtimeConfigs.find((r) => r.format === 'docker');
    expect(docker?.file).toBe('dockerd (pid 812)');
    expect(d.settings).toMatchObject({ runtime: 'docker', enabled: true, socketPath: '/run/docker-nri.sock' });
    expect(d.resolved.socketPath).toBe(join(t.dir, 'run/docker-nri.sock'));
  });

  it('the flag and daemon.json together: dockerd refuses to start', () => {
    proc(812, ['dockerd', '--nri-opts=enable']);
    file('etc/docker/daemon.json', '{"nri-opts": {"enable": true}}');
    const d = diagnoseNode({ root: t.dir });
    const twice = d.findings.find((f) => f.code === 'nri-opts-twice');
    expect(twice?.severity).toBe('error');
    expect(twice?.message).toMatch(/pid 812, --nri-opts enable\): dockerd refuses to start/);
  });

  it('a bad flag value is the error dockerd gives', () => {
    proc(9, ['dockerd', '--nri-opts', 'enable=maybe']);
    const d = diagnoseNode({ root: t.dir });
    expect(d.findings.find((f) => f.code === 'wrong-type')?.message).toMatch(/invalid value for NRI enable "maybe"/);
  });

  it('without socket-path in the flag, doctor does not try a socket, and says why', () => {
    proc(9, ['dockerd', '--nri-opts', 'enable']);
    const d = diagnoseNode({ root: t.dir });
    expect(d.canConnect).toBe(false);
    expect(d.findings.find((f) => f.code === 'socket-not-expected')?.fix).toMatch(/socket-path/);
  });
});
