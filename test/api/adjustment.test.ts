import { describe, expect, it } from 'vitest';
import { isEmptyAdjustment, nri } from '../../src/api/index.js';

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
