import { stripVTControlCharacters } from 'node:util';
import { beforeAll, describe, it, type ExpectStatic, type TestContext } from 'vitest';
import type { nri } from '../../src/api/index.js';
import {
  assertBuilt,
  KEY,
  nrictl,
  nrictlOnTerminal,
  signalKey,
  startDemoSim,
  type SimHandle as Sim,
} from './nri-cli.js';

const REDIS = 'c2c3d4e5f6a7';
type Resources = nri.ILinuxResources;

beforeAll(() => assertBuilt('update'));

/**
 * The demo node's simulator for this test alone, stopped when it ends: the tests run side
 * by side, and each compares the whole state before and after, or counts what was sent.
 */
async function demoSim({ onTestFinished }: Pick<TestContext, 'onTestFinished'>): Promise<Sim> {
  const sim = await startDemoSim();
  onTestFinished(() => sim.stop());
  return sim;
}

const update = (sim: Sim, ...args: string[]) => nrictl('update', '--socket', sim.socketPath, ...args);
const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;
const registrations = (sim: Sim) => sim.of('registered').length;

/**
 * Runs an update and checks the whole simulated state: the target container's
 * resources became `expect(before)` and nothing else anywhere changed.
 */
async function expectOnlyChange(
  { sim, expect }: { sim: Sim; expect: ExpectStatic },
  args: string[],
  change: (r: Resources) => void,
  target = REDIS,
) {
  const before = sim.snapshot();
  const r = await update(sim, target, '--yes', ...args);
  expect(r.code, r.stderr).toBe(0);
  const want = clone(before);
  const ctr = want.containers.find((c) => c.id === target)!;
  const res = clone(ctr.linux?.resources ?? {});
  change(res);
  ctr.linux = { ...(ctr.linux ?? {}), resources: res };
  expect(sim.snapshot()).toEqual(want);
  expect(r.stdout).toMatch(/Applied/);
  expect(r.stdout).toMatch(/Confirmed by a new Synchronize/);
  return r;
}

