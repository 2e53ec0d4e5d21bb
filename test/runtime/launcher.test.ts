// Pre-started plugins: real executables in a temp plugin directory, launched with the
// runtime end of a socketpair as fd 3, named by their file.
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { planSimulation } from '../../src/runtime/sim/inputs.js';
import { builtBundle } from '../support/built.js';
import { ofType, startSim, waitFor, waitForPlugin, type Sim } from './helpers.js';

/** The SDK as the plugins here load it: the build, bundled into one file (test/support/built.ts). */
let sdk: string;
beforeAll(async () => {
  sdk = await builtBundle();
});

/**
 * An SDK plugin as a file: its environment is only what the runtime passes, so node is
 * absolute; it runs on the build of the SDK as one file, as a plugin shipped by
 * `nrictl plugin bundle` does.
 */
function sdkPluginSource(body: string): string {
  return `#!${process.execPath}
const { Stub } = require(${JSON.stringify(sdk)});
console.log('plugin up as', process.env.NRI_PLUGIN_IDX + '-' + process.env.NRI_PLUGIN_NAME, 'socket fd', process.env.NRI_PLUGIN_SOCKET, 'PATH', process.env.PATH ?? 'unset');
${body}
`;
}

const RECORDER = (): string =>
  sdkPluginSource(`
const stub = new Stub({
  configure: (req) => { console.log('config:', JSON.stringify(req.config)); },
  createContainer: (_pod, ctr) => { console.log('create', ctr.id); return { adjust: { annotations: { 'launched.example.com': process.env.NRI_PLUGIN_NAME } } }; },
});
void stub.start().then(() => console.error('synchronized'));
`);

// Says what it was sent, so that a test sees whether a Synchronize came and whether
// start() resolved without one.
const SYNC_WATCHER = (): string =>
  sdkPluginSource(`
const stub = new Stub({
  synchronize: (pods, ctrs) => { console.log('synchronize handler:', pods.length, 'pods', ctrs.length, 'containers'); return []; },
  createContainer: (_pod, ctr) => { console.log('create', ctr.name); return {}; },
});
void stub.start().then(() => console.log('live'));
`);

let sim: Sim | undefined;
let dirs: string[] = [];
afterEach(async () => {
  await sim?.close();
  sim = undefined;
  for (const d of dirs) await rm(d, { recursive: true, force: true });
  dirs = [];
});

async function pluginDir(files: Record<string, { text?: string; mode?: number; dir?: boolean }>): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'plugins-'));
  dirs.push(dir);
  for (const [name, f] of Object.entries(files)) {
    const p = path.join(dir, name);
    if (f.dir) {
      await mkdir(p);
      continue;
    }
    await writeFile(p, f.text ?? '#!/bin/sh\nexit 0\n');
    await chmod(p, f.mode ?? 0o755);
  }
  return dir;
}

