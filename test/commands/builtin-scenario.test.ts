// `--sim demo` names the scenario shipped in examples/, so that it works from any
// directory (after a global install, examples/demo.yaml is no path of the user's).
// Each run is in the test's own process, in the directory the test names
// (test/support/cli-in-process.ts): the name is looked up from there, the shipped file
// from the bundle's place, as in a child. The two runs that play the demo wait through
// its pauses: the name of the built-in demo is what they test.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, cliEnv, tempDir } from './nri-cli.js';
import { runInProcess } from '../support/cli-in-process.js';

let elsewhere: ReturnType<typeof tempDir>;
beforeAll(() => {
  assertBuilt('sync/dump', 'sim');
  elsewhere = tempDir('nrc-elsewhere-');
});
afterAll(() => elsewhere?.cleanup());

const nrictlIn = (cwd: string, ...args: string[]) => runInProcess(args, { cwd, env: cliEnv() });

describe('--sim demo and --scenario demo', () => {
  it('sync dump --sim demo runs in a directory without examples/', async () => {
    const r = await nrictlIn(elsewhere.dir, 'sync', 'dump', '--sim', 'demo', '-o', 'json');
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as { pods: unknown[]; containers: unknown[] };
    expect([doc.pods.length, doc.containers.length]).toEqual([3, 5]);
  });

  it('sim --scenario demo runs the demo script there too', async () => {
    const r = await nrictlIn(elsewhere.dir, 'sim', '--scenario', 'demo', '--no-interactive');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/script done: 13 steps, 0 failed/);
  });

  it('a file of your own named demo wins over the built-in one', async () => {
    const own = tempDir('nrc-own-demo-');
    try {
      writeFileSync(join(own.dir, 'demo'), 'pods:\n  - id: p1\n    name: mine\n    namespace: here\n    uid: u1\n');
      const r = await nrictlIn(own.dir, 'sync', 'dump', '--sim', 'demo', '-o', 'json');
      expect(r.code, r.stderr).toBe(0);
      const doc = JSON.parse(r.stdout) as { pods: Array<{ name: string }> };
      expect(doc.pods.map((p) => p.name)).toEqual(['mine']);
    } finally {
      own.cleanup();
    }
  });

  it('a directory named demo (the project `plugin new demo` makes) does not hide the built-in one', async () => {
    const own = tempDir('nrc-dir-demo-');
    try {
      mkdirSync(join(own.dir, 'demo'));
      const r = await nrictlIn(own.dir, 'sim', 'demo', '--no-interactive');
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/script done: 13 steps, 0 failed/);
    } finally {
      own.cleanup();
    }
  });

  it('an unknown name says which scenarios are built in, exit 2', async () => {
    const r = await nrictlIn(elsewhere.dir, 'sync', 'dump', '--sim', 'dmeo');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^Error: dmeo: cannot read the scenario: .*name a built-in scenario: demo\)\n$/);
  });
});
