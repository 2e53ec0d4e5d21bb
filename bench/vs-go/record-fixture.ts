// Makes the Go reference recordings of test/fixtures/recordings/go-reference: refrt (a
// runtime on containerd/nri's pkg/adaptation) runs a small node with the Go sample
// plugins ulimit-adjuster (10) and device-injector (20) pre-started, while the built
// nrictl records it twice, `trace --record` (probes around the two plugins) and
// `logs --record`; refrt's own create_adjustment lines (the merged adjustment the Go
// adaptation applied to each created container) are kept beside them. Not run by CI:
// it needs the Go reference built (../shared/tools/nri-go-reference). Run after
// `npm run build`:
//
//   node --import tsx bench/vs-go/record-fixture.ts GO_REFERENCE_DIR OUT_DIR
//
// OUT_DIR receives trace.jsonl, logs.jsonl.gz, go-adjustments.json, SHA256SUMS.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { checkRecording } from '../../src/recording/index.js';
import { refrtArgs } from './refrt.js';

const [reference, outDir] = process.argv.slice(2);
if (!reference || !outDir) {
  process.stderr.write('usage: node --import tsx bench/vs-go/record-fixture.ts GO_REFERENCE_DIR OUT_DIR\n');
  process.exit(2);
}
const bin = (name: string) => path.join(path.resolve(reference), 'bin', name);
const nrictl = path.resolve('bin/run.js');
for (const f of [bin('refrt'), bin('ulimit-adjuster'), bin('device-injector'), nrictl])
  if (!existsSync(f)) throw new Error(`${f} does not exist (build the Go reference, and nrictl with npm run build)`);

// The pods' annotations say what the sample plugins add (their READMEs' keys): the db
// container gets two rlimits and a device, every container of the web pod a mount.
const ULIMITS = '- type: RLIMIT_NOFILE\n  hard: 65536\n  soft: 32768\n- type: nproc\n  hard: 4096\n  soft: 2048\n';
const DEVICES = '- path: /dev/nri-null\n  type: c\n  major: 1\n  minor: 3\n  file_mode: 438\n';
const MOUNTS = '- source: /var/cache/web\n  destination: /cache\n  type: bind\n  options: [rbind, ro]\n';
const scenario = {
  pods: [
    {
      id: 'pod-web',
      name: 'web-7d9f8b6c5-x2lqp',
      uid: 'uid-web',
      namespace: 'shop',
      labels: { app: 'web' },
      annotations: { 'mounts.noderesource.dev/pod': MOUNTS },
      cgroup_parent: '/kubepods/burstable/pod-web',
    },
  ],
  containers: [
    {
      id: 'ctr-web-app',
      pod: 'pod-web',
      name: 'app',
      state: 'RUNNING',
      labels: { 'io.kubernetes.container.name': 'app' },
      env: ['PORT=8080', 'API_TOKEN=tok-123'],
      resources: { cpu_shares: 512, memory_limit: 536870912 },
    },
  ],
};
const script = [
  {
    op: 'RunPodSandbox',
    pod: 'pod-db',
    name: 'db-0',
    namespace: 'data',
    labels: { app: 'db' },
    annotations: {
      'ulimits.noderesource.dev/container.db': ULIMITS,
      'devices.noderesource.dev/container.db': DEVICES,
    },
  },
  {
    op: 'CreateContainer',
    pod: 'pod-db',
    container: 'ctr-db',
    name: 'db',
    labels: { 'io.kubernetes.container.name': 'db' },
    args: ['/usr/bin/db', '--data=/var/lib/db'],
    env: ['DB_PASSWORD=hunter2', 'MODE=primary'],
    resources: { cpu_shares: 1024, cpu_quota: 200000, cpu_period: 100000, memory_limit: 1073741824 },
  },
  { op: 'PostCreateContainer', container: 'ctr-db' },
  { op: 'StartContainer', container: 'ctr-db' },
  { op: 'PostStartContainer', container: 'ctr-db' },
  { op: 'CreateContainer', pod: 'pod-db', container: 'ctr-db-exporter', name: 'exporter', env: ['PORT=9187'] },
  { op: 'PostCreateContainer', container: 'ctr-db-exporter' },
  { op: 'CreateContainer', pod: 'pod-web', container: 'ctr-web-sidecar', name: 'sidecar', args: ['/sidecar'] },
  { op: 'PostCreateContainer', container: 'ctr-web-sidecar' },
  { op: 'UpdateContainer', container: 'ctr-db', resources: { cpu_shares: 2048, memory_limit: 2147483648 } },
  { op: 'PostUpdateContainer', container: 'ctr-db' },
  { op: 'StopContainer', container: 'ctr-db-exporter' },
  { op: 'RemoveContainer', container: 'ctr-db-exporter' },
  { op: 'StopContainer', container: 'ctr-db' },
  { op: 'RemoveContainer', container: 'ctr-db' },
  { op: 'StopPodSandbox', pod: 'pod-db' },
  { op: 'RemovePodSandbox', pod: 'pod-db' },
];

