import { describe, expect, it } from 'vitest';
import { Event, nri } from '../../src/api/index.js';
import { EventLog, type LoggedEvent } from '../../src/observe/event-log.js';
import { ObjectFilter } from '../../src/observe/filters.js';
import { renderRecord } from '../../src/output/index.js';
import { logEventView, loggedEventData } from '../../src/views/index.js';

/** An event as logs writes it: a line (table), a JSON object on its line, or a YAML document. */
const renderLoggedEvent = (e: LoggedEvent, format: 'table' | 'json' | 'yaml'): string =>
  renderRecord(logEventView, e, format, { width: undefined, wide: false });

const pod = nri.PodSandbox.fromObject({ id: 'p1', namespace: 'shop', name: 'web-1' });
const ctr = (shares: number, cpus = '0-1') =>
  nri.Container.fromObject({
    id: 'c1',
    podSandboxId: 'p1',
    name: 'nginx',
    state: 3,
    linux: { resources: { cpu: { shares: { value: shares }, cpus } } },
  });

/** c1, running, with these resources. */
const running = (resources: nri.ILinuxResources) =>
  nri.Container.fromObject({ id: 'c1', podSandboxId: 'p1', name: 'nginx', state: 3, linux: { resources } });

function logger(filter = new ObjectFilter()) {
  const got: LoggedEvent[] = [];
  const log = new EventLog(filter, (e) => got.push(e));
  return { log, h: log.handlers(), got };
}

const syncPayload = (pods: nri.IPodSandbox[], containers: nri.IContainer[]): Buffer =>
  Buffer.from(nri.SynchronizeRequest.encode({ pods, containers }).finish());
/** Lets the batched decoding of a Synchronize state run to its end. */
const decoded = async (): Promise<void> => {
  for (let i = 0; i < 100; i++) await new Promise((r) => setImmediate(r));
};
const many = (n: number, from = 0) =>
  Array.from({ length: n }, (_, i) =>
    nri.Container.fromObject({
      id: `c${from + i}`,
      podSandboxId: 'p1',
      name: `n${i}`,
      linux: { resources: { cpu: { shares: { value: 100 } } } },
    }),
  );

