// A check, not part of npm test or CI: the real crictl drives `nrictl sim --cri-socket`
// through a pod's whole life (runp, create, start, ps, inspect, update, stop, rm, stopp,
// rmp) while the Go sample plugin `logger` is connected to the simulator's NRI socket,
// and every event crictl caused must reach the plugin, in order; the plugin's
// adjustments (an annotation and an environment variable) must show in crictl inspect.
//
//   node --import tsx bench/crictl-check.ts --crictl PATH --logger PATH
//   (or CRICTL=PATH NRI_LOGGER=PATH; crictl v1.31.1 and the containerd/nri logger sample
//   are built by the nri-go-reference tools, see docs/go-reference.md)
//
// Needs a built CLI (npm run build). Prints what crictl printed and what the plugin saw;
// exits 1 when an event is missing, out of order, or an adjustment does not show.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: { crictl: { type: 'string' }, logger: { type: 'string' }, nrictl: { type: 'string' } },
});
const crictl = values.crictl ?? process.env.CRICTL;
const logger = values.logger ?? process.env.NRI_LOGGER;
const repo = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const nrictl = values.nrictl ?? path.join(repo, 'bin', 'run.js');
if (!crictl || !logger) {
  console.error('usage: bench/crictl-check.ts --crictl PATH --logger PATH (or CRICTL and NRI_LOGGER)');
  process.exit(2);
}

const dir = mkdtempSync(path.join(os.tmpdir(), 'crictl-check-'));
chmodSync(dir, 0o700);
const criSocket = path.join(dir, 'cri.sock');
const nriSocket = path.join(dir, 'nri.sock');
const loggerLog = path.join(dir, 'logger.log');
const children: ChildProcess[] = [];
let failed = 0;
const SHOWN_LINES = 8;

function check(ok: boolean, what: string): void {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failed++;
}

/** The next JSON record of the simulator's output that `want` accepts (the iterator stays open for the next). */
async function record(
  lines: AsyncIterator<Record<string, unknown>>,
  want: (r: Record<string, unknown>) => boolean,
): Promise<Record<string, unknown>> {
  for (;;) {
    const next = await lines.next();
    if (next.done) throw new Error('the simulator ended first');
    if (want(next.value)) return next.value;
  }
}