const scratch = mkdtempSync(path.join(os.tmpdir(), 'go-rec-'));
try {
  const plugins = path.join(scratch, 'plugins');
  mkdirSync(plugins);
  symlinkSync(bin('ulimit-adjuster'), path.join(plugins, '10-ulimit-adjuster'));
  symlinkSync(bin('device-injector'), path.join(plugins, '20-device-injector'));
  writeFileSync(path.join(scratch, 'scenario.json'), JSON.stringify(scenario, null, 1));
  writeFileSync(path.join(scratch, 'script.json'), JSON.stringify(script, null, 1));
  const socket = path.join(scratch, 'nri.sock');
  mkdirSync(outDir, { recursive: true });
  const trace = path.join(outDir, 'trace.jsonl');
  const logs = path.join(outDir, 'logs.jsonl.gz');
  for (const f of [trace, logs]) rmSync(f, { force: true });

  // 2 pre-started plugins, trace's 4 probes (09, 11, 21, 22) and the logger.
  const refrt = spawn(
    bin('refrt'),
    refrtArgs({
      socket,
      pluginDir: plugins,
      scenario: path.join(scratch, 'scenario.json'),
      script: path.join(scratch, 'script.json'),
      waitPlugins: 7,
      exitAfterScript: true,
    }),
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let stdout = '';
  refrt.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  for (let i = 0; i < 200 && !existsSync(socket); i++) await new Promise((r) => setTimeout(r, 50));
  const run = (args: string[]) =>
    new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [nrictl, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      child.on('close', (code) => resolve({ code, stderr }));
    });
  const recorders = Promise.all([
    run(['trace', '--socket', socket, '--plugin-dir', plugins, '--record', trace]),
    run(['logs', '--socket', socket, '--record', logs]),
  ]);
  const refrtExit = await new Promise<number | null>((resolve) => refrt.on('close', resolve));
  const [t, l] = await recorders;
  // Both end when refrt exits after its script (the runtime went away: 6), their recordings whole.
  for (const [name, r] of [
    ['trace', t],
    ['logs', l],
  ] as const)
    if (r.code !== 6) process.stderr.write(`nrictl ${name} exited ${r.code}:\n${r.stderr}\n`);
  for (const f of [trace, logs]) {
    const check = await checkRecording(f);
    process.stdout.write(
      `${f}: ${check.pods} pods, ${check.containers} containers, ${check.events} events, ${check.traces} traces\n`,
    );
  }
  if (refrtExit !== 0) throw new Error(`refrt exited ${refrtExit}`);

  const adjustments = stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { ev: string; container?: string; adjust?: unknown; update?: unknown })
    .filter((e) => e.ev === 'create_adjustment')
    .map((e) => ({ container: e.container, adjust: e.adjust ?? {}, update: e.update ?? [] }));
  writeFileSync(
    path.join(outDir, 'go-adjustments.json'),
    `${JSON.stringify({ recorded: { refrt: 'containerd/nri v0.12.2 pkg/adaptation', plugins: ['10-ulimit-adjuster', '20-device-injector'] }, adjustments }, null, 1)}\n`,
  );
  const files = ['trace.jsonl', 'logs.jsonl.gz', 'go-adjustments.json'];
  writeFileSync(
    path.join(outDir, 'SHA256SUMS'),
    files
      .map(
        (f) =>
          `${createHash('sha256')
            .update(readFileSync(path.join(outDir, f)))
            .digest('hex')}  ${f}\n`,
      )
      .join(''),
  );
  process.stdout.write(`wrote ${files.join(', ')} and SHA256SUMS to ${outDir}: ${adjustments.length} adjustments\n`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