describe('EventLog', () => {
  it('takes Synchronize undecoded and decodes it afterwards, a slice per turn of the event loop', async () => {
    const { log, h } = logger();
    h.synchronizeRaw!([syncPayload([pod], many(1200)), syncPayload([], many(300, 1200))]);
    expect(log.tracked).toBe(0); // nothing decoded on the reply path
    await new Promise((r) => setImmediate(r));
    expect(log.tracked).toBe(500); // one slice
    await decoded();
    expect(log.tracked).toBe(1500);
  });

  it('what an event says while Synchronize is decoded wins over the older state', async () => {
    const { log, h, got } = logger();
    h.synchronizeRaw!([syncPayload([pod], [...many(1000, 10), ctr(256)])]);
    await h.updateContainer!(pod, ctr(256), nri.LinuxResources.fromObject({ cpu: { shares: { value: 512 } } }));
    await h.removeContainer!(pod, many(1, 10)[0]);
    await decoded();
    await h.updateContainer!(pod, ctr(512), nri.LinuxResources.fromObject({ cpu: { shares: { value: 768 } } }));
    expect(renderLoggedEvent(got.at(-1)!, 'table')).toContain('shares 512 -> 768');
    expect(log.tracked).toBe(1000); // c10 removed during the decoding stays removed
  });

  it('shows an update as old -> new from what Synchronize said', async () => {
    const { h, got } = logger();
    h.synchronizeRaw!([syncPayload([pod], [ctr(256)])]);
    await decoded();
    await h.updateContainer!(
      pod,
      ctr(256),
      nri.LinuxResources.fromObject({ cpu: { shares: { value: 512 }, cpus: '0-3' } }),
    );
    expect(got).toHaveLength(1);
    expect(renderLoggedEvent(got[0], 'table')).toMatch(
      /UpdateContainer\s+shop\/web-1 nginx c1\s+cpus 0-1 -> 0-3, shares 256 -> 512\n$/,
    );
    // After the update, PostUpdate with the expected result is quiet.
    await h.postUpdateContainer!(pod, ctr(512, '0-3'));
    expect(renderLoggedEvent(got[1], 'table')).toMatch(/PostUpdateContainer\s+shop\/web-1 nginx c1\n$/);
  });

  it('reads the zeros containerd 1.7 sends for untouched fields as "not set"', async () => {
    // crictl update --cpu-share 300 against containerd 1.7: shares 300, every other number 0, as on the wire.
    const current = running({
      memory: { limit: { value: 128 * 2 ** 20 } },
      cpu: { shares: { value: 256 }, quota: { value: 50000 }, period: { value: 100000 } },
    });
    const wire = nri.UpdateContainerRequest.decode(
      nri.UpdateContainerRequest.encode({
        pod,
        container: current,
        linuxResources: {
          memory: { limit: { value: 0 }, swap: { value: 0 } },
          cpu: { shares: { value: 300 }, quota: { value: 0 }, period: { value: 0 }, cpus: '', mems: '' },
        },
      }).finish(),
    );
    const { h, got } = logger();
    h.synchronizeRaw!([syncPayload([pod], [current])]);
    await decoded();
    await h.updateContainer!(wire.pod!, wire.container!, wire.linuxResources);
    expect(renderLoggedEvent(got[0], 'table')).toMatch(/UpdateContainer\s+shop\/web-1 nginx c1\s+shares 256 -> 300\n$/);
    // The runtime then reports the old values with the new shares: nothing changed behind the request.
    const after = nri.Container.fromObject({
      ...current.toJSON(),
      linux: {
        resources: {
          memory: { limit: { value: 128 * 2 ** 20 } },
          cpu: { shares: { value: 300 }, quota: { value: 50000 }, period: { value: 100000 } },
        },
      },
    });
    await h.postUpdateContainer!(pod, after);
    expect(renderLoggedEvent(got[1], 'table')).toMatch(/PostUpdateContainer\s+shop\/web-1 nginx c1\n$/);
    // The data form keeps what the runtime sent.
    expect(JSON.parse(renderLoggedEvent(got[0], 'json')).linuxResources.cpu.quota).toBeDefined();
  });

  it('previousResources is the protobuf JSON mapping of LinuxResources, as linuxResources is', async () => {
    // After an update, what PostUpdate calls previous is what nrictl worked out (the old
    // resources overlaid with the request), not a message the runtime sent: it must be
    // written as one all the same, 64-bit integers as decimal strings and nothing empty.
    const { h, got } = logger();
    const big = running({
      memory: { limit: { value: 2 ** 40 } },
      cpu: { shares: { value: 256 }, quota: { value: 50000 }, period: { value: 100000 } },
      pids: { limit: 4096 },
    });
    h.synchronizeRaw!([syncPayload([pod], [big])]);
    await decoded();
    await h.updateContainer!(pod, big, nri.LinuxResources.fromObject({ cpu: { shares: { value: 512 } } }));
    await h.postUpdateContainer!(pod, big);
    const want = {
      memory: { limit: { value: String(2 ** 40) } },
      cpu: { shares: { value: '512' }, quota: { value: '50000' }, period: { value: '100000' } },
      pids: { limit: '4096' },
    };
    for (const e of got) {
      const data = JSON.parse(renderLoggedEvent(e, 'json'));
      expect(data.previousResources, data.event).toBeDefined();
      if (e.event === Event.POST_UPDATE_CONTAINER) expect(data.previousResources).toEqual(want);
      else expect(data.previousResources.cpu.shares).toEqual({ value: '256' });
      expect(JSON.stringify(data.previousResources)).not.toMatch(/\[\]|\{\}|:\s*\d/);
    }
  });

  it('PostCreate says what changed after the create request was seen', async () => {
    const { h, got } = logger();
    await h.createContainer!(pod, ctr(256));
    await h.postCreateContainer!(pod, ctr(1024));
    expect(renderLoggedEvent(got[1], 'table')).toContain('then shares 256 -> 1024');
  });

  it('counts filtered events as seen, and forgets removed containers', async () => {
    const { log, h, got } = logger(new ObjectFilter({ namespace: 'other' }));
    await h.createContainer!(pod, ctr(256));
    await h.runPodSandbox!(pod);
    expect(got).toEqual([]);
    expect(log.counts).toEqual({ seen: 2, filtered: 2 });
    expect(log.tracked).toBe(1);
    await h.removeContainer!(pod, ctr(256));
    expect(log.tracked).toBe(0);
    await h.createContainer!(pod, ctr(256));
    await h.removePodSandbox!(pod);
    expect(log.tracked).toBe(0);
  });

  it('never vetoes an adjustment', async () => {
    const { h, got } = logger();
    expect(
      await h.validateContainerAdjustment!(
        nri.ValidateContainerAdjustmentRequest.fromObject({ pod, container: ctr(1) }),
      ),
    ).toEqual({});
    expect(got[0].event).toBe(Event.VALIDATE_CONTAINER_ADJUSTMENT);
  });

  it('the data form has names for events and enums, and parses back', async () => {
    const { h, got } = logger();
    await h.startContainer!(pod, ctr(256));
    const line = renderLoggedEvent(got[0], 'json');
    expect(line.endsWith('\n')).toBe(true);
    const obj = JSON.parse(line);
    expect(obj).toMatchObject({
      event: 'StartContainer',
      pod: { id: 'p1' },
      container: { id: 'c1', state: 'CONTAINER_RUNNING' },
    });
    expect(loggedEventData(got[0]).time).toBe(obj.time);
    expect(renderLoggedEvent(got[0], 'yaml')).toMatch(/^---\ntime: .*\nevent: StartContainer\n/);
  });
});
