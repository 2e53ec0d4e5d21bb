// plainCopy replaces structuredClone (and JSON round trips) on the simulator's hot path:
// it must copy as deep as they did, never share, and keep decoded protobuf messages'
// values as they are (a JSON round trip would call their toJSON and turn 64-bit numbers
// and enums into strings).
import { describe, expect, it } from 'vitest';
import { nri, plainCopy } from '../../src/api/index.js';

describe('plainCopy', () => {
  it('copies plain NRI data deeply, sharing nothing', () => {
    const ctr: nri.IContainer = {
      id: 'c1',
      labels: { app: 'web' },
      env: ['A=1'],
      linux: {
        resources: { memory: { limit: { value: 2 ** 40 } }, cpu: { cpus: '0-3' } },
        devices: [{ path: '/dev/fuse', major: 10 }],
      },
    };
    const copy = plainCopy(ctr);
    expect(copy).toEqual(ctr);
    expect(copy).not.toBe(ctr);
    expect(copy.labels).not.toBe(ctr.labels);
    expect(copy.env).not.toBe(ctr.env);
    expect(copy.linux!.resources!.memory).not.toBe(ctr.linux!.resources!.memory);
    expect(copy.linux!.devices![0]).not.toBe(ctr.linux!.devices![0]);
    copy.labels!['app'] = 'changed';
    copy.linux!.resources!.memory!.limit!.value = 1;
    expect(ctr.labels!['app']).toBe('web');
    expect(ctr.linux!.resources!.memory!.limit!.value).toBe(2 ** 40);
  });

  it('leaves out undefined properties, as the JSON copy the state used to make did', () => {
    const copy = plainCopy({ id: 'c1', name: undefined, labels: { a: undefined, b: 'x' } });
    expect(Object.keys(copy)).toEqual(['id', 'labels']);
    expect(Object.keys(copy.labels)).toEqual(['b']);
  });

  it('turns a decoded message into plain data with its values as decoded', () => {
    const bytes = nri.Container.encode({
      id: 'c1',
      state: nri.ContainerState.CONTAINER_RUNNING,
      linux: { resources: { memory: { limit: { value: 3 * 2 ** 32 } } } },
    }).finish();
    const decoded = nri.Container.decode(bytes);
    const copy = plainCopy(decoded) as nri.IContainer;
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(copy.state).toBe(nri.ContainerState.CONTAINER_RUNNING);
    expect(copy.linux!.resources!.memory!.limit!.value).toBe(3 * 2 ** 32);
    expect(copy).toEqual(structuredClone({ ...decoded }));
  });

  it('copies byte arrays into arrays of their own', () => {
    const b = new Uint8Array([1, 2, 3]);
    const copy = plainCopy({ b });
    expect(copy.b).toEqual(new Uint8Array([1, 2, 3]));
    expect(copy.b).not.toBe(b);
  });
});