describe('pre-started plugins', () => {
  it('launches an executable with fd 3 and registers it under its file name, with its drop-in config', async () => {
    const dir = await pluginDir({ '10-recorder': { text: RECORDER() } });
    const conf = await mkdtemp(path.join(os.tmpdir(), 'conf-'));
    dirs.push(conf);
    await writeFile(path.join(conf, 'recorder.conf'), 'level: high\n');
    sim = await startSim(
      { pods: [{ id: 'p', name: 'p', namespace: 'n' }], containers: [] },
      { pluginPath: dir, pluginConfigPath: conf, registrationTimeoutMs: 15_000 },
    );
    await waitForPlugin(sim, '10-recorder');
    expect(sim.runtime.plugins()).toMatchObject([{ name: '10-recorder', external: false }]);
    expect(ofType(sim.events, 'launched')).toMatchObject([
      { plugin: '10-recorder', path: path.join(dir, '10-recorder') },
    ]);
    const r = await sim.runtime.createContainer('p', { id: 'c1', name: 'c1' });
    expect(r.ok).toBe(true);
    expect(sim.runtime.state.mustContainer('c1').annotations).toMatchObject({ 'launched.example.com': 'recorder' });
    await waitFor('plugin output', () => ofType(sim!.events, 'plugin-output').some((e) => e.line === 'create c1'));
    const lines = ofType(sim.events, 'plugin-output').map((e) => `${e.stream}: ${e.line}`);
    expect(lines).toContain('stdout: plugin up as 10-recorder socket fd 3 PATH unset');
    expect(lines).toContain('stdout: config: "level: high\\n"');
    expect(lines).toContain('stderr: synchronized');
  });

  it('skips directories and non-executable files', async () => {
    const dir = await pluginDir({
      '10-recorder': { text: RECORDER() },
      README: { mode: 0o644 },
      '20-notes': { mode: 0o644 },
      '30-subdir': { dir: true },
    });
    sim = await startSim(undefined, { pluginPath: dir, registrationTimeoutMs: 15_000 });
    await waitForPlugin(sim, '10-recorder');
    expect(ofType(sim.events, 'launched').map((e) => e.plugin)).toEqual(['10-recorder']);
  });

  it('fails discovery as a whole when an executable is misnamed, launching nothing and leaving no socket', async () => {
    const dir = await pluginDir({ '10-recorder': { text: RECORDER() }, logger: {} });
    const sockDir = await mkdtemp(path.join(os.tmpdir(), 'sock-'));
    dirs.push(sockDir);
    const socketPath = path.join(sockDir, 'nri.sock');
    await expect(startSim(undefined, { pluginPath: dir, socketPath })).rejects.toThrow(
      /logger.*idx-pluginname expected/,
    );
    expect(existsSync(socketPath)).toBe(false);
  });

  it('reports the socket first and every event in time order, launched plugins after it', async () => {
    const dir = await pluginDir({ '10-recorder': { text: RECORDER() }, '20-recorder': { text: RECORDER() } });
    sim = await startSim(undefined, { pluginPath: dir, registrationTimeoutMs: 15_000 });
    await waitForPlugin(sim, '20-recorder');
    const types = sim.events
      .filter((e) => e.type !== 'plugin-output')
      .map((e) => `${e.type} ${'plugin' in e ? e.plugin : ''}`);
    expect(types.slice(0, 7)).toEqual([
      'listening ',
      'launched 10-recorder',
      'registered 10-recorder',
      'launched 20-recorder',
      'registered 20-recorder',
      'synchronized 10-recorder',
      'synchronized 20-recorder',
    ]);
    const times = sim.events.map((e) => e.time);
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it('reports a plugin that exits after its work as stopped, and one that fails as dropped', async () => {
    // Each one leaves when it sees its container: cleanly (exit 0), or with status 3.
    const leaver = (code: number): string =>
      sdkPluginSource(`
const stub = new Stub({
  createContainer: (_pod, ctr) => {
    if (ctr.name === process.env.NRI_PLUGIN_NAME) setTimeout(() => void stub.stop().then(() => process.exit(${code})), 50);
  },
});
void stub.start();
`);
    const dir = await pluginDir({ '10-done': { text: leaver(0) }, '20-broken': { text: leaver(3) } });
    sim = await startSim(
      { pods: [{ id: 'p', name: 'p', namespace: 'n' }], containers: [] },
      // The exit status counts when it comes within the kill grace after the close (1 s by
      // default); a busy machine can take longer to end a node process: 20 s, as margin.
      { pluginPath: dir, registrationTimeoutMs: 15_000, killGraceMs: 20_000 },
    );
    await waitForPlugin(sim, '20-broken');
    await sim.runtime.createContainer('p', { id: 'c1', name: 'done' });
    await sim.runtime.createContainer('p', { id: 'c2', name: 'broken' });
    await waitFor(
      'both to end',
      () =>
        sim!.runtime.plugins().length === 0 &&
        sim!.events.filter((e) => e.type === 'stopped' || e.type === 'dropped').length === 2,
    );
    expect(ofType(sim.events, 'stopped')).toMatchObject([
      { plugin: '10-done', reason: 'the plugin exited (status 0)' },
    ]);
    expect(ofType(sim.events, 'dropped')).toMatchObject([
      { plugin: '20-broken', reason: 'the plugin closed its connection and exited with status 3' },
    ]);
  });

  it('reports a plugin that exits without registering and goes on', async () => {
    const dir = await pluginDir({
      '05-quitter': { text: '#!/bin/sh\necho bye >&2\nexit 3\n' },
      '10-recorder': { text: RECORDER() },
    });
    sim = await startSim(undefined, { pluginPath: dir, registrationTimeoutMs: 15_000 });
    await waitForPlugin(sim, '10-recorder');
    expect(sim.runtime.plugins().map((p) => p.name)).toEqual(['10-recorder']);
    expect(
      ofType(sim.events, 'error').some(
        (e) => e.plugin === '05-quitter' && /failed to start pre-installed plugin 05-quitter/.test(e.message),
      ),
    ).toBe(true);
  });
});

// NRI before v0.7 and iSulad synchronize external plugins only; from v0.7 the launched
// ones too (v0.7.0 adaptation.go:358-379). A plugin the runtime launched goes live either
// way, and gets the events (the SDK's start() does not wait for a Synchronize that never comes).
describe('Synchronize for pre-started plugins', () => {
  const scenario = { pods: [{ id: 'p', name: 'p', namespace: 'n' }], containers: [] };

  async function runWith(opts: Parameters<typeof startSim>[1]): Promise<{ lines: string[]; sim: Sim }> {
    const dir = await pluginDir({ '10-watcher': { text: SYNC_WATCHER() } });
    sim = await startSim(scenario, { pluginPath: dir, registrationTimeoutMs: 15_000, ...opts });
    await waitForPlugin(sim, '10-watcher');
    const r = await sim.runtime.createContainer('p', { id: 'c1', name: 'c1' });
    expect(r.ok).toBe(true);
    // By name: iSulad's CreateContainer request carries no id.
    await waitFor('the plugin to see c1', () =>
      ofType(sim!.events, 'plugin-output').some((e) => e.line === 'create c1'),
    );
    return { lines: ofType(sim.events, 'plugin-output').map((e) => e.line), sim };
  }

  it.each(['v0.3.0', 'v0.6.1'])(
    'NRI %s sends none: the plugin goes live after Configure',
    async (nriVersion) => {
      const { lines, sim: s } = await runWith({ nriVersion });
      expect(ofType(s.events, 'synchronized')).toEqual([]);
      expect(lines).toContain('live');
      expect(lines.filter((l) => l.startsWith('synchronize handler'))).toEqual([]);
      expect(lines.indexOf('live')).toBeLessThan(lines.indexOf('create c1'));
    },
    30_000,
  );

  it('NRI v0.7.0 synchronizes it before it goes live', async () => {
    const { lines, sim: s } = await runWith({ nriVersion: 'v0.7.0' });
    expect(ofType(s.events, 'synchronized').map((e) => e.plugin)).toEqual(['10-watcher']);
    expect(lines).toContain('synchronize handler: 1 pods 0 containers');
    expect(lines.indexOf('synchronize handler: 1 pods 0 containers')).toBeLessThan(lines.indexOf('live'));
  });

  it('the iSulad preset sends none (its own NRI, whatever its vintage)', async () => {
    const plan = await planSimulation({ preset: 'isulad-2.1.5' });
    const { lines, sim: s } = await runWith(plan.runtime);
    expect(ofType(s.events, 'synchronized')).toEqual([]);
    expect(lines.filter((l) => l.startsWith('synchronize handler'))).toEqual([]);
    expect(lines).toContain('live');
  });
});
