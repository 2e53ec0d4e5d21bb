import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import chalk from 'chalk';
import { nri } from '../../src/api/index.js';
import {
  describeResourceChange,
  eventDisplayName,
  eventHead,
  formatClock,
  formatEventLine,
} from '../../src/views/events.js';
import type { Resources } from '../../src/output/nri-values.js';
import type { LoggedEvent } from '../../src/observe/index.js';
import { renderRecord, type Layout } from '../../src/output/index.js';
import { logEventView } from '../../src/views/logs.js';
import { simEventView } from '../../src/views/sim-event-data.js';
import { traceRecordView } from '../../src/views/trace.js';
import type { SimEvent } from '../../src/runtime/index.js';
import type { TraceRecord } from '../../src/trace/index.js';
import YAML from 'yaml';

const level = chalk.level;
beforeEach(() => {
  chalk.level = 0;
});
afterEach(() => {
  chalk.level = level;
});

const at = new Date(2024, 0, 2, 3, 4, 5, 67);
const pod = { id: 'p1', name: 'web-0', namespace: 'default' };
const container = {
  id: '3f2a9c1d0b7e4aa1b2c3',
  podSandboxId: 'p1',
  name: 'nginx',
  linux: {
    resources: {
      cpu: { cpus: '0-1', quota: { value: 50000 }, period: { value: 100000 } },
      memory: { limit: { value: 256 * 2 ** 20 } },
    },
  },
};

describe('event lines', () => {
  it('names events from numbers and names alike', () => {
    expect(eventDisplayName(nri.Event.CREATE_CONTAINER)).toBe('CreateContainer');
    expect(eventDisplayName('POST_UPDATE_POD_SANDBOX')).toBe('PostUpdatePodSandbox');
    expect(eventDisplayName('stopContainer')).toBe('StopContainer');
    expect(eventDisplayName(99)).toBe('Event(99)');
    // the local table follows the enum of the schema
    for (const [name, value] of Object.entries(nri.Event)) {
      if (typeof value === 'number' && name !== 'LAST')
        expect(eventDisplayName(value).toLowerCase()).toBe(name.replace(/_/g, '').toLowerCase());
    }
  });
  it('prints time, event, pod, container and short id', () => {
    expect(formatClock(at)).toBe('03:04:05.067');
    const line = formatEventLine({ time: at, event: nri.Event.START_CONTAINER, pod, container });
    expect(line).toBe(`03:04:05.067 ${'StartContainer'.padEnd(20)} default/web-0 nginx 3f2a9c1d0b7e4`);
  });
  it('prints a pod event without a container', () => {
    expect(formatEventLine({ time: at.getTime(), event: 'RUN_POD_SANDBOX', pod })).toBe(
      `03:04:05.067 ${'RunPodSandbox'.padEnd(20)} default/web-0`,
    );
  });
  it('shows the resources of a created container', () => {
    const line = formatEventLine({ time: at, event: nri.Event.CREATE_CONTAINER, pod, container });
    expect(line.endsWith('  cpus=0-1 memory=256Mi quota=50000 period=100000')).toBe(true);
  });
  it('shows old -> new for an update when the previous resources are known', () => {
    const next: Resources = { cpu: { cpus: '0-3', quota: { value: 50000 } }, memory: { limit: { value: 2 ** 30 } } };
    const line = formatEventLine(
      { time: at, event: 'UPDATE_CONTAINER', pod, container, resources: next },
      container.linux.resources,
    );
    expect(line.endsWith('  cpus 0-1 -> 0-3, memory 256Mi -> 1Gi')).toBe(true);
    const without = formatEventLine({ time: at, event: 'UPDATE_CONTAINER', pod, container, resources: next });
    expect(without.endsWith('  cpus=0-3 memory=1Gi quota=50000')).toBe(true);
    expect(describeResourceChange(next, next)).toBe('no change');
    expect(describeResourceChange({}, { cpu: { shares: { value: 2 } } })).toBe('shares unset -> 2');
  });
  it('shows zeros in an update request as not set, with or without the previous resources', () => {
    const zeroFilled: Resources = {
      cpu: { shares: { value: 300 }, quota: { value: 0 }, period: { value: 0 }, cpus: '' },
      memory: { limit: { value: 0 } },
    };
    const withPrevious = formatEventLine(
      { time: at, event: 'UPDATE_CONTAINER', pod, container, resources: zeroFilled },
      container.linux.resources,
    );
    expect(withPrevious.endsWith('  shares unset -> 300')).toBe(true);
    const alone = formatEventLine({ time: at, event: 'UPDATE_POD_SANDBOX', pod, resources: zeroFilled });
    expect(alone.endsWith('  shares=300')).toBe(true);
    // A create shows the container as it is: a real zero there is still printed.
    expect(
      formatEventLine({
        time: at,
        event: 'CREATE_CONTAINER',
        pod,
        container,
        resources: { cpu: { shares: { value: 0 } } },
      }).endsWith('  shares=0'),
    ).toBe(true);
  });
  it('reads decoded messages, where unset wrappers are null', () => {
    const decoded = nri.UpdateContainerRequest.decode(
      nri.UpdateContainerRequest.encode({
        pod,
        container,
        linuxResources: { cpu: { cpus: '2' } },
      }).finish(),
    );
    const line = formatEventLine(
      {
        time: at,
        event: 'UPDATE_CONTAINER',
        pod: decoded.pod,
        container: decoded.container,
        resources: decoded.linuxResources,
      },
      decoded.container?.linux?.resources,
    );
    expect(line.endsWith('  cpus 0-1 -> 2')).toBe(true);
  });
  it('colours the event name only when colours are on', () => {
    chalk.level = 1;
    expect(formatEventLine({ time: at, event: 'REMOVE_CONTAINER', pod, container })).toContain(
      '\x1b[31mRemoveContainer',
    );
  });
});

