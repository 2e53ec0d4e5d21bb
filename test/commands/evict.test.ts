import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nri } from '../../src/api/index.js';
import { assertBuilt, nrictl, startDemoSim, type SimHandle as Sim } from './nri-cli.js';

const EXPORTER = 'c3d4e5f6a7b8';

let sim: Sim;
beforeAll(async () => {
  assertBuilt('evict');
  sim = await startDemoSim();
});
afterAll(() => sim?.stop());

const evict = (...args: string[]) => nrictl('evict', '--socket', sim.socketPath, ...args);

describe('nrictl evict', () => {
  it('says before sending that runtimes drop evictions, sends one ContainerEviction, and reports the container still running', async () => {
    const r = await evict('shop/redis-0/redis-exporter', '--reason', 'leaking memory, INC-1234', '--yes');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /^Warning: NRI runtimes accept an eviction and drop it \(the Go NRI adaptation in containerd and CRI-O passes none on; .*\): the container will keep running\. To stop it, use crictl stop or kubectl delete pod\.$/m,
    );
    // The request went out as sent, and the simulator, like the Go adaptation, dropped it.
    expect(sim.of('evicted')).toEqual([
      expect.objectContaining({
        plugin: '99-nrictl-evict',
        container: EXPORTER,
        reason: 'leaking memory, INC-1234',
        via: 'UpdateContainers',
        applied: false,
      }),
    ]);
    expect(sim.of('updated')).toHaveLength(0);
    expect(sim.container(EXPORTER).state).toBe(nri.ContainerState.CONTAINER_RUNNING);
    // Said before sending.
    expect(r.stdout.indexOf('Warning: NRI runtimes')).toBeLessThan(
      r.stdout.indexOf('Sent: the runtime accepted the eviction request'),
    );
    expect(r.stdout).toMatch(
      /still lists the container \(running\): as expected, the runtime did not act on the eviction/,
    );
  });

  it('--dry-run -o json prints the exact request and sends nothing', async () => {
    const n = sim.of('evicted').length;
    const r = await evict('c3d4', '--reason', 'test', '--dry-run', '-o', 'json');
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ evict: [{ containerId: EXPORTER, reason: 'test' }] });
    expect(sim.of('evicted')).toHaveLength(n);
  });

  it('resolves like update: an ambiguous prefix lists candidates and exits 2', async () => {
    const n = sim.of('evicted').length;
    const r = await evict('c', '--reason', 'x', '--yes');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/"c" matches 5 containers: .*c3d4e5f6a7b8 shop\/redis-0\/redis-exporter/);
    expect(sim.of('evicted')).toHaveLength(n);
  });

  it.each([
    [[EXPORTER], /--reason is required/],
    [[EXPORTER, '--reason', '  '], /--reason is empty/],
    [['--reason', 'x'], /no container given, and no terminal/],
  ])('refuses %j before connecting', async (args, message) => {
    const n = sim.of('registered').length;
    const r = await evict(...args);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(sim.of('registered')).toHaveLength(n);
  });
});
