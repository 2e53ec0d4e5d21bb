import { writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, it, type ExpectStatic } from 'vitest';
import YAML from 'yaml';
import type { nri } from '../../src/api/index.js';
import type { SimEvent } from '../../src/runtime/events.js';
import { RuntimePeer } from '../plugin/peer.js';
import {
  demoState,
  runCli,
  startCli,
  startRuntime,
  tempDir,
  type CliOutcome,
  type CliRun,
  type SimHandle,
} from './nri-cli.js';
import { unpacedDemo } from '../support/unpaced-demo.js';

// The default subscription leaves ValidateContainerAdjustment out (see DEFAULT_LOG_EVENTS).
const LIFECYCLE = [
  'RunPodSandbox',
  'CreateContainer',
  'PostCreateContainer',
  'StartContainer',
  'PostStartContainer',
  'UpdateContainer',
  'PostUpdateContainer',
  'StopContainer',
  'RemoveContainer',
  'UpdatePodSandbox',
  'PostUpdatePodSandbox',
  'StopPodSandbox',
  'RemovePodSandbox',
];

const pod = (id: string, namespace: string, name: string, labels: Record<string, string> = {}): nri.IPodSandbox => ({
  id,
  namespace,
  name,
  uid: `uid-${id}`,
  labels,
});
const ctr = (id: string, podId: string, name: string, labels: Record<string, string> = {}): nri.IContainer => ({
  id,
  podSandboxId: podId,
  name,
  labels,
  linux: { resources: { cpu: { shares: { value: 256 }, cpus: '0-1' }, memory: { limit: { value: 256 * 2 ** 20 } } } },
});

/** Every lifecycle event once, for one pod and one container. */
async function walkLifecycle(
  expect: ExpectStatic,
  sim: SimHandle,
  p: nri.IPodSandbox,
  c: nri.IContainer,
): Promise<void> {
  const rt = sim.runtime;
  await rt.runPodSandbox(p);
  const created = await rt.createContainer(p.id!, c);
  expect(created.ok).toBe(true);
  await rt.startContainer(c.id!);
  await rt.updateContainer(c.id!, { cpu: { shares: { value: 512 }, cpus: '0-3' } });
  await rt.stopContainer(c.id!);
  await rt.removeContainer(c.id!);
  await rt.updatePodSandbox(p.id!, { memory: { limit: { value: 2 ** 30 } } });
  await rt.stopPodSandbox(p.id!);
  await rt.removePodSandbox(p.id!);
}

async function startLogger(
  sim: SimHandle,
  name: string,
  args: string[],
  opts: { collectStdout?: boolean } = {},
): Promise<CliRun> {
  const run = startCli(['logs', '--socket', sim.socketPath, '--plugin-name', name, ...args], opts);
  await Promise.race([
    sim.synchronized(`99-${name}`),
    run.exited.then(() => Promise.reject(new Error(`logger exited early: ${run.stderr()}`))),
  ]);
  return run;
}

/**
 * `nrictl logs` in this process against `on`: resolves once it synchronized, with its
 * outcome to come (the runtime going away ends it).
 */
async function runLogger(on: SimHandle, name: string, args: string[]): Promise<{ ended: Promise<CliOutcome> }> {
  const ended = runCli(['logs', '--socket', on.socketPath, '--plugin-name', name, ...args]);
  await Promise.race([
    on.synchronized(`99-${name}`),
    ended.then((r) => Promise.reject(new Error(`logger ended early: ${r.stderr}`))),
  ]);
  return { ended };
}

async function stop(run: CliRun, signal: NodeJS.Signals = 'SIGTERM') {
  run.child.kill(signal);
  const r = await run.exited;
  return { ...r, stdout: run.stdout(), stderr: run.stderr() };
}

const jsonEvents = (out: string): Array<Record<string, any>> =>
  out
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));

