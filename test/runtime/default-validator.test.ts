// The built-in default validator in the simulator, set up from a real containerd
// config.toml as `sim --validator` reads it: rejections in containerd 2.3.4's words.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { lintPaths } from '../../src/checks/index.js';
import { planSimulation } from '../../src/runtime/sim/inputs.js';
import { ofType, startSim, type Sim } from './helpers.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'defval-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let sim: Sim | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

function config(table: string): string {
  const file = path.join(dir, `config-${Math.random().toString(36).slice(2)}.toml`);
  writeFileSync(
    file,
    `version = 3\n[plugins."io.containerd.nri.v1.nri"]\n  plugin_path = "${path.join(dir, 'plugins')}"\n[plugins."io.containerd.nri.v1.nri".default_validator]\n${table}\n`,
  );
  return file;
}

async function create(file: string, podAnnotations: Record<string, string> = {}) {
  const plan = await planSimulation({ preset: 'containerd-2.3', validator: file });
  sim = await startSim(
    { pods: [{ id: 'pod0', name: 'web', annotations: podAnnotations }], containers: [] },
    plan.runtime,
  );
  return sim.runtime.createContainer('pod0', { id: 'c0', name: 'app' });
}

describe('sim --validator', () => {
  it('rejects CreateContainer as containerd 2.3.4 does when a required plugin is missing', async () => {
    const r = await create(config('enable = true\nrequired_plugins = ["no-such-plugin"]'));
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error.message).toBe(
      'validator "00-default-validator" rejected container adjustment, reason: validation error: required plugin "no-such-plugin" not present',
    );
    expect(ofType(sim!.events, 'rejected')[0]).toMatchObject({ plugin: '00-default-validator', container: 'c0' });
  });

  it('counts itself as present, names several missing plugins as one quoted list, and adds annotated ones', async () => {
    expect((await create(config('enable = true\nrequired_plugins = ["default-validator"]'))).ok).toBe(true);
    await sim!.close();
    sim = undefined;
    const r = await create(config('enable = true\nrequired_plugins = ["a"]'), {
      'required-plugins.noderesource.dev/container.app': '["b"]',
    });
    expect(!r.ok && r.error.message).toMatch(/reason: validation error: required plugins "a,b" not present$/);
  });

  it('tolerates missing plugins by the pod annotation, and refuses a value Go cannot parse as a bool', async () => {
    const file = config('enable = true\nrequired_plugins = ["x"]\ntolerate_missing_plugins_annotation = "tolerate"');
    expect((await create(file, { tolerate: 'true' })).ok).toBe(true);
    await sim!.close();
    sim = undefined;
    const r = await create(file, { 'tolerate/pod': 'yes' });
    expect(!r.ok && r.error.message).toMatch(
      /reason: invalid tolerate annotation "yes": strconv\.ParseBool: parsing "yes": invalid syntax$/,
    );
  });

  it('without enable = true does nothing', async () => {
    expect((await create(config('required_plugins = ["x"]'))).ok).toBe(true);
  });

  it('is refused for a runtime without one', async () => {
    await expect(planSimulation({ preset: 'crio-1.32', validator: config('enable = true') })).rejects.toThrow(
      /NRI v0\.9\.0 has no default validator/,
    );
  });
});

describe('lint and the default validator', () => {
  it('flags a required plugin that is not installed, and not one that is', () => {
    const plugins = path.join(dir, 'plugins');
    rmSync(plugins, { recursive: true, force: true });
    const file = config('enable = true\nrequired_plugins = ["no-such-plugin", "logger", "10-logger"]');
    mkdirSync(plugins);
    writeFileSync(path.join(plugins, '10-logger'), '#!/bin/sh\n', { mode: 0o755 });
    const missing = lintPaths([file]).findings.filter((f) => f.code === 'required-plugin-missing');
    expect(missing.map((f) => f.message)).toEqual([
      expect.stringMatching(/^required plugin "no-such-plugin" is not installed in /),
    ]);
    expect(missing[0]?.severity).toBe('error');
  });
});