async function* jsonLines(child: ChildProcess): AsyncIterable<Record<string, unknown>> {
  let buf = '';
  for await (const chunk of child.stdout!) {
    buf += String(chunk);
    let nl;
    while ((nl = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      if (line.startsWith('{')) yield JSON.parse(line) as Record<string, unknown>;
    }
  }
}

function run(...args: string[]): string {
  const r = spawnSync(
    crictl!,
    ['-r', `unix://${criSocket}`, '-i', `unix://${criSocket}`, '--timeout', '10s', ...args],
    {
      encoding: 'utf8',
      cwd: dir,
    },
  );
  const shown = `${r.stdout}${r.stderr}`.trimEnd().split('\n');
  console.log(`$ crictl ${args.join(' ')}${r.status === 0 ? '' : `   (exit ${r.status})`}`);
  // Long JSON (inspect) is shortened here; the checks below read all of it.
  const head =
    shown.length > SHOWN_LINES
      ? [...shown.slice(0, SHOWN_LINES), `... (${shown.length - SHOWN_LINES} more lines)`]
      : shown;
  if (head.join('')) console.log(head.map((l) => `  ${l}`).join('\n'));
  if (r.status !== 0) throw new Error(`crictl ${args[0]} failed`);
  return r.stdout.trim();
}

/** The events the logger logged, in order, with the pod or container id each names. */
function loggedEvents(): Array<{ event: string; id: string }> {
  const out: Array<{ event: string; id: string }> = [];
  let current: { event: string; tag: string } | undefined;
  for (const line of readFileSync(loggerLog, 'utf8').split('\n')) {
    const msg = /msg="(.*)"\s*$/.exec(line)?.[1];
    if (msg === undefined) continue;
    const header = /^(\w+): (\w+):$/.exec(msg);
    if (header) {
      if (header[2] === 'pod' || current?.event !== header[1]) out.push({ event: header[1], id: '' });
      current = { event: header[1], tag: header[2] };
      continue;
    }
    const id = /^(\w+): {4}id: (\S+)$/.exec(msg);
    if (id && current && id[1] === current.event && (current.tag === 'container' || out.at(-1)!.id === ''))
      out.at(-1)!.id = id[2];
  }
  return out;
}

try {
  const sim = spawn(
    process.execPath,
    [nrictl, 'sim', '--cri-socket', criSocket, '--socket', nriSocket, '--calls', '-o', 'json', '--no-interactive'],
    { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, NO_COLOR: '1' } },
  );
  children.push(sim);
  const lines = jsonLines(sim)[Symbol.asyncIterator]();
  await record(lines, (r) => r.type === 'listening' && r.api === 'cri');
  console.log(`nrictl sim: NRI ${nriSocket}, CRI ${criSocket}`);

  const plugin = spawn(
    logger,
    [
      '-idx',
      '10',
      '-socket-path',
      nriSocket,
      '-log-file',
      loggerLog,
      '-add-annotation',
      'logger-was-here',
      '-add-env',
      'LOGGER_ENV',
    ],
    { stdio: 'inherit' },
  );
  children.push(plugin);
  const synced = await record(lines, (r) => r.type === 'synchronized');
  console.log(`${String(synced.plugin)} synchronized with the simulator\n`);

  writeFileSync(
    path.join(dir, 'pod.json'),
    JSON.stringify({
      metadata: { name: 'web', namespace: 'shop', uid: 'web-uid', attempt: 1 },
      labels: { app: 'web' },
    }),
  );
  writeFileSync(
    path.join(dir, 'ctr.json'),
    JSON.stringify({
      metadata: { name: 'app' },
      image: { image: 'registry.k8s.io/e2e-test-images/busybox:1.29-2' },
      command: ['sh', '-c', 'top'],
      envs: [{ key: 'GIVEN', value: '1' }],
      labels: { 'io.kubernetes.container.name': 'app' },
      linux: { resources: { cpu_shares: 512, memory_limit_in_bytes: 268435456 } },
    }),
  );

  const pod = run('runp', 'pod.json');
  const ctr = run('create', pod, 'ctr.json', 'pod.json');
  run('start', ctr);
  const ps = run('ps', '-a', '--pod', pod);
  const inspect = JSON.parse(run('inspect', '-o', 'json', ctr)) as {
    status: { state: string; resources?: { linux?: Record<string, string> } };
    info: { runtimeSpec: { process: { env: string[] }; annotations: Record<string, string> } };
  };
  run('update', '--cpu-share', '1024', '--memory', '536870912', ctr);
  const after = JSON.parse(run('inspect', '-o', 'json', ctr)) as typeof inspect;
  run('stop', ctr);
  run('rm', ctr);
  run('stopp', pod);
  run('rmp', pod);

  // The logger writes each event's lines before it answers; the file may lag the last answer a moment.
  const expected = [
    ['RunPodSandbox', pod],
    ['CreateContainer', ctr],
    // The logger is a validator too (NRI v0.10+): it is asked about the merged adjustment;
    // its request names the container only deeper down, which this reader does not follow.
    ['ValidateContainerAdjustment', ''],
    ['PostCreateContainer', ctr],
    ['StartContainer', ctr],
    ['PostStartContainer', ctr],
    ['UpdateContainer', ctr],
    ['PostUpdateContainer', ctr],
    ['StopContainer', ctr],
    ['RemoveContainer', ctr],
    ['StopPodSandbox', pod],
    ['RemovePodSandbox', pod],
  ];
  let seen = loggedEvents().filter((e) => e.event !== 'Synchronize');
  for (let i = 0; i < 50 && seen.length < expected.length; i++) {
    await new Promise((r) => setTimeout(r, 20));
    seen = loggedEvents().filter((e) => e.event !== 'Synchronize');
  }
  console.log('\nthe logger plugin saw, in order:');
  for (const e of seen) console.log(`  ${e.event.padEnd(20)} ${e.id.slice(0, 13)}`);
  console.log('');
  check(ps.includes(ctr.slice(0, 13)) && ps.includes('Running'), 'crictl ps lists the container, Running');
  check(inspect.status.state === 'CONTAINER_RUNNING', `crictl inspect: state ${inspect.status.state}`);
  const env = inspect.info.runtimeSpec.process.env;
  check(
    env.includes('GIVEN=1') && env.some((e) => e.startsWith('LOGGER_ENV=logger-pid-')),
    `crictl inspect: the logger's environment variable is in the spec (${env.join(' ')})`,
  );
  const anno = inspect.info.runtimeSpec.annotations['logger-was-here'] ?? '';
  check(
    anno.startsWith('logger-pid-'),
    `crictl inspect: the logger's annotation is in the spec (logger-was-here=${anno})`,
  );
  const res = after.status.resources?.linux ?? {};
  check(
    String(res.cpuShares) === '1024' && String(res.memoryLimitInBytes) === '536870912',
    `crictl update reached the container: cpuShares ${res.cpuShares}, memoryLimitInBytes ${res.memoryLimitInBytes}`,
  );
  const got = seen.map((e) => `${e.event} ${e.id}`);
  const want = expected.map(([event, id]) => `${event} ${id}`);
  check(
    JSON.stringify(got) === JSON.stringify(want),
    `the plugin saw every event crictl caused, in order, each for its pod or container (${got.length} of ${want.length})`,
  );
} catch (err) {
  failed++;
  console.log(`FAIL ${(err as Error).message}`);
} finally {
  for (const c of children.reverse()) c.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 300));
  rmSync(dir, { recursive: true, force: true });
}
console.log(failed === 0 ? '\ncrictl check: passed' : `\ncrictl check: ${failed} failed`);
process.exitCode = failed === 0 ? 0 : 1;