describe.concurrent('nrictl update: every flag changes its field and only that', () => {
  /** Sets redis's CPU period before the update: one the flag's default would not give. */
  const period200k = (sim: Sim): void => {
    sim.runtime.state.mustContainer(REDIS).linux!.resources!.cpu!.period = { value: 200000 };
  };
  const cases: Array<[string, string[], (r: Resources) => void, ((sim: Sim) => void)?]> = [
    ['--cpus', ['--cpus', '0-3'], (r) => void (r.cpu!.cpus = '0-3')],
    ['--cpuset-cpus (alias)', ['--cpuset-cpus', '6,4'], (r) => void (r.cpu!.cpus = '4,6')],
    ['--mems', ['--mems', '0-1'], (r) => void (r.cpu!.mems = '0-1')],
    ['--cpuset-mems (alias)', ['--cpuset-mems', '1'], (r) => void (r.cpu!.mems = '1')],
    ['--cpu-shares', ['--cpu-shares', '512'], (r) => void (r.cpu!.shares = { value: 512 })],
    ['--cpu-share (alias)', ['--cpu-share', '256'], (r) => void (r.cpu!.shares = { value: 256 })],
    ['--cpu-quota', ['--cpu-quota', '50000'], (r) => void (r.cpu!.quota = { value: 50000 })],
    ['--cpu-period', ['--cpu-period', '200000'], (r) => void (r.cpu!.period = { value: 200000 })],
    // quota over the container's current period (200000, not the default 100000)
    [
      '--cpu-limit',
      ['--cpu-limit', '1.5'],
      (r) => void (r.cpu!.quota = { value: 1.5 * Number(r.cpu!.period!.value) }),
      period200k,
    ],
    [
      '--cpu-realtime-runtime',
      ['--cpu-realtime-runtime', '5000'],
      (r) => void (r.cpu!.realtimeRuntime = { value: 5000 }),
    ],
    [
      '--cpu-realtime-period',
      ['--cpu-realtime-period', '1000000'],
      (r) => void (r.cpu!.realtimePeriod = { value: 1000000 }),
    ],
    ['--memory', ['--memory', '2Gi'], (r) => void (r.memory!.limit = { value: 2 * 1024 ** 3 })],
    [
      '--memory-reservation',
      ['--memory-reservation', '512Mi'],
      (r) => void (r.memory!.reservation = { value: 512 * 1024 ** 2 }),
    ],
    ['--memory-swap', ['--memory-swap', '4G'], (r) => void (r.memory!.swap = { value: 4e9 })],
    ['--swappiness', ['--swappiness', '10'], (r) => void (r.memory!.swappiness = { value: 10 })],
    [
      '--hugepage-limit (repeated)',
      ['--hugepage-limit', '2MB=1Gi', '--hugepage-limit', '1GB=2Gi'],
      (r) =>
        void (r.hugepageLimits = [
          { pageSize: '2MB', limit: 1024 ** 3 },
          { pageSize: '1GB', limit: 2 * 1024 ** 3 },
        ]),
    ],
    ['--blockio-class', ['--blockio-class', 'throttled'], (r) => void (r.blockioClass = { value: 'throttled' })],
    ['--rdt-class', ['--rdt-class', 'guaranteed'], (r) => void (r.rdtClass = { value: 'guaranteed' })],
    ['--pids-limit', ['--pids-limit', '100'], (r) => void (r.pids = { limit: 100 })],
    [
      '--unified (repeated)',
      ['--unified', 'memory.high=1G', '--unified', 'io.weight=200'],
      (r) => void (r.unified = { 'memory.high': '1G', 'io.weight': '200' }),
    ],
  ];
  for (const [name, args, change, prepare] of cases) {
    it(name, async ({ expect, onTestFinished }) => {
      const sim = await demoSim({ onTestFinished });
      prepare?.(sim);
      await expectOnlyChange({ sim, expect }, args, change);
    });
  }

  it('--cpu-limit on a container without a period sends the default period with the quota', async ({
    expect,
    onTestFinished,
  }) => {
    const sim = await demoSim({ onTestFinished });
    // coredns has no CPU quota or period in the demo
    await expectOnlyChange(
      { sim, expect },
      ['--cpu-limit', '0.5'],
      (r) => void (r.cpu = { ...r.cpu, quota: { value: 50000 }, period: { value: 100000 } }),
      'c4e5f6a7b8c9',
    );
  });

  it('the preview says which CPUs --cpus means, current -> new', async ({ expect, onTestFinished }) => {
    const sim = await demoSim({ onTestFinished });
    const r = await update(sim, REDIS, '--cpus', '0-2,8', '--dry-run');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/cpuset CPUs\s+CPUs [\d,]+ -> CPUs 0,1,2,8/);
  });

  it('--ignore-failure is carried in the update', async ({ expect, onTestFinished }) => {
    const sim = await demoSim({ onTestFinished });
    const n = sim.of('updated').length;
    await expectOnlyChange(
      { sim, expect },
      ['--cpu-shares', '300', '--ignore-failure'],
      (r) => void (r.cpu!.shares = { value: 300 }),
    );
    const sent = sim.of('updated').slice(n);
    expect(sent).toHaveLength(1);
    expect(sent[0].update.ignoreFailure).toBe(true);
    expect(sent[0].source).toBe('unsolicited');
  });
});

describe.concurrent('nrictl update: which container', () => {
  const lastUpdated = (sim: Sim) => sim.of('updated').at(-1)?.container;
  for (const [form, query] of [
    ['full id', REDIS],
    ['unique id prefix', 'c2c'],
    ['pod/container', 'redis-0/redis'],
    ['namespace/pod/container', 'shop/redis-0/redis'],
  ] as const) {
    it(`resolves a ${form}`, async ({ expect, onTestFinished }) => {
      const sim = await demoSim({ onTestFinished });
      const n = sim.of('updated').length;
      const r = await update(sim, query, '--yes', '--pids-limit', '123');
      expect(r.code).toBe(0);
      expect(sim.of('updated')).toHaveLength(n + 1);
      expect(lastUpdated(sim)).toBe(REDIS);
      expect(r.stdout).toContain(`shop/redis-0/redis (${REDIS})`);
    });
  }

  it('lists the candidates of an ambiguous prefix, exits 2 and sends nothing', async ({ expect, onTestFinished }) => {
    const sim = await demoSim({ onTestFinished });
    const n = sim.of('updated').length;
    const r = await update(sim, 'c', '--yes', '--pids-limit', '5');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/"c" matches 5 containers/);
    for (const id of ['c0a1b2c3d4e5', 'c1b2c3d4e5f6', 'c2c3d4e5f6a7', 'c3d4e5f6a7b8', 'c4e5f6a7b8c9'])
      expect(r.stderr).toContain(id);
    expect(sim.of('updated')).toHaveLength(n);
  });

  it('refuses an unknown container right after Synchronize, suggesting a name match', async ({
    expect,
    onTestFinished,
  }) => {
    const sim = await demoSim({ onTestFinished });
    const n = registrations(sim);
    const u = sim.of('updated').length;
    const r = await update(sim, 'redis', '--yes', '--pids-limit', '5');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/no container with id or id prefix "redis".*did you mean shop\/redis-0\/redis/);
    expect(registrations(sim)).toBe(n + 1); // it had to connect to know
    expect(sim.of('updated')).toHaveLength(u);
  });
});