let sim: SimHandle;
let t: ReturnType<typeof tempDir>;
// The demo without its pauses, and a script for the filters: runs of logs --sim, to the
// script's end in this process, where what they print is all that is looked at.
let demo: string;
let filtered: string;
beforeAll(async () => {
  sim = await startRuntime(await demoState());
  t = tempDir('nrl-');
  demo = await unpacedDemo();
  filtered = path.join(t.dir, 'filters.yaml');
  const resources = { cpu_shares: 256, cpus: '0-1', memory_limit: 256 * 2 ** 20 };
  writeFileSync(
    filtered,
    YAML.stringify({
      pods: [],
      containers: [],
      steps: [
        { 'run-pod': { id: 'p3', name: 'web-3', namespace: 'shop', uid: 'uid-p3' } },
        { 'run-pod': { id: 'p4', name: 'db-0', namespace: 'data', uid: 'uid-p4' } },
        { create: { id: 'c3', pod: 'p3', name: 'nginx', labels: { tier: 'front' }, resources } },
        { create: { id: 'c4', pod: 'p3', name: 'envoy', resources } },
        { create: { id: 'c5', pod: 'p4', name: 'postgres', resources } },
        { update: { id: 'c5', resources: { cpu_shares: 1024 } } },
        { stop: 'c3' },
      ],
    }),
  );
});
afterAll(async () => {
  await sim.stop();
  t.cleanup();
});

