// Record and replay as users run them: the built CLI records what a simulator sends
// (logs --record, trace --record), and sim --replay sends it again. A logger registered
// on the replaying simulator records the same state and the same requests; the example
// plugins, traced again, end every field as they did; a plugin that behaves differently
// is named, field by field (exit 1, JUnit for CI). Bad files end before anything starts.
import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  assertBuilt,
  BIN,
  cliEnv,
  runCli,
  startCli,
  startDemoSim,
  tempDir,
  type CliRun,
  type SimHandle,
} from './nri-cli.js';
import { rawPlugin } from './raw-plugin-script.js';
import { unpacedDemo } from '../support/unpaced-demo.js';

const repo = path.resolve(import.meta.dirname, '../..');
const t = tempDir('nrc-rec-');
const at = (name: string) => path.join(t.dir, name);
afterAll(() => t.cleanup());

type Line = Record<string, any>;
const lines = (file: string): Line[] =>
  readFileSync(file, 'utf8')
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as Line);

/** The pods, containers and events of a recording, less what differs from run to run (times, runtime timestamps). */
function content(file: string): Line[] {
  const strip = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(strip)
      : v !== null && typeof v === 'object'
        ? Object.fromEntries(
            Object.entries(v)
              .filter(([k]) => !['t', 'createdAt', 'startedAt', 'finishedAt'].includes(k))
              .map(([k, x]) => [k, strip(x)]),
          )
        : v;
  return lines(file)
    .filter((l) => ['pod', 'container', 'event'].includes(l.type))
    .map((l) => strip(l) as Line);
}

/** The demo scenario without its pauses: what is recorded is the same, sooner (test/support/unpaced-demo.ts). */
let demo: string;

beforeAll(async () => {
  assertBuilt('logs', 'trace', 'sim');
  demo = await unpacedDemo();
  // One recording of each kind, made as an operator would on the demo node.
  const [logs, trace] = await Promise.all([
    runCli(['logs', '--sim', demo, '--record', at('logs.jsonl')]),
    runCli(['trace', '--sim', demo, '--plugin-dir', 'examples/trace-plugins', '--record', at('trace.jsonl.gz')]),
  ]);
  expect(logs.code, logs.stderr).toBe(0);
  expect(trace.code, trace.stderr).toBe(0);
  expect(logs.stderr).toMatch(/00-nrictl-logs registered/);
  expect(logs.stderr).toMatch(
    /nrictl logs: 11 events seen, 11 printed, 0 dropped; recorded 11 records to .*logs\.jsonl\n/,
  );
  expect(trace.stdout).toMatch(/recorded 14 records to .*trace\.jsonl\.gz/);
}, 60_000);

