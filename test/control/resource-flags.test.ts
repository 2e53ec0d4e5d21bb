import { describe, expect, it } from 'vitest';
import {
  buildLinuxResources,
  ControlInputError,
  diffResources,
  parseResourceFlags,
  resolveContainer,
  ContainerLookupError,
  verifyResources,
} from '../../src/control/index.js';
import { formatDiff } from '../../src/views/index.js';

describe('parseResourceFlags / buildLinuxResources', () => {
  it('sets only the fields given', () => {
    const r = buildLinuxResources(parseResourceFlags({ cpus: '8,0-3', memory: '1.5Gi' }), undefined);
    expect(r).toEqual({ cpu: { cpus: '0-3,8' }, memory: { limit: { value: 1610612736 } } });
  });

  it('--cpu-limit uses --cpu-period, then the current period, then 100000 (and sends it)', () => {
    expect(buildLinuxResources(parseResourceFlags({ 'cpu-limit': '2', 'cpu-period': '50000' }), undefined).cpu).toEqual(
      { quota: { value: 100000 }, period: { value: 50000 } },
    );
    expect(
      buildLinuxResources(parseResourceFlags({ 'cpu-limit': '0.25' }), { cpu: { period: { value: 200000 } } }).cpu,
    ).toEqual({ quota: { value: 50000 } });
    expect(buildLinuxResources(parseResourceFlags({ 'cpu-limit': '1.5' }), {}).cpu).toEqual({
      quota: { value: 150000 },
      period: { value: 100000 },
    });
  });

  it('accepts -1 as "no limit" where the kernel does, and normalises hugepage sizes', () => {
    const c = parseResourceFlags({
      memory: '-1',
      'memory-swap': '-1',
      'cpu-quota': '-1',
      'pids-limit': '-1',
      'hugepage-limit': ['2Mi=1Gi', '2MB=2Gi', '1gb=1G'],
    });
    expect(c).toMatchObject({ memoryLimit: -1, memorySwap: -1, quota: -1, pidsLimit: -1 });
    expect(c.hugepageLimits).toEqual([
      { pageSize: '2MB', limit: 2 * 1024 ** 3 },
      { pageSize: '1GB', limit: 1e9 },
    ]);
  });

  it('names the flag in every refusal', () => {
    for (const [flags, flag] of [
      [{ cpus: '1-' }, '--cpus'],
      [{ 'cpu-period': '100' }, '--cpu-period'],
      [{ swappiness: '-1' }, '--swappiness'],
      [{ 'memory-reservation': '2X' }, '--memory-reservation'],
      [{ unified: ['Memory.High=1'] }, '--unified'],
    ] as const) {
      const err = (() => {
        try {
          parseResourceFlags(flags);
        } catch (e) {
          return e;
        }
        return undefined;
      })();
      expect(err).toBeInstanceOf(ControlInputError);
      expect((err as ControlInputError).flag).toBe(flag);
      expect((err as Error).message).toContain(flag);
    }
  });
});