// Beside the error tests below. The tests that log what happens on the shared simulator go
// one after the other (each would see the others' events); those with a simulator of their
// own go side by side.
describe.concurrent('nrictl logs against the simulator', () => {
  it.sequential('prints every lifecycle event in order as JSON, and a summary on SIGTERM', async ({ expect }) => {
    const run = await startLogger(sim, 'json-all', ['-o', 'json']);
    await walkLifecycle(expect, sim, pod('p1', 'shop', 'web-1'), ctr('c1', 'p1', 'nginx'));
    const r = await stop(run);
    expect(r.code).toBe(0);
    const events = jsonEvents(r.stdout);
    expect(events.map((e) => e.event)).toEqual(LIFECYCLE);
    const update = events.find((e) => e.event === 'UpdateContainer')!;
    expect(update.container.id).toBe('c1');
    expect(update.pod).toMatchObject({ id: 'p1', namespace: 'shop', name: 'web-1' });
    expect(update.linuxResources.cpu).toMatchObject({ shares: { value: '512' }, cpus: '0-3' });
    expect(update.previousResources.cpu).toMatchObject({ shares: { value: '256' }, cpus: '0-1' });
    expect(events.find((e) => e.event === 'PostStartContainer')!.container.state).toBe('CONTAINER_RUNNING');
    for (const e of events) expect(e.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/); // RFC 3339, UTC, ms, as sim -o json
    expect(r.stderr.trim().split('\n').at(-1)).toBe('nrictl logs: 13 events seen, 13 printed, 0 dropped');
  });

  it.sequential(
    'prints one text line per event with resources and old -> new on update; SIGINT also ends cleanly',
    async ({ expect }) => {
      const run = await startLogger(sim, 'text-all', []);
      await walkLifecycle(expect, sim, pod('p2', 'shop', 'web-2'), ctr('c2', 'p2', 'nginx'));
      const r = await stop(run, 'SIGINT');
      expect(r.code).toBe(0);
      const lines = r.stdout.trimEnd().split('\n');
      expect(lines.map((l) => l.split(/\s+/)[1])).toEqual(LIFECYCLE);
      expect(lines[1]).toMatch(
        /^\d\d:\d\d:\d\d\.\d{3} CreateContainer\s+shop\/web-2 nginx c2\s+cpus=0-1 memory=256Mi shares=256$/,
      );
      expect(lines[5]).toMatch(/UpdateContainer\s+shop\/web-2 nginx c2\s+cpus 0-1 -> 0-3, shares 256 -> 512$/);
      expect(lines[0]).toMatch(/RunPodSandbox\s+shop\/web-2$/);
      expect(r.stdout).not.toMatch(/\x1b\[/);
    },
  );

  it('-o yaml: one document per event, the same data as -o json; the summary stays on stderr', async ({ expect }) => {
    const args = ['logs', '--sim', demo, '--events', 'runpod,create'];
    const [j, y] = await Promise.all([runCli([...args, '-o', 'json']), runCli([...args, '-o', 'yaml'])]);
    expect([j.code, y.code]).toEqual([0, 0]);
    expect(y.stdout.startsWith('---\n')).toBe(true);
    const docs = YAML.parseAllDocuments(y.stdout).map((d) => d.toJS() as Record<string, unknown>);
    expect(docs.map((d) => d.event)).toEqual(['RunPodSandbox', 'CreateContainer']);
    // Each logger stamps the time it saw the event; the rest is the same data.
    const untimed = ({ time, ...rest }: Record<string, unknown>) => (expect(time).toMatch(/Z$/), rest);
    expect(docs.map(untimed)).toEqual(jsonEvents(j.stdout).map(untimed));
    expect(y.stderr.trim().split('\n').at(-1)).toBe('nrictl logs: 2 events seen, 2 printed, 0 dropped');
  });

  it('applies --namespace, --pod, --container (glob), --label and --events', async ({ expect }) => {
    const [ns, ctrGlob, label, events, podGlob] = await Promise.all(
      [
        ['-n', 'shop'],
        ['--container', 'ng*'],
        ['-l', 'tier=front', '--events', 'all'],
        ['--events', 'create,update'],
        ['--pod', 'db-?', '--events', 'runpod,create'],
      ].map((filter) => runCli(['logs', '--sim', filtered, '-o', 'json', ...filter])),
    );
    const seen = (r: { stdout: string }) =>
      jsonEvents(r.stdout).map((e) => `${e.event}:${e.container?.id ?? e.pod.id}`);

    expect(seen(ns)).toEqual([
      'RunPodSandbox:p3',
      'CreateContainer:c3',
      'PostCreateContainer:c3',
      'CreateContainer:c4',
      'PostCreateContainer:c4',
      'StopContainer:c3',
    ]);
    expect(seen(ctrGlob)).toEqual(['CreateContainer:c3', 'PostCreateContainer:c3', 'StopContainer:c3']);
    expect(seen(label)).toEqual([
      'CreateContainer:c3',
      'ValidateContainerAdjustment:c3',
      'PostCreateContainer:c3',
      'StopContainer:c3',
    ]);
    expect(seen(events)).toEqual([
      'CreateContainer:c3',
      'CreateContainer:c4',
      'CreateContainer:c5',
      'UpdateContainer:c5',
    ]);
    expect(seen(podGlob)).toEqual(['RunPodSandbox:p4', 'CreateContainer:c5']);
    // Filtered events are counted as seen and filtered, never as dropped.
    expect(ctrGlob.stderr).toMatch(/nrictl logs: \d+ events seen, 3 printed, 0 dropped \(\d+ filtered out\)/);
    // The runtime only sends what was subscribed to.
    expect(events.stderr).toContain('nrictl logs: 4 events seen, 4 printed, 0 dropped');
    for (const r of [ns, ctrGlob, label, events, podGlob]) expect(r.code).toBe(0);
  });

  it.sequential(
    'answers every request in time while stdout is blocked, and counts every event it could not print',
    async ({ expect }) => {
      // 451 events, three times what fits in a 64 KiB pipe and the queue (some 150 do): drops.
      const cycles = 150;
      const before = sim.events.length;
      const run = await startLogger(sim, 'blocked', ['-o', 'json', '--buffer', '20'], { collectStdout: false });
      const p = pod('p5', 'load', 'flood-0');
      await sim.runtime.runPodSandbox(p);
      for (let i = 0; i < cycles; i++) {
        const c = ctr(`flood-${i}`, 'p5', `worker-${i}`, {
          'io.kubernetes.container.name': `worker-${i}`,
          padding: 'x'.repeat(400),
        });
        const created = await sim.runtime.createContainer('p5', c);
        expect(created.ok).toBe(true);
        await sim.runtime.removeContainer(c.id!);
      }
      // Every event reached the logger and was answered within the request timeout.
      const ours = sim.events
        .slice(before)
        .filter((e): e is Extract<SimEvent, { type: 'invoke' }> => e.type === 'invoke' && e.plugin === '99-blocked');
      const total = 1 + cycles * 3; // RunPodSandbox + Create, PostCreate, Remove per cycle
      expect(ours).toHaveLength(total);
      expect(Math.max(...ours.map((e) => e.rttMs))).toBeLessThan(sim.runtime.requestTimeoutMs);
      expect(
        sim.events
          .slice(before)
          .filter((e) => (e.type === 'dropped' || e.type === 'error') && 'plugin' in e && e.plugin === '99-blocked'),
      ).toEqual([]);

      // Now read: the output catches up, then the drop count is reported.
      run.stdout();
      await run.waitForStderr(/events? dropped: output could not keep up/);
      const r = await stop(run);
      expect(r.code).toBe(0);
      const printed = jsonEvents(r.stdout).length;
      const notices = [...r.stderr.matchAll(/nrictl logs: (\d+) events? dropped: output could not keep up/g)].map((m) =>
        Number(m[1]),
      );
      const dropped = notices.reduce((a, b) => a + b, 0);
      expect(dropped).toBeGreaterThan(0);
      expect(printed + dropped).toBe(total);
      expect(r.stderr).toContain(`nrictl logs: ${total} events seen, ${printed} printed, ${dropped} dropped`);
    },
  );

  it('exits 6 with a clear message when the runtime goes away', async ({ expect }) => {
    const own = await startRuntime(await demoState());
    const { ended } = await runLogger(own, 'gone', []);
    await own.runtime.runPodSandbox(pod('p6', 'shop', 'web-6'));
    await own.stop();
    const r = await ended;
    expect(r.code).toBe(6);
    const lines = r.stderr.trim().split('\n');
    expect(lines.at(-2)).toBe('nrictl logs: 1 event seen, 1 printed, 0 dropped');
    expect(lines.at(-1)).toMatch(
      /^Error: runtime closed the connection \(.*nri\.sock\).*: the runtime went away or restarted; --reconnect waits for it to come back$/,
    );
    expect(r.stdout).toMatch(/RunPodSandbox\s+shop\/web-6/);
  });

  it("--sim streams the demo scenario's script and exits 0 with the summary", async ({ expect }) => {
    const r = await runCli(['logs', '--sim', demo]);
    expect(r.code).toBe(0);
    const names = r.stdout
      .trimEnd()
      .split('\n')
      .map((l) => l.split(/\s+/)[1]);
    expect(names[0]).toBe('RunPodSandbox');
    expect(names).toContain('UpdateContainer');
    expect(names.at(-1)).toBe('RemovePodSandbox');
    expect(r.stderr).toMatch(/nrictl logs: (\d+) events seen, \1 printed, 0 dropped/);
    // The narrow line, as it has always been: the short id, the summary of the resources.
    const line = (event: string) =>
      r.stdout
        .split('\n')
        .find((l) => l.split(/\s+/)[1] === event)
        ?.slice(13);
    const who = 'shop/payments-5f4d9c8b7-qw7rt payments c5f6a7b8c9d0';
    expect(line('CreateContainer')).toBe(
      `${'CreateContainer'.padEnd(20)} ${who}  memory=256Mi quota=50000 period=100000 shares=256`,
    );
    expect(line('UpdateContainer')).toBe(
      `${'UpdateContainer'.padEnd(20)} ${who}  memory 256Mi -> 512Mi, quota 50000 -> 100000, shares 256 -> 512`,
    );
    expect(line('StartContainer')).toBe(`${'StartContainer'.padEnd(20)} ${who}`);
  });

  it("-o wide: the full ids, the pod's uid and cgroup parent and every resource field, one line per event into a pipe", async ({
    expect,
  }) => {
    const podId = 'f'.repeat(64);
    const ctrId = `${'0123456789abcdef'.repeat(4)}`;
    const scenario = path.join(t.dir, 'wide.yaml');
    writeFileSync(
      scenario,
      YAML.stringify({
        pods: [],
        containers: [],
        steps: [
          {
            'run-pod': {
              id: podId,
              name: 'web-0',
              uid: '3b0c7e52-8f1d-4c9a-9a57-2d1e6b4f0a11',
              namespace: 'shop',
              cgroup_parent: '/kubepods.slice/kubepods-pod3b0c7e52.slice',
            },
          },
          {
            create: {
              id: ctrId,
              pod: podId,
              name: 'app',
              resources: {
                cpus: '0-3',
                memory_limit: 536870912,
                memory_swap: 1073741824,
                pids_limit: 1024,
                hugepage_limits: [{ page_size: '2MB', limit: 1073741824 }],
                unified: { 'cpu.max': 'max 100000' },
                blockio_class: 'throttled',
              },
            },
          },
        ],
      }),
    );
    const r = await runCli(['logs', '--sim', scenario, '-o', 'wide']);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines.map((l) => l.split(/\s+/)[1])).toEqual(['RunPodSandbox', 'CreateContainer', 'PostCreateContainer']);
    const podWords = `pod-id=${podId} pod-uid=3b0c7e52-8f1d-4c9a-9a57-2d1e6b4f0a11 cgroup-parent=/kubepods.slice/kubepods-pod3b0c7e52.slice`;
    expect(lines[0].slice(13)).toBe(`${'RunPodSandbox'.padEnd(20)} shop/web-0  ${podWords}`);
    expect(lines[1].slice(13)).toBe(
      `${'CreateContainer'.padEnd(20)} shop/web-0 app ${ctrId}  ${podWords} cpus=0-3 memory=512Mi ` +
        'memory.swap=1Gi hugepageLimits.2MB=1Gi blockioClass=throttled unified.cpu.max="max 100000" pids.limit=1024',
    );
    // Narrow, the same event keeps its short id and the summary.
    const narrow = await runCli(['logs', '--sim', scenario]);
    expect(narrow.stdout.split('\n')[1].slice(13)).toBe(
      `${'CreateContainer'.padEnd(20)} shop/web-0 app ${ctrId.slice(0, 13)}  cpus=0-3 memory=512Mi`,
    );
  });

  it.sequential(
    'ends with the summary and exit 0 when its reader goes away (nrictl logs | head)',
    async ({ expect }) => {
      const run = await startLogger(sim, 'reader-gone', ['-o', 'json']);
      run.child.stdout.destroy();
      await sim.runtime.runPodSandbox(pod('p7', 'shop', 'web-7'));
      await sim.runtime.stopPodSandbox('p7');
      const r = await run.exited;
      expect(r.code).toBe(0);
      expect(run.stderr()).toMatch(/nrictl logs: \d+ events? seen, .* \(the output was closed by its reader\)/);
    },
  );
});