describe('one event renderer for logs, trace and the simulator', () => {
  const layout: Layout = { width: undefined, wide: false };
  const logged: LoggedEvent = {
    time: at.getTime(),
    event: nri.Event.CREATE_CONTAINER,
    pod,
    container: { ...container, linux: {} },
  };
  const traced: TraceRecord = {
    time: at.getTime(),
    event: 'CreateContainer',
    pod: { id: 'p1', namespace: 'default', name: 'web-0', uid: '', cgroupParent: '' },
    container: { id: container.id, name: 'nginx' },
    segments: [
      {
        label: '20-cpu-pinner',
        plugins: ['20-cpu-pinner'],
        group: false,
        calibration: false,
        from: '19',
        to: '21',
        ms: 12.5,
        rawMs: 12.9,
        changes: [{ field: 'resources', key: 'cpu.cpus', new: '0-1' }],
      },
    ],
    totalMs: 12.5,
    hopMs: 0.4,
    end: 'complete',
    attribution: 'probes',
  };
  const simulated: SimEvent = {
    time: at.getTime(),
    type: 'invoke',
    event: 'CreateContainer',
    plugin: '20-cpu-pinner',
    rttMs: 12.5,
    container: container.id,
  };

  it("heads a trace block exactly as logs' line for the same event: clock, event column, pod, container and short id", () => {
    const line = renderRecord(logEventView, logged, 'table', layout);
    const block = renderRecord(traceRecordView, traced, 'table', layout).split('\n');
    expect(line).toBe(`03:04:05.067 ${'CreateContainer'.padEnd(20)} default/web-0 nginx 3f2a9c1d0b7e4\n`);
    expect(`${block[0]}\n`).toBe(line);
    expect(block[1]).toMatch(/^ {2}20-cpu-pinner\s+12\.50 ms {2}resources cpu\.cpus: \(unset\) -> 0-1$/);
    expect(block.at(-2)).toMatch(/^ {2}total\s+12\.50 ms$/);
  });

  it('a simulator line keeps the same clock and event column', () => {
    expect(simEventView.text(simulated, layout)).toBe(
      `03:04:05.067 invoke       ${'CreateContainer'.padEnd(20)} -> 20-cpu-pinner 12.5 ms ${container.id}`,
    );
  });

  it('every data form carries the time as RFC 3339 in UTC with milliseconds', () => {
    const utc = at.toISOString();
    expect(utc).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(JSON.parse(renderRecord(logEventView, logged, 'json', layout))).toMatchObject({
      time: utc,
      event: 'CreateContainer',
    });
    expect(JSON.parse(renderRecord(traceRecordView, traced, 'json', layout))).toMatchObject({
      type: 'event',
      time: utc,
      event: 'CreateContainer',
    });
    expect(JSON.parse(renderRecord(simEventView, simulated, 'json', layout))).toMatchObject({
      type: 'invoke',
      time: utc,
    });
  });

  it('a trace record is a YAML document of its own, as a logs event is', () => {
    const docs = [traced, traced].map((r) => renderRecord(traceRecordView, r, 'yaml', layout)).join('');
    const parsed = YAML.parseAllDocuments(docs).map((d) => d.toJS() as Record<string, unknown>);
    expect(parsed).toHaveLength(2);
    expect(parsed[0]).toMatchObject({ type: 'event', time: at.toISOString(), event: 'CreateContainer' });
    expect(docs.startsWith('---\n')).toBe(true);
  });
});

