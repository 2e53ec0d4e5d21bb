// `nrictl sync dump` of a node-sized state from the real simulator: written as it is
// rendered, it must print what the whole-string renderers print, in every format; a
// reader that stalls never keeps the runtime waiting; one that goes away ends it quietly.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import YAML from 'yaml';
import { nri } from '../../src/api/index.js';
import { withoutColour } from '../../src/output/colour.js';
import { jsonDocument } from '../../src/output/format.js';
import { renderStateTable } from '../../src/views/state-table.js';
import { generateScenario } from '../../src/runtime/sim/generate.js';
import type { SimEvent } from '../../src/runtime/events.js';
import { BIN, cliEnv, runCli, startCli, startRuntime, tempDir, type SimHandle } from './nri-cli.js';

// Full detail (labels, annotations, env, mounts, resources): some 2 MB on the wire, in 10 messages.
const state = generateScenario({ pods: 300, containersPerPod: 5, detail: 'full' });
// Strings that JSON escapes or that are not ASCII, and keys a JavaScript object orders first:
// -o json writes them from the bytes as the decoding path does.
state.pods[1].annotations = {
  ...state.pods[1].annotations,
  note: 'a "quoted" \\ path\twith tab',
  '7': 'ünïcødé 中 😀',
};
state.containers[2].labels = { ...state.containers[2].labels, '10': 'ten', '2': 'two', ctrl: '\u0001\u001f' };
// The messages as the runtime's bytes decode: what the dump prints, in the order it came.
const pods = state.pods.map((p) => nri.PodSandbox.decode(nri.PodSandbox.encode(p).finish()));
const containers = state.containers.map((c) => nri.Container.decode(nri.Container.encode(c).finish()));

let sim: SimHandle;
let t: ReturnType<typeof tempDir>;
beforeAll(async () => {
  // Neither side's deadlines are under test, and the dumps run side by side: on a busy
  // machine a dump can take longer than the runtime's default 2 s to answer a 200-container
  // message, and this process (the runtime) longer than the dump's default 5 s to answer its
  // registration while a test here compares megabytes (TIMEOUT below).
  sim = await startRuntime(state, { syncChunkSize: 200, requestTimeoutMs: 60_000, registrationTimeoutMs: 60_000 });
  t = tempDir('nrdl-');
});
afterAll(async () => {
  await sim.stop();
  t.cleanup();
});

const TIMEOUT = ['--timeout', '60s'];
const dump = (...args: string[]) => runCli(['sync', 'dump', '--socket', sim.socketPath, ...TIMEOUT, ...args]);
// The whole state in -o json, which two tests compare with: dumped once, by whichever asks first.
let wholeJson: ReturnType<typeof dump> | undefined;
const jsonDump = () => (wholeJson ??= dump('-o', 'json'));

describe.concurrent('nrictl sync dump of 300 pods and 1,500 containers', () => {
  it('table and wide: the whole table, byte for byte', async ({ expect }) => {
    const [table, wide] = await Promise.all([dump(), dump('-o', 'wide')]);
    expect([table.code, table.stderr, wide.code, wide.stderr]).toEqual([0, '', 0, '']);
    expect(table.stdout).toBe(withoutColour(() => renderStateTable(pods, containers)));
    expect(wide.stdout).toBe(withoutColour(() => renderStateTable(pods, containers, { wide: true })));
    expect(table.stdout.split('\n')).toHaveLength(1 + containers.length + 1);
  });

  it('json: one document, as the whole-document writer gives it', async ({ expect }) => {
    const json = await jsonDump();
    expect([json.code, json.stderr]).toEqual([0, '']);
    const doc = JSON.parse(json.stdout) as { runtime: { name: string; version: string } };
    expect(doc.runtime.name).toBe('nrictl-sim');
    expect(json.stdout).toBe(jsonDocument({ runtime: doc.runtime, pods, containers }));
  });

  // YAML is written (and parsed here) several times slower than JSON: a part of the state
  // (two namespaces' gold tier, some 180 containers), from each of the messages.
  it('yaml: the same data as json', async ({ expect }) => {
    const [yaml, json] = await Promise.all([
      dump('-o', 'yaml', '-n', 'd*', '-l', 'tier=gold'),
      dump('-o', 'json', '-n', 'd*', '-l', 'tier=gold'),
    ]);
    expect([yaml.code, yaml.stderr]).toEqual([0, '']);
    const doc = JSON.parse(json.stdout) as { containers: unknown[] };
    expect(doc.containers.length).toBeGreaterThan(100);
    expect(YAML.parse(yaml.stdout)).toEqual(doc);
  }, 60_000);

  it('--output-file holds what stdout gets', async ({ expect }) => {
    const file = path.join(t.dir, 'state.json');
    const [toFile, toStdout] = await Promise.all([dump('-o', 'json', '-f', file), jsonDump()]);
    expect(toFile.code).toBe(0);
    expect(toFile.stdout).toBe('');
    expect(readFileSync(file, 'utf8')).toBe(toStdout.stdout);
  });

  it('filters select from the brief and print the complete data of what they select', async ({ expect }) => {
    const ns = pods[0].namespace;
    const r = await dump('-n', ns, '-o', 'json');
    const doc = JSON.parse(r.stdout) as { pods: Array<{ id: string }>; containers: Array<{ podSandboxId: string }> };
    const ids = pods.filter((p) => p.namespace === ns).map((p) => p.id);
    expect(doc.pods.map((p) => p.id)).toEqual(ids);
    expect(doc.containers).toEqual(
      JSON.parse(jsonDocument(containers.filter((c) => ids.includes(c.podSandboxId)))) as unknown[],
    );
  });

  it('a reader that stalls: the runtime has its answer and the plugin is gone before anything is read', async ({
    expect,
  }) => {
    // Left the runtime (answered and disconnected) while nobody reads its output. A name of
    // its own: the other tests' dumps leave the same runtime meanwhile.
    const left = new Promise<void>((resolve) => {
      const onEvent = (e: SimEvent): void => {
        if (e.type !== 'stopped' || e.plugin !== '99-stalled-reader') return;
        sim.runtime.off('event', onEvent);
        resolve();
      };
      sim.runtime.on('event', onEvent);
    });
    const run = startCli(
      ['sync', 'dump', '--socket', sim.socketPath, ...TIMEOUT, '-o', 'json', '--plugin-name', 'stalled-reader'],
      {
        collectStdout: false,
      },
    );
    await left;
    run.stdout(); // the reader starts reading now
    const { code } = await run.exited;
    const out = run.stdout();
    expect([code, run.stderr()]).toEqual([0, '']);
    expect(JSON.parse(out)).toMatchObject({ runtime: { name: 'nrictl-sim' } });
    expect(out).toBe(jsonDocument({ ...JSON.parse(out), pods, containers }));
  });

  it.for(['table', 'json', 'yaml'])(
    '-o %s | head -n 1: exit 0, one line, nothing on stderr',
    async (format, { expect }) => {
      const child = spawn(
        'bash',
        [
          '-c',
          'set -o pipefail; "$0" "$1" sync dump --socket "$2" -o "$3" --timeout 60s | head -n 1',
          process.execPath,
          BIN,
          sim.socketPath,
          format,
        ],
        { stdio: ['ignore', 'pipe', 'pipe'], env: cliEnv() },
      );
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
      child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect({ code, stderr, lines: stdout.split('\n').length }).toEqual({ code: 0, stderr: '', lines: 2 });
    },
  );
});