describe.concurrent('nrictl update --dry-run', () => {
  it('prints the exact request as JSON and sends nothing', async ({ expect, onTestFinished }) => {
    const sim = await demoSim({ onTestFinished });
    const before = sim.snapshot();
    const n = sim.of('updated').length;
    const r = await update(
      sim,
      'shop/redis-0/redis',
      '--dry-run',
      '-o',
      'json',
      '--cpus',
      '1-2',
      '--memory',
      '768Mi',
      '--unified',
      'memory.high=1G',
    );
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      update: [
        {
          containerId: REDIS,
          linux: {
            resources: {
              cpu: { cpus: '1-2' },
              memory: { limit: { value: String(768 * 1024 ** 2) } },
              unified: { 'memory.high': '1G' },
            },
          },
        },
      ],
    });
    expect(r.stderr).toMatch(/Dry run: nothing was sent/);
    expect(sim.of('updated')).toHaveLength(n);
    expect(sim.snapshot()).toEqual(before);
  });
});

describe.concurrent('nrictl update: the runtime refuses', () => {
  it('reports a failed update with exit 7', async ({ expect, onTestFinished }) => {
    const sim = await demoSim({ onTestFinished });
    // The container disappears from the runtime's view between our Synchronize and the update.
    sim.runtime.state.addContainer({ id: 'dd00aa11bb22', podSandboxId: '9a4e7b1f3c28', name: 'doomed', state: 3 });
    const vanish = (e: { type: string; plugin?: string }) => {
      if (e.type === 'synchronized' && e.plugin === '99-nrictl-update') {
        sim.runtime.off('event', vanish);
        sim.runtime.state.removeContainer('dd00aa11bb22');
      }
    };
    sim.runtime.on('event', vanish);
    const r = await update(sim, 'dd00', '--yes', '--memory', '1Gi');
    expect(r.code).toBe(7);
    expect(r.stderr).toMatch(/did not apply the update to shop\/redis-0\/doomed \(dd00aa11bb22\)/);
    const last = sim.of('updated').at(-1)!;
    expect(last.container).toBe('dd00aa11bb22');
    expect(last.failed).toBe(true);
  });
});

// Every bad value's message is the library's (test/control/resource-flags.test.ts, in
// process): here, that the command refuses through it before it connects, with exit 2.
describe.concurrent('nrictl update: bad input is refused before connecting', () => {
  const bad: Array<[string[], RegExp]> = [
    [[REDIS], /nothing to update/],
    [[REDIS, '--cpus', '3-1'], /--cpus.*reversed/],
    [[REDIS, '--memory', '1Gi', '--memory-swap', '512Mi'], /--memory-swap .* must be at least the memory limit/],
  ];
  it.for(bad)('update %j', async ([args, message], { expect, onTestFinished }) => {
    const sim = await demoSim({ onTestFinished });
    const r = await update(sim, ...args);
    expect(r.stderr).toMatch(message);
    expect(r.code).toBe(2);
    expect(registrations(sim)).toBe(0);
  });
});