describe('-o wide: what the narrow line leaves out', () => {
  const podId = 'a1'.repeat(32);
  const ctrId = 'c0ffee'.repeat(10) + 'beef';
  const wide: Layout = { width: undefined, wide: true };
  const widePod = {
    id: podId,
    name: 'web-0',
    namespace: 'shop',
    uid: '3b0c7e52-8f1d-4c9a-9a57-2d1e6b4f0a11',
    linux: { cgroupParent: '/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod3b0c7e52.slice' },
  };
  const resources: Resources = {
    cpu: { cpus: '0-3', shares: { value: 512 }, realtimeRuntime: { value: 950000 } },
    memory: { limit: { value: 2 ** 29 }, swap: { value: -1 }, reservation: { value: 2 ** 28 } },
    hugepageLimits: [{ pageSize: '2MB', limit: 2 ** 30 }],
    blockioClass: { value: 'throttled' },
    unified: { 'cpu.max': 'max 100000', 'memory.high': '400M' },
    devices: [
      { allow: false, access: 'rwm' },
      { allow: true, type: 'c', major: { value: 10 }, minor: { value: 200 }, access: 'rw' },
    ],
    pids: { limit: 4096 },
  };
  const ctr = { id: ctrId, podSandboxId: podId, name: 'nginx', linux: { resources } };

  it('a create: the full id, the pod id, uid and cgroup parent, and every resource field, on one line', () => {
    const line = formatEventLine({ time: at, event: 'CREATE_CONTAINER', pod: widePod, container: ctr }, null, wide);
    expect(line).toBe(
      `03:04:05.067 ${'CreateContainer'.padEnd(20)} shop/web-0 nginx ${ctrId}  ` +
        `pod-id=${podId} pod-uid=${widePod.uid} cgroup-parent=${widePod.linux.cgroupParent} ` +
        'cpus=0-3 memory=512Mi shares=512 cpu.realtimeRuntime=950000 memory.reservation=256Mi memory.swap=unlimited ' +
        'hugepageLimits.2MB=1Gi blockioClass=throttled unified.cpu.max="max 100000" unified.memory.high=400M ' +
        'devices.deny=a:*:*:rwm devices.allow=c:10:200:rw pids.limit=4096',
    );
    // The narrow line for the same event is the summary, as it always was.
    expect(formatEventLine({ time: at, event: 'CREATE_CONTAINER', pod: widePod, container: ctr })).toBe(
      `03:04:05.067 ${'CreateContainer'.padEnd(20)} shop/web-0 nginx ${ctrId.slice(0, 13)}  cpus=0-3 memory=512Mi shares=512`,
    );
  });

  it('an update: what changed in every field, old -> new', () => {
    const next: Resources = { ...resources, pids: { limit: 8192 }, unified: { 'memory.high': '800M' } };
    const line = formatEventLine(
      { time: at, event: 'UPDATE_CONTAINER', pod: widePod, container: ctr, resources: next },
      resources,
      wide,
    );
    // Only the fields the update changes, after the pod's words; the rest keep their value.
    expect(line).toMatch(/ cgroup-parent=\S+ unified\.memory\.high 400M -> 800M, pids\.limit 4096 -> 8192$/);
    expect(describeResourceChange(resources, next)).toBe('no change'); // the summary's fields are the same
  });

  it('a value that is not one word (a space, an escape) is quoted, so it reads as one and cannot drive the terminal', () => {
    const odd = { ...widePod, uid: 'a b', linux: { cgroupParent: '/x\x1b[2J' } };
    const line = formatEventLine({ time: at, event: 'RUN_POD_SANDBOX', pod: odd }, null, wide);
    expect(line).toContain(' pod-uid="a b" cgroup-parent="/x\\u001b[2J"');
    expect(line).not.toContain('\x1b');
  });

  it('on a terminal, fitted to its width at spaces, later lines under the event; no word cut, none lost', () => {
    const one = formatEventLine({ time: at, event: 'CREATE_CONTAINER', pod: widePod, container: ctr }, null, wide);
    for (const width of [60, 100, 160]) {
      const fitted = formatEventLine({ time: at, event: 'CREATE_CONTAINER', pod: widePod, container: ctr }, null, {
        width,
        wide: true,
      });
      const lines = fitted.split('\n');
      expect(lines.length).toBeGreaterThan(1);
      // The head (clock to the full id) is one piece; a cgroup path longer than the width stands alone.
      expect(
        lines[0].startsWith(eventHead({ time: at, event: 'CREATE_CONTAINER', pod: widePod, container: ctr }, true)),
      ).toBe(true);
      for (const l of lines.slice(1)) {
        expect(l).toMatch(/^ {13}\S/);
        const words = l.trim().split(' ');
        if (l.length > width) expect(words).toHaveLength(1);
      }
      // Joined again, the same words in the same order as the line for a pipe.
      expect(lines.map((l) => l.trim()).join(' ')).toBe(one.replace(`${ctrId}  `, `${ctrId} `));
    }
  });

  it("heads a trace block as logs' wide line for the same event, with what the last probe saw", () => {
    const traced: TraceRecord = {
      time: at.getTime(),
      event: 'CreateContainer',
      pod: { id: podId, namespace: 'shop', name: 'web-0', uid: widePod.uid, cgroupParent: widePod.linux.cgroupParent },
      container: { id: ctrId, name: 'nginx' },
      resources,
      segments: [],
      totalMs: 0,
      hopMs: 0,
      end: 'complete',
      attribution: 'probes',
    };
    const logged: LoggedEvent = { time: at.getTime(), event: nri.Event.CREATE_CONTAINER, pod: widePod, container: ctr };
    const head = renderRecord(traceRecordView, traced, 'wide', wide).split('\n')[0];
    expect(`${head}\n`).toBe(renderRecord(logEventView, logged, 'wide', wide));
    // The narrow block keeps its head: clock, event, pod, container and short id.
    expect(renderRecord(traceRecordView, traced, 'table', { width: undefined, wide: false }).split('\n')[0]).toBe(
      `03:04:05.067 ${'CreateContainer'.padEnd(20)} shop/web-0 nginx ${ctrId.slice(0, 13)}`,
    );
  });
});