describe.concurrent('logs --record', () => {
  it('writes a 0600 recording whose environment values are redacted, names kept', ({ expect }) => {
    const file = at('logs.jsonl');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const all = lines(file);
    expect(all[0]).toMatchObject({
      format: 'nrictl-recording',
      source: 'logs',
      plugin: '00-nrictl-logs',
      redacted: ['env'],
    });
    const envs = all.flatMap((l) => (l.container?.env ?? l.request?.container?.env ?? []) as string[]);
    expect(envs.length).toBeGreaterThan(0);
    for (const e of envs) expect(e).toMatch(/^[^=]+=<redacted>$|^[^=]+$/);
    expect(all.at(-1)).toMatchObject({ type: 'end', records: { written: 11, dropped: 0, truncated: 0 } });
  });

  it('refuses to replace a file without --force (exit 2, before connecting); --record-env keeps values with a warning', async ({
    expect,
  }) => {
    const kept = at('kept.jsonl');
    writeFileSync(kept, 'mine\n');
    const refused = await runCli(['logs', '--sim', demo, '--record', kept]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(`Error: --record: ${kept} exists: give another name, or --force to replace it\n`);
    expect(readFileSync(kept, 'utf8')).toBe('mine\n');
    const r = await runCli(['logs', '--sim', demo, '--record', kept, '--force', '--record-env']);
    expect(r.code).toBe(0);
    expect(r.stderr.split('\n').filter((l) => l.startsWith('Warning:'))).toEqual([
      `Warning: --record-env: ${kept} will hold the containers' environment values (passwords, tokens): keep it as safe as the node`,
    ]);
    expect(readFileSync(kept, 'utf8')).toMatch(/"PATH=\/usr\/bin:\/bin"/);
    expect(lines(kept)[0].redacted).toEqual([]);
  });

  it('--record-max ends the recording with a note, not the command', async ({ expect }) => {
    const file = at('small.jsonl');
    const r = await runCli(['logs', '--sim', demo, '--record', file, '--record-max', '9Ki']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /small\.jsonl reached --record-max 9 ?Ki?B?: the recording ends here \(with its trailer\); the command goes on/,
    );
    expect(r.stderr).toMatch(
      /11 events seen, 11 printed, 0 dropped; recorded \d+ records? to .* \(\d+ past --record-max\)/,
    );
    const end = lines(file).at(-1)!;
    expect(end.records.truncated).toBeGreaterThan(0);
    expect(end.records.written + end.records.truncated).toBe(11);
    expect(statSync(file).size).toBeLessThanOrEqual(9 * 1024);
  });
});

describe.concurrent('--record with a filter', () => {
  it('logs and trace record only what it selects, and their header says which filter', async ({ expect }) => {
    const logs = at('ns-logs.jsonl');
    const trace = at('ns-trace.jsonl');
    const filter = ['--namespace', 'kube-system'];
    const runs = await Promise.all([
      runCli(['logs', '--sim', demo, ...filter, '--record', logs]),
      runCli(['trace', '--sim', demo, '--plugin-dir', 'examples/trace-plugins', ...filter, '--record', trace]),
    ]);
    for (const r of runs) expect(r.code, r.stderr).toBe(0);
    for (const file of [logs, trace]) {
      const all = lines(file);
      expect(all[0].filter, file).toEqual({ namespace: 'kube-system' });
      // The demo's one kube-system pod and its container; the scenario's events are all in shop.
      expect(all.slice(1).map((l) => [l.type, l.pod?.namespace ?? l.container?.name ?? l.pods])).toEqual([
        ['pod', 'kube-system'],
        ['container', 'coredns'],
        ['synced', 1],
        ['end', undefined],
      ]);
    }
  });
});

describe.concurrent('a recording the disk will not take', () => {
  /** `nrictl ...args` allowed files of 2 KiB at most (ulimit -f 4 blocks, SIGXFSZ ignored): writes past it fail with EFBIG. */
  const cappedCli = (args: string[]) =>
    new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const script = 'trap "" XFSZ; ulimit -f 4; exec "$@"';
      execFile('sh', ['-c', script, 'sh', process.execPath, BIN, ...args], { env: cliEnv() }, (err, _out, stderr) =>
        resolve({ code: err ? (err.code as number) : 0, stderr }),
      );
    });

  it('logs and trace end in error (exit 1, one line naming the file) and leave nothing behind', async ({ expect }) => {
    const dir = at('capped');
    mkdirSync(dir);
    const logs = path.join(dir, 'logs.jsonl');
    const trace = path.join(dir, 'trace.jsonl.gz');
    const [l, tr] = await Promise.all([
      cappedCli(['logs', '--sim', demo, '--record', logs]),
      cappedCli(['trace', '--sim', demo, '--plugin-dir', 'examples/trace-plugins', '--record', trace]),
    ]);
    for (const [r, file] of [
      [l, logs],
      [tr, trace],
    ] as const) {
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr.trimEnd().split('\n').at(-1)).toBe(
        `Error: --record: ${file}: the recording could not be written (EFBIG: file too large, write); nothing was left there`,
      );
    }
    expect(l.stderr).toMatch(/11 events seen, 11 printed, 0 dropped; no recording: EFBIG: file too large, write\n/);
    expect(readdirSync(dir)).toEqual([]);
  });
});