describe.concurrent('nrictl update: the picker', () => {
  it('without a terminal and without a container, refuses with a clear message before connecting', async ({
    expect,
    onTestFinished,
  }) => {
    const sim = await demoSim({ onTestFinished });
    const r = await update(sim, '--cpus', '0-1');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/no container given, and no terminal to pick one on/);
    expect(registrations(sim)).toBe(0);
  });

  it('on a terminal, lists the containers, takes the choice and asks before sending', async ({
    expect,
    onTestFinished,
  }) => {
    const sim = await demoSim({ onTestFinished });
    const before = sim.container('c3d4e5f6a7b8');
    const t = await nrictlOnTerminal(
      ['update', '--socket', sim.socketPath, '--cpus', '0-1'],
      [
        // sorted: kube-system/coredns, shop/checkout, shop/envoy, shop/redis, shop/redis-exporter
        { after: 'Container to update', send: KEY.down },
        { after: 'Container to update', send: KEY.down },
        { after: 'Container to update', send: KEY.down },
        { after: 'Container to update', send: KEY.down },
        { after: 'Container to update', send: KEY.enter },
        { after: 'Send this update to shop/redis-0/redis-exporter?', send: 'y' },
        { after: 'Send this update to shop/redis-0/redis-exporter?', send: KEY.enter },
      ],
      { columns: 160 },
    );
    expect(t.screen).toContain('kube-system/coredns-76f75df574-8zj4k/coredns');
    expect(t.screen).toMatch(/Applied/);
    expect(t.code).toBe(0);
    const after = sim.container('c3d4e5f6a7b8');
    expect(after.linux?.resources?.cpu?.cpus).toBe('0-1');
    expect({
      ...after,
      linux: {
        ...after.linux,
        resources: {
          ...after.linux!.resources,
          cpu: { ...after.linux!.resources!.cpu, cpus: before.linux?.resources?.cpu?.cpus ?? '' },
        },
      },
    }).toEqual(
      JSON.parse(
        JSON.stringify({
          ...before,
          linux: {
            ...before.linux,
            resources: { ...before.linux!.resources, cpu: { ...before.linux!.resources!.cpu, cpus: '' } },
          },
        }),
      ),
    );
  });

  it('on an 80-column terminal every row fits: names are shortened in the middle, whole on a wider one', async ({
    expect,
    onTestFinished,
  }) => {
    const sim = await demoSim({ onTestFinished });
    const ids = ['c4e5f6a7b8c9', 'c0a1b2c3d4e5', 'c1b2c3d4e5f6', 'c2c3d4e5f6a7', 'c3d4e5f6a7b8'];
    const n = sim.of('updated').length;
    const t = await nrictlOnTerminal(
      ['update', '--socket', sim.socketPath, '--cpus', '0-1'],
      [{ after: 'Container to update', send: KEY.ctrlC }],
      { columns: 80, env: { COLUMNS: undefined } },
    );
    // A row wider than the terminal is wrapped by the prompt: its memory column would
    // land on a line of its own. Each row is a line of the screen, cursor moves aside.
    const lines = stripVTControlCharacters(t.screen).split(/\r?\n/);
    for (const id of ids) {
      const rows = lines.filter((l) => l.includes(id));
      expect(rows.length, id).toBeGreaterThan(0);
      for (const row of rows) {
        expect(row, id).toMatch(/ mem \d+[KMG]i$/);
        expect(row.length, row).toBeLessThanOrEqual(80);
      }
    }
    expect(t.screen).toMatch(/kube-system\/cored\S*…\S*\/coredns +c4e5f6a7b8c9/);
    // Ctrl-C in the picker: nothing was sent.
    expect(t.screen).toContain('cancelled: nothing was sent');
    expect(t.code).toBe(1);
    expect(sim.of('updated')).toHaveLength(n);
  });

  it('SIGTERM at the question: "cancelled: nothing was sent", exit 1', async ({ expect, onTestFinished }) => {
    const sim = await demoSim({ onTestFinished });
    const n = sim.of('updated').length;
    const t = await nrictlOnTerminal(
      ['update', '--socket', sim.socketPath, REDIS, '--memory', '3Gi'],
      [{ after: 'Send this update to shop/redis-0/redis?', send: signalKey('SIGTERM') }],
    );
    expect(t.screen).toMatch(/Error: cancelled: nothing was sent/);
    expect(t.code).toBe(1);
    expect(sim.of('updated')).toHaveLength(n);
  });

  it('on a terminal, a declined confirmation sends nothing', async ({ expect, onTestFinished }) => {
    const sim = await demoSim({ onTestFinished });
    const n = sim.of('updated').length;
    const t = await nrictlOnTerminal(
      ['update', '--socket', sim.socketPath, REDIS, '--memory', '3Gi'],
      [{ after: 'Send this update to shop/redis-0/redis?', send: KEY.enter }],
    );
    expect(t.screen).toMatch(/not confirmed: nothing was sent/);
    expect(t.code).toBe(1);
    expect(sim.of('updated')).toHaveLength(n);
  });
});
