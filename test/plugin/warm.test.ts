// The warm start (src/plugin/warm.ts): a real SDK plugin in its own process, launched by
// the simulator from a plugin directory, warms before it registers, and the author's
// handlers see nothing of it.
import { mkdir, mkdtemp, readFile, rm, writeFile, chmod } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { PluginMethod } from '../../src/api/index.js';
import { warmMethods } from '../../src/plugin/warm.js';
import { Runtime, SimState } from '../../src/runtime/index.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const TSX = path.join(REPO, 'node_modules/tsx/dist/esm/index.mjs');

let dirs: string[] = [];
afterEach(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
  dirs = [];
});

describe('warm start', () => {
  it('runs the SDK path before registering and never calls the plugin handlers for it', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'warm-'));
    dirs.push(dir);
    const plugins = path.join(dir, 'plugins');
    await mkdir(plugins);
    const calls = path.join(dir, 'calls');
    const warmed = path.join(dir, 'warmed');
    await writeFile(calls, '');
    // Every handler the warm-up could reach records its call; after start() the plugin
    // writes what the warm-up did (warmOnce hands back the first, the stub's, result).
    await writeFile(
      path.join(plugins, '10-counter'),
      `#!/usr/bin/env -S ${process.execPath} --import ${TSX}
import { appendFileSync, writeFileSync } from 'node:fs';
import { Stub } from '${path.join(REPO, 'src/plugin/index.ts')}';
import { warmOnce } from '${path.join(REPO, 'src/plugin/warm.ts')}';
const seen = (what) => () => { appendFileSync(${JSON.stringify(calls)}, what + '\\n'); };
await new Stub({
  createContainer: (pod, ctr) => { seen('create ' + ctr.id)(); return {}; },
  startContainer: seen('start'), removeContainer: seen('remove'), runPodSandbox: seen('run'),
  updateContainer: seen('update'), validateContainerAdjustment: seen('validate'),
}, { registrationTimeoutMs: 20000 }).start();
writeFileSync(${JSON.stringify(warmed)}, JSON.stringify(await warmOnce([])));
`,
    );
    await chmod(path.join(plugins, '10-counter'), 0o755);
    const runtime = new Runtime(new SimState({ pods: [{ id: 'p', name: 'p', namespace: 'n' }] }), {
      socketPath: path.join(dir, 's'),
      pluginPath: plugins,
      registrationTimeoutMs: 20_000,
    });
    await runtime.start();
    try {
      const r = await runtime.createContainer('p', { id: 'c1', name: 'c1' });
      expect(r.ok).toBe(true);
      await expect.poll(() => readFile(warmed, 'utf8').catch(() => ''), { timeout: 10_000 }).not.toBe('');
      const result = JSON.parse(await readFile(warmed, 'utf8')) as { rounds: number; ms: number };
      expect(result.rounds).toBeGreaterThan(0);
      // Only the real events reached the author's code: the create, and the validation
      // of its adjustment the runtime asks for next.
      expect(await readFile(calls, 'utf8')).toBe('create c1\nvalidate\n');
    } finally {
      await runtime.stop();
    }
  }, 30_000);

  it('warms the methods of the handlers given, and CreateContainer always', () => {
    expect(warmMethods({})).toEqual([PluginMethod.CreateContainer]);
    expect(new Set(warmMethods({ startContainer: () => {}, validateContainerAdjustment: () => {} }))).toEqual(
      new Set([PluginMethod.CreateContainer, PluginMethod.StartContainer, PluginMethod.ValidateContainerAdjustment]),
    );
    // configure, synchronize and shutdown are the stub's own business, never warmed.
    expect(warmMethods({ configure: () => {}, synchronize: () => {}, shutdown: () => {} })).toEqual([
      PluginMethod.CreateContainer,
    ]);
  });
});