// Beside the other suites, but its two tests one after the other: each counts the events of
// the simulator they share.
describe.concurrent('a recording that ends early still ends whole', () => {
  let sim: SimHandle;
  beforeAll(async () => {
    sim = await startDemoSim();
  });
  afterAll(() => sim.stop());

  it.sequential('on SIGTERM: the trailer is written and the file put in place', async ({ expect }) => {
    const file = at('sigterm.jsonl');
    const run = startCli(['logs', '--socket', sim.socketPath, '--plugin-name', 'rec-term', '--record', file]);
    await sim.synchronized('00-rec-term');
    await sim.runtime.runPodSandbox({ id: 'p-term', name: 'term-0', namespace: 'shop' });
    run.child.kill('SIGTERM');
    expect((await run.exited).code).toBe(0);
    const all = lines(file);
    expect(all.filter((l) => l.type === 'event').map((l) => l.event)).toEqual(['RunPodSandbox']);
    expect(all.at(-1)).toMatchObject({ type: 'end', records: { written: 1, dropped: 0 } });
  });

  it.sequential('when the reader of its output goes away (nrictl logs --record F | head)', async ({ expect }) => {
    const file = at('head.jsonl');
    const run = startCli([
      'logs',
      '--socket',
      sim.socketPath,
      '--plugin-name',
      'rec-head',
      '--record',
      file,
      '-o',
      'json',
    ]);
    await sim.synchronized('00-rec-head');
    run.child.stdout.destroy();
    await sim.runtime.runPodSandbox({ id: 'p-head', name: 'head-0', namespace: 'shop' });
    await sim.runtime.stopPodSandbox('p-head');
    expect((await run.exited).code).toBe(0);
    expect(run.stderr()).toMatch(/\(the output was closed by its reader\); recorded \d+ records? to /);
    expect(lines(file).at(-1)!.type).toBe('end');
  });
});

