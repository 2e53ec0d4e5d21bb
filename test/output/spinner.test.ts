import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PassThrough } from 'node:stream';
import { inCI, spinner } from '../../src/output/spinner.js';

// A stream that says it is a terminal, and collects what is written to it.
function terminal(isTTY = true): { stream: PassThrough & { isTTY?: boolean }; text: () => string } {
  const stream = new PassThrough() as PassThrough & { isTTY?: boolean };
  stream.isTTY = isTTY;
  const chunks: string[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c.toString()));
  return { stream, text: () => chunks.join('') };
}
const flush = (): Promise<void> => new Promise((r) => setImmediate(r));

describe('spinner', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] }));
  afterEach(() => vi.useRealTimers());

  it('draws frames with the label and elapsed time on a terminal, follows update(), erases on stop', async () => {
    const t = terminal();
    const s = spinner(t.stream, 'connecting to /run/nri.sock', { env: {} });
    vi.advanceTimersByTime(500);
    s.update("receiving the runtime's pods and containers");
    vi.advanceTimersByTime(1000);
    s.stop();
    s.stop();
    await flush();
    const out = t.text();
    expect(out).toMatch(/\r\x1b\[K⠋ connecting to \/run\/nri\.sock\.\.\. 0\.\ds/);
    expect(out).toMatch(/receiving the runtime's pods and containers\.\.\. 1\.\ds/);
    expect(out.endsWith('\r\x1b[K')).toBe(true);
    expect(out.split('\r\x1b[K').filter((x) => x === '').length).toBe(2); // the first write and the one erase
  });

  it('shows nothing when the wait ends before the delay', async () => {
    const t = terminal();
    const s = spinner(t.stream, 'connecting', { env: {}, delayMs: 200 });
    vi.advanceTimersByTime(100);
    s.stop();
    await flush();
    expect(t.text()).toBe('');
  });

  it('writes nothing to a pipe', async () => {
    const t = terminal(false);
    const s = spinner(t.stream, 'connecting', { env: {} });
    vi.advanceTimersByTime(2000);
    s.stop();
    await flush();
    expect(t.text()).toBe('');
  });

  it('writes nothing on a terminal under CI', async () => {
    const t = terminal();
    const s = spinner(t.stream, 'connecting', { env: { CI: 'true' } });
    vi.advanceTimersByTime(2000);
    s.stop();
    await flush();
    expect(t.text()).toBe('');
  });
});

describe('inCI', () => {
  it('reads CI the way CI systems set it', () => {
    expect(inCI({ CI: 'true' })).toBe(true);
    expect(inCI({ CI: '1' })).toBe(true);
    expect(inCI({ CI: '' })).toBe(false);
    expect(inCI({ CI: 'false' })).toBe(false);
    expect(inCI({ CI: '0' })).toBe(false);
    expect(inCI({})).toBe(false);
  });
});
