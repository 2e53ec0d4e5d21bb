// The runtime relays one request to every subscribed plugin. While no answer changes it,
// the bytes encoded for the first plugin go to the others as they are; an answer that
// adjusts the container makes the next plugin get a fresh encoding with the change.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { nri } from '../../src/api/index.js';
import { simPerTest, waitForPlugin } from './helpers.js';

const perTest = simPerTest();

afterEach(() => {
  vi.restoreAllMocks();
});

describe('relaying one request to several plugins', () => {
  it('encodes an unchanged CreateContainer request once for all plugins', async () => {
    const sim = await perTest.start({ pods: [{ id: 'p', name: 'p', namespace: 'n' }], containers: [] });
    const seen: string[] = [];
    const names = ['a', 'b', 'c'];
    const stubs = names.map((n, i) =>
      perTest.plugin(n, String(10 + i), { createContainer: (_p, c) => void seen.push(`${n}:${c.id}`) }),
    );
    await Promise.all(stubs.map((s) => s.start()));
    for (const [i, n] of names.entries()) await waitForPlugin(sim, `${10 + i}-${n}`);
    // In-process SDK stubs decode requests and encode answers; only the runtime encodes requests.
    const encode = vi.spyOn(nri.CreateContainerRequest, 'encode');
    const r = await sim.runtime.createContainer('p', { id: 'c1', name: 'c1' });
    expect(r.ok).toBe(true);
    expect(seen).toEqual(['a:c1', 'b:c1', 'c:c1']);
    expect(encode).toHaveBeenCalledTimes(1);
  });

  it('sends each plugin the request with every earlier adjustment in it', async () => {
    const sim = await perTest.start({ pods: [{ id: 'p', name: 'p', namespace: 'n' }], containers: [] });
    const seen: Record<string, { annotations: Record<string, string>; env: string[] }> = {};
    const look = (name: string, c: nri.IContainer) =>
      (seen[name] = { annotations: { ...(c.annotations ?? {}) }, env: [...(c.env ?? [])] });
    const first = perTest.plugin('first', '10', {
      createContainer: (_p, c) => {
        look('first', c);
        return { adjust: { annotations: { 'example.com/by': 'first' } } };
      },
    });
    const quiet = perTest.plugin('quiet', '20', { createContainer: (_p, c) => void look('quiet', c) });
    const second = perTest.plugin('second', '30', {
      createContainer: (_p, c) => {
        look('second', c);
        return { adjust: { env: [{ key: 'MODE', value: 'fast' }] } };
      },
    });
    const last = perTest.plugin('last', '40', { createContainer: (_p, c) => void look('last', c) });
    await Promise.all([first, quiet, second, last].map((s) => s.start()));
    for (const n of ['10-first', '20-quiet', '30-second', '40-last']) await waitForPlugin(sim, n);
    const encode = vi.spyOn(nri.CreateContainerRequest, 'encode');
    const r = await sim.runtime.createContainer('p', { id: 'c1', name: 'c1', env: ['PATH=/bin'] });
    expect(r.ok).toBe(true);
    expect(seen['first']).toEqual({ annotations: {}, env: ['PATH=/bin'] });
    expect(seen['quiet']).toEqual({ annotations: { 'example.com/by': 'first' }, env: ['PATH=/bin'] });
    expect(seen['second']).toEqual({ annotations: { 'example.com/by': 'first' }, env: ['PATH=/bin'] });
    expect(seen['last']).toEqual({ annotations: { 'example.com/by': 'first' }, env: ['PATH=/bin', 'MODE=fast'] });
    // Encoded for first, again after first's adjustment (quiet and second share it), again after second's.
    expect(encode).toHaveBeenCalledTimes(3);
  });
});