describe.concurrent('sim --replay', () => {
  it('sends a logger on the replaying simulator the recorded state and the recorded requests', async ({ expect }) => {
    const socket = at('replay.sock');
    const replay = startCli([
      'sim',
      '--replay',
      at('logs.jsonl'),
      '--socket',
      socket,
      '--wait-for-plugins',
      '1',
      '--no-interactive',
    ]);
    for (let i = 0; i < 200 && !exists(socket); i++) await new Promise((r) => setTimeout(r, 25));
    const again = at('again.jsonl');
    const logger = await runCli(['logs', '--socket', socket, '--record', again]);
    // The simulator ends after the last step: the logger sees the runtime go.
    expect(logger.code).toBe(6);
    expect((await replay.exited).code).toBe(0);
    expect(replay.stderr()).toMatch(
      /replayed 11 events of .*logs\.jsonl as newest \(recorded on nrictl-sim 0\.1\.0\) from 3 pods and 5 containers: 8 steps/,
    );
    expect(content(again)).toEqual(content(at('logs.jsonl')));
  });

  it('Ctrl-C while --speed waits for the next event: the summary counts what the plugins were sent, no more', async ({
    expect,
  }) => {
    // The Go reference's recording at a hundredth of its pace: CreateContainer is due 1.2 s
    // after RunPodSandbox, StartContainer 3 s after that; the stop comes in that wait.
    const recording = path.join(repo, 'test/fixtures/recordings/go-reference/logs.jsonl.gz');
    const socket = at('paced.sock');
    const replay = startCli([
      'sim',
      '--replay',
      recording,
      '--speed',
      '0.01x',
      '--socket',
      socket,
      '--wait-for-plugins',
      '1',
      '--no-interactive',
      '-o',
      'json',
    ]);
    for (let i = 0; i < 200 && !exists(socket); i++) await new Promise((r) => setTimeout(r, 25));
    const logger = startCli(['logs', '--socket', socket, '-o', 'json']);
    await until(() => logger.stdout().includes('"event":"PostCreateContainer"'), logger);
    replay.child.kill('SIGINT');
    expect((await replay.exited).code).toBe(0);
    expect((await logger.exited).code).toBe(6); // the runtime went away
    const sent = parseLines(logger.stdout()).map((l) => l.event as string);
    expect(sent).toEqual(['RunPodSandbox', 'CreateContainer', 'PostCreateContainer']);
    const records = parseLines(replay.stdout());
    const done = records.find((r) => r.type === 'script-done');
    expect(done).toMatchObject({ steps: 2, failed: 0, stopped: true });
    expect(records.filter((r) => r.type === 'state-changed')).toHaveLength(2);
    expect(records.find((r) => r.type === 'replay')).toMatchObject({ events: sent.length, steps: 2, notSteps: 1 });
  });

  it('--compare: the same plugins end every traced field as they did (exit 0)', async ({ expect }) => {
    const r = await runCli([
      'sim',
      '--replay',
      at('trace.jsonl.gz'),
      '--plugin-dir',
      'examples/trace-plugins',
      '--compare',
      '-o',
      'json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const result = JSON.parse(r.stdout) as Line;
    expect(result).toMatchObject({ compared: 3, uncompared: { then: 0, now: 0 }, containers: [] });
    expect(result.notes).toEqual([
      'environment values are not compared, only which variables are set: the recording holds names only (made without --record-env)',
    ]);
  });

  it('--compare: plugins that do less are named per field, then and now; exit 1 and JUnit for CI', async ({
    expect,
  }) => {
    const dir = at('only-pinner');
    mkdirSync(dir);
    symlinkSync(path.join(repo, 'examples/trace-plugins/20-cpu-pinner'), path.join(dir, '20-cpu-pinner'));
    const junit = at('compare.xml');
    const r = await runCli([
      'sim',
      '--replay',
      at('trace.jsonl.gz'),
      '--plugin-dir',
      dir,
      '--compare',
      '--junit',
      junit,
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^Error: 3 difference\(s\) from .*trace\.jsonl\.gz: the replay does not end as the recording did\n$/,
    );
    const group = 'group 40-env-injector\\+41-mount-adder';
    expect(r.stdout).toMatch(/^shop\/payments-5f4d9c8b7-qw7rt payments \(c5f6a7b8c9d0\)\n/);
    expect(r.stdout).toMatch(
      new RegExp(
        `CreateContainer #2\\s+mounts /cache\\s+/var/cache/shared bind rbind,ro \\(${group}\\)\\s+no plugin set it`,
      ),
    );
    expect(r.stdout).toMatch(new RegExp(`env NODE_ZONE\\s+<redacted> \\(${group}\\)`));
    expect(r.stdout).not.toMatch(/cpu\.cpus/); // 20-cpu-pinner still sets it the same
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toMatch(/<testsuite name="nrictl sim --replay .*trace\.jsonl\.gz --compare" tests="2" failures="1">/);
    expect(xml).toMatch(
      /CreateContainer #2 annotations example\.com\/injected-by: then env-injector \(group 40-env-injector\+41-mount-adder\), now no plugin set it/,
    );
  });

  it('replays the lines logs -o json printed, and refuses --compare of anything but a trace recording', async ({
    expect,
  }) => {
    const json = await runCli(['logs', '--sim', demo, '-o', 'json']);
    const file = at('printed.jsonl');
    writeFileSync(file, json.stdout);
    const [r, compare] = await Promise.all([
      runCli(['sim', '--replay', file, '--no-interactive', '--speed', '100x']),
      runCli(['sim', '--replay', at('logs.jsonl'), '--compare']),
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/replayed 11 events of .*printed\.jsonl from 0 pods and 0 containers: 8 steps/);
    expect(r.stdout).toMatch(/script done: 8 steps, 0 failed/);
    expect(compare.code).toBe(2);
    expect(compare.stderr).toMatch(/--compare needs a recording of nrictl trace --record/);
  });

  it('--expect judges the replay as it judges a scenario, its steps named after the recorded events', async ({
    expect,
  }) => {
    const expectFile = at('expect.yaml');
    writeFileSync(
      expectFile,
      'expect:\n  - after: create c5f6a7b8c9d0\n    result: succeeded\n    env: {GOMAXPROCS: "<redacted>"}\n' +
        '  - after: update c5f6a7b8c9d0\n    resources: {cpu_shares: 1024}\n',
    );
    const r = await runCli(['sim', '--replay', at('logs.jsonl'), '--expect', expectFile]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/PASS after step 2 \(create c5f6a7b8c9d0\): container c5f6a7b8c9d0 env\n/);
    expect(r.stdout).toMatch(/FAIL after step 4 \(update c5f6a7b8c9d0\): container c5f6a7b8c9d0 resources\n/);
    expect(r.stdout).toMatch(/expectations: 2 passed, 1 failed\n/);
  });

  it('a bad file: exit 2, one line naming the file and the line, nothing started', async ({ expect }) => {
    const file = at('cut.jsonl');
    const good = readFileSync(at('logs.jsonl'), 'utf8').split('\n');
    writeFileSync(file, good.slice(0, 12).join('\n') + '\n');
    const r = await runCli(['sim', '--replay', file, '--no-interactive']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `Error: --replay: ${file}: line 13: the recording ends without its trailer: it was cut short (copied while being written, or nrictl was killed)\n`,
    );
    expect(r.stdout).toBe('');
  });

  it('--replay with --cri-socket: exit 2, one line, before the file is read; nothing started', async ({ expect }) => {
    const socket = at('cri.sock');
    const r = await runCli(['sim', '--replay', at('missing.jsonl'), '--cri-socket', socket, '--no-interactive']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `Error: --cri-socket: ${at('missing.jsonl')} is replayed: its recorded events alone drive the simulator; leave out --cri-socket (sim SCENARIO --cri-socket serves CRI)\n`,
    );
    expect(r.stdout).toBe('');
    expect(exists(socket)).toBe(false);
  });

  it('recorded on a runtime whose NRI is older than a plugin needs: refused as that runtime refuses it', async ({
    expect,
  }) => {
    const plugins = at('m800');
    mkdirSync(plugins);
    writeFileSync(path.join(plugins, '10-m800'), await rawPlugin(), { mode: 0o755 }); // subscribes to UpdatePodSandbox
    const file = at('old-runtime.jsonl');
    const text = readFileSync(at('logs.jsonl'), 'utf8').replace(
      /"runtime":\{[^}]*\}/,
      '"runtime":{"name":"containerd","version":"v1.7.13"}',
    );
    writeFileSync(file, text);
    const r = await runCli(['sim', '--replay', file, '--plugin-dir', plugins, '--no-interactive']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^Error: containerd v1\.7\.13 exits at start-up: pre-started plugin 10-m800 failed to start, which NRI v0\.4\.0 makes fatal .*invalid plugin events: 0x800/,
    );
    expect(r.stdout).not.toMatch(/script done/);
  });
});

const parseLines = (text: string): Line[] =>
  text
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as Line);

/** Resolves once `ready()` holds; rejects when the command ended first. */
async function until(ready: () => boolean, run: CliRun): Promise<void> {
  let ended = false;
  void run.exited.then(() => (ended = true));
  while (!ready()) {
    if (ended) throw new Error(`exited first; stderr:\n${run.stderr()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

function exists(p: string): boolean {
  try {
    statSync(p);
    return true;
  } catch {
    return false;
  }
}