describe.concurrent('nrictl logs errors', () => {
  it('no socket: exit 4 with the fix', async ({ expect }) => {
    const sock = path.join(t.dir, 'none.sock');
    const r = await runCli(['logs', '--socket', sock]);
    expect(r.code).toBe(4);
    expect(r.stderr.trim()).toBe(
      `Error: no NRI socket at ${sock}: is NRI enabled in the runtime? To try nrictl without a runtime: --sim demo`,
    );
  });

  it('a runtime that rejects the registration: exit 5', async ({ expect }) => {
    const peer = await RuntimePeer.listen({
      register: () => {
        throw new Error('no room for 99-nrictl-logs');
      },
    });
    try {
      const r = await runCli(['logs', '--socket', peer.socketPath]);
      expect(r.code).toBe(5);
      expect(r.stderr).toMatch(
        /registration of plugin 99-nrictl-logs rejected by the runtime .*no room for 99-nrictl-logs/,
      );
    } finally {
      await peer.close();
    }
  });

  it('a --plugin-name the runtime would reject: exit 2 before connecting', async ({ expect }) => {
    const r = await runCli(['logs', '--socket', sim.socketPath, '--plugin-name', 'no/slash']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(
      'Error: --plugin-name "no/slash": invalid plugin name "no/slash": contains invalid character \'/\': use letters, digits and _ . + - only',
    );
  });

  it('a runtime that never answers the registration: exit 5 after the timeout', async ({ expect }) => {
    const sock = path.join(t.dir, 'mute.sock');
    const mute = net.createServer(() => {}).listen(sock);
    try {
      const r = await runCli(['logs', '--socket', sock]);
      expect(r.code).toBe(5);
      expect(r.stderr).toMatch(
        /registration of plugin 99-nrictl-logs not completed within 5s: no answer to RegisterPlugin/,
      );
    } finally {
      mute.close();
    }
  });

  it('an unknown event name is a usage error', async ({ expect }) => {
    const r = await runCli(['logs', '--socket', sim.socketPath, '--events', 'create,explode']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('unknown event "explode"');
  });
});
