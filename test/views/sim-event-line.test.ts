// The runtime's conflict, rejection and plugin-error messages are the Go library's,
// which name neither the container nor the event: the sim's line adds them.
import { describe, expect, it } from 'vitest';
import { stripColour } from '../../src/output/colour.js';
import { formatSimEvent } from '../../src/views/sim-event-line.js';

const line = (e: Parameters<typeof formatSimEvent>[0]): string =>
  stripColour(formatSimEvent(e)).replace(/^\S+ /, '').replace(/\s+/, ' ');

describe('sim event lines of failed requests', () => {
  it("a conflict names the container before Go's message", () => {
    const message = 'plugins "20-b" and "10-a" both tried to set Env A';
    expect(
      line({ time: 0, type: 'conflict', container: 'c0', field: 'Env', key: 'A', plugins: ['10-a', '20-b'], message }),
    ).toBe(`conflict c0: ${message}`);
  });

  it('a rejection names the container', () => {
    const message = 'validator "90-p" rejected container adjustment, reason: no';
    expect(line({ time: 0, type: 'rejected', plugin: '90-p', container: 'c0', reason: 'no', message })).toBe(
      `rejected c0: ${message}`,
    );
  });

  it("a plugin's error names the plugin and the event once", () => {
    const message = 'rpc error: code = Unknown desc = boom';
    expect(line({ time: 0, type: 'error', plugin: '10-a', event: 'CreateContainer', container: 'c0', message })).toBe(
      `error 10-a: CreateContainer: ${message}`,
    );
    expect(
      line({ time: 0, type: 'error', plugin: '10-a', event: 'CreateContainer', message: 'CreateContainer: x' }),
    ).toBe('error 10-a: CreateContainer: x');
    expect(line({ time: 0, type: 'error', event: 'step 2 (create)', message: 'no such pod' })).toBe(
      'error no such pod',
    );
  });
});

describe('sim event lines of sockets', () => {
  it("the CRI socket says it is CRI's; the NRI socket is the plain one plugins dial", () => {
    expect(line({ time: 0, type: 'listening', socketPath: '/tmp/s/nri.sock' })).toBe('listening /tmp/s/nri.sock');
    expect(line({ time: 0, type: 'listening', socketPath: '/tmp/s/cri.sock', api: 'cri' })).toBe(
      'listening /tmp/s/cri.sock (CRI)',
    );
  });
});
