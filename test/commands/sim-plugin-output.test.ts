// `nrictl sim --plugin-output`: a pre-started plugin's stderr shown as events (lines),
// as JSON on stderr (json), or not read at all (none).
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, cliEnv, tempDir } from './nri-cli.js';
import { runInProcess } from '../support/cli-in-process.js';

let base: { dir: string; cleanup(): void };
let plugins: string;

beforeAll(() => {
  assertBuilt('sim');
  base = tempDir('nrc-pout-');
  plugins = join(base.dir, 'plugins');
  mkdirSync(plugins);
  // Says something and leaves without registering: the runtime reports an error either way.
  writeFileSync(join(plugins, '10-talker'), '#!/bin/sh\necho hello-from-talker >&2\nexit 1\n');
  chmodSync(join(plugins, '10-talker'), 0o755);
});
afterAll(() => base?.cleanup());

// In the test's own process, though each run plays the demo with its pauses (runCli would
// make that a child, nri-cli.ts): the tests here run one after the other, so the pauses
// hold up no other run, and they leave the plugin's line time to be read before the end.
const sim = (...extra: string[]) =>
  runInProcess(
    [
      'sim',
      '--plugin-path',
      plugins,
      '--scenario',
      'examples/demo.yaml',
      '--no-interactive',
      '--registration-timeout',
      '3s',
      ...extra,
    ],
    { env: cliEnv() },
  );

describe('nrictl sim --plugin-output', () => {
  it('lines (default): the line is an event in the -o format', async () => {
    const r = await sim('-o', 'json');
    expect(r.code, r.stderr).toBe(0);
    const out = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; line?: string; plugin?: string });
    expect(out.find((e) => e.type === 'plugin-output')).toMatchObject({
      plugin: '10-talker',
      line: 'hello-from-talker',
    });
  });

  it('json: the line goes to stderr as one JSON object, stdout keeps the simulator events', async () => {
    const r = await sim('--plugin-output', 'json');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toContain('hello-from-talker');
    const line = r.stderr.split('\n').find((l) => l.includes('hello-from-talker'));
    expect(JSON.parse(line!)).toMatchObject({
      type: 'plugin-output',
      plugin: '10-talker',
      stream: 'stderr',
      line: 'hello-from-talker',
    });
  });

  it('none: the output is not read, and the plugin still starts (and here fails) as before', async () => {
    const r = await sim('--plugin-output', 'none');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout + r.stderr).not.toContain('hello-from-talker');
    expect(r.stdout).toMatch(/launched\s+10-talker/);
  });
});