// What `nrictl update` says of each bad value, before it connects (the command's own
// refusal, exit 2 and nothing sent, is test/commands/update.test.ts's).
describe('parseResourceFlags refuses each bad value with a message that names the flag and the fix', () => {
  const bad: Array<[Record<string, string | string[]>, RegExp]> = [
    [{ cpus: '3-1' }, /--cpus.*reversed/],
    [{ cpus: 'two' }, /--cpus.*invalid cpuset/],
    [{ cpus: '1.5' }, /^--cpus 1.5 is not a list of CPUs: .*use --cpu-limit 1.5$/],
    [{ cpus: '' }, /--cpus is empty/],
    [{ mems: '0,,1' }, /--mems.*empty item/],
    [{ 'cpu-shares': '-5' }, /--cpu-shares -5 is out of range/],
    [{ 'cpu-shares': '1.5' }, /--cpu-shares "1.5" is not a whole number/],
    [{ swappiness: '101' }, /--swappiness 101 is out of range/],
    [{ memory: '1Q' }, /--memory.*unknown suffix 'Q'/],
    [{ memory: '512m' }, /--memory.*'m' means thousandths/],
    [{ memory: '-5Gi' }, /--memory.*negative/],
    [{ 'memory-reservation': '-1' }, /--memory-reservation.*negative/],
    [{ memory: '1Gi', 'memory-swap': '512Mi' }, /--memory-swap .* must be at least the memory limit/],
    [{ 'cpu-quota': '50000', 'cpu-period': '999' }, /--cpu-period 999 is out of range/],
    [{ 'cpu-quota': '50000', 'cpu-period': '2000000' }, /--cpu-period 2000000 is out of range/],
    [{ 'cpu-quota': '-2' }, /--cpu-quota -2 is out of range/],
    [{ 'cpu-limit': '0' }, /--cpu-limit "0" is not a positive number/],
    [{ 'cpu-limit': '1', 'cpu-quota': '5000' }, /--cpu-limit and --cpu-quota/],
    [{ 'cpu-realtime-runtime': '2000', 'cpu-realtime-period': '1000' }, /longer than --cpu-realtime-period/],
    [{ 'hugepage-limit': ['2MB'] }, /--hugepage-limit "2MB" is not SIZE=LIMIT/],
    [{ 'hugepage-limit': ['3XB=1Gi'] }, /page size "3XB"/],
    [{ unified: ['nokey'] }, /--unified "nokey" is not key=value/],
    [{ 'pids-limit': '-3' }, /--pids-limit -3 is out of range/],
    [{ 'pids-limit': '0' }, /--pids-limit 0/],
    [{ 'blockio-class': ' ' }, /--blockio-class is empty/],
  ];
  it.each(bad)('%j', (flags, message) => {
    expect(() => parseResourceFlags(flags)).toThrow(ControlInputError);
    expect(() => parseResourceFlags(flags)).toThrow(message);
  });
});

describe('preview and verification', () => {
  const current = { cpu: { cpus: '2-3', quota: { value: 100000 } }, memory: { limit: { value: 1073741824 } } };
  it('shows current -> new for each field set, in words', () => {
    const update = buildLinuxResources(
      parseResourceFlags({ cpus: '0-3', memory: '2Gi', unified: ['memory.high=1G'] }),
      current,
    );
    const text = formatDiff(diffResources(current, update));
    expect(text).toMatch(/cpuset CPUs\s+CPUs 2,3 -> CPUs 0,1,2,3\n/);
    expect(text).toMatch(/memory limit\s+1Gi \(1073741824 bytes\) -> 2Gi \(2147483648 bytes\)\n/);
    expect(text).toMatch(/cgroup v2 memory.high\s+unset -> "1G"\n/);
    expect(text).not.toMatch(/quota/);
  });

  it('tells confirmed fields from those a later state does not show', () => {
    const requested = { cpu: { cpus: '0-3' }, memory: { limit: { value: 5 } } };
    const v = verifyResources(requested, { cpu: { cpus: '0-3' }, memory: { limit: { value: 7 } } });
    expect(v.confirmed.map((c) => c.path)).toEqual(['cpu.cpus']);
    expect(v.differing.map((c) => [c.path, c.before])).toEqual([['memory.limit', '7 (7 bytes)']]);
  });
});

describe('resolveContainer', () => {
  const pods = [
    { id: 'p1', name: 'web', namespace: 'a' },
    { id: 'p2', name: 'web', namespace: 'b' },
  ];
  const containers = [
    { id: 'abc123', podSandboxId: 'p1', name: 'app' },
    { id: 'abd456', podSandboxId: 'p2', name: 'app' },
    { id: 'abc', podSandboxId: 'p2', name: 'side' },
  ];
  it('prefers an exact id over a prefix of a longer one', () => {
    expect(resolveContainer('abc', pods, containers).container.id).toBe('abc');
  });
  it('needs the namespace when pod/container is in two namespaces', () => {
    expect(() => resolveContainer('web/app', pods, containers)).toThrow(/matches 2 containers.*add the namespace/);
    expect(resolveContainer('b/web/app', pods, containers).container.id).toBe('abd456');
  });
  it('reports the candidates of an ambiguous prefix', () => {
    try {
      resolveContainer('ab', pods, containers);
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ContainerLookupError);
      expect((err as ContainerLookupError).reason).toBe('ambiguous');
      expect((err as ContainerLookupError).candidates.map((c) => c.id).sort()).toEqual(['abc', 'abc123', 'abd456']);
    }
  });
  it('refuses malformed names', () => {
    expect(() => resolveContainer('a//app', pods, containers)).toThrow(/is not pod\/container/);
  });
});
