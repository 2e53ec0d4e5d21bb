import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import chalk from 'chalk';
import { nri } from '../../src/api/index.js';
import {
  describeResourceChange,
  eventDisplayName,
  formatClock,
  formatEventLine,
} from '../../src/render/views/events.js';
import type { Resources } from '../../src/render/nri-view.js';

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
