import { describe, expect, it } from 'vitest';
import { identifyRuntime, isEmptyAdjustment, nri, pluginUpdatesUnsafe } from '../../src/api/index.js';

describe('isEmptyAdjustment', () => {
  it('is true for what plugins that change nothing send: {} in process, an empty message off the wire', () => {
    expect(isEmptyAdjustment({})).toBe(true);
    expect(isEmptyAdjustment(nri.ContainerAdjustment.decode(Buffer.alloc(0)))).toBe(true);
    expect(isEmptyAdjustment({ annotations: {}, env: [], hooks: { prestart: [] } })).toBe(true);
  });

  it('is false as soon as one field asks for something, and for any linux part', () => {
    expect(isEmptyAdjustment({ annotations: { a: 'b' } })).toBe(false);
    expect(isEmptyAdjustment({ env: [{ key: 'A', value: '1' }] })).toBe(false);
    expect(isEmptyAdjustment({ args: [''] })).toBe(false);
    expect(isEmptyAdjustment({ hooks: { poststop: [{ path: '/x' }] } })).toBe(false);
    expect(isEmptyAdjustment({ linux: {} })).toBe(false);
    const decoded = nri.ContainerAdjustment.decode(
      nri.ContainerAdjustment.encode({ CDIDevices: [{ name: 'x' }] }).finish(),
    );
    expect(isEmptyAdjustment(decoded)).toBe(false);
  });
});

describe('identifyRuntime', () => {
  it('knows iSulad by the containerd name and version it copies into Configure', () => {
    const isulad = identifyRuntime('v2', '2.0.0-beta.2+unknown');
    expect(isulad).toEqual({ kind: 'isulad', label: 'iSulad (reports v2 2.0.0-beta.2+unknown)' });
    expect(pluginUpdatesUnsafe(isulad)).toMatch(/^iSulad crashes on any update or eviction/);
  });

  it('names other runtimes as they name themselves, and lets them be updated', () => {
    const containerd = identifyRuntime('containerd', 'v2.1.5');
    expect(containerd).toEqual({ kind: 'containerd', label: 'containerd v2.1.5' });
    expect(pluginUpdatesUnsafe(containerd)).toBeUndefined();
    expect(identifyRuntime('v2', '2.1.0')).toEqual({ kind: 'other', label: 'v2 2.1.0' });
    expect(identifyRuntime('', '')).toEqual({ kind: 'other', label: 'runtime' });
  });
});
