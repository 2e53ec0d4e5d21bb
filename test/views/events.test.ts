import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import chalk from 'chalk';
import { nri } from '../../src/api/index.js';
import { describeResourceChange, eventDisplayName, formatClock, formatEventLine } from '../../src/views/events.js';
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
    pod: { id: 'p1', namespace: 'default', name: 'web-0' },
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
