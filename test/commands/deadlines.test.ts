// Deadlines that hold against a runtime that stops reading (issue 20, item 5): a timed-out
// call or a stop signal tears the connection down at once, with no grace period for
// queued answers that nobody reads; and nothing a runtime sends before the registration
// completed is printed. Real hostile peers over real unix sockets (stalled-runtime.ts), the
// built CLI in a child process. The margins are generous for a loaded machine and
// still far below the 5 s grace period that ended these runs before.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, startCli } from './nri-cli.js';
import { stalledRuntime, type StalledRuntime } from './stalled-runtime.js';

const MARGIN_MS = 1500;

const runtimes: StalledRuntime[] = [];
beforeAll(() => assertBuilt('update', 'logs', 'trace'));
afterEach(async () => {
  for (const r of runtimes.splice(0)) await r.close();
});

async function hostile(how: Parameters<typeof stalledRuntime>[0]): Promise<StalledRuntime> {
  const r = await stalledRuntime(how);
  runtimes.push(r);
  return r;
}

describe('a runtime that keeps sending requests but stops reading our answers', () => {
  it.each([
    ['1s', 1000],
    ['2s', 2000],
  ])('update --timeout %s ends at its deadline, not 5 s after it', async (timeout, ms) => {
    const rt = await hostile('stops-reading');
    const cli = startCli([
      'update',
      'c1aaaaaaaaaa',
      '--cpus',
      '0-1',
      '--yes',
      '--socket',
      rt.socketPath,
      '--timeout',
      timeout,
    ]);
    await rt.stalled;
    // The call starts right after the Synchronize answer, which the runtime no longer reads.
    const deadline = Date.now() + ms;
    const { code } = await cli.exited;
    const late = Date.now() - deadline;
    expect(code).toBe(6);
    expect(cli.stderr().trim()).toMatch(/did not answer UpdateContainers within \ds/);
    expect(rt.sent()).toBeGreaterThan(1000); // it really kept sending
    expect(late).toBeLessThan(MARGIN_MS);
  });

  it.each([['logs'], ['trace']])('SIGTERM to %s ends it at once, not 5 s later', async (command) => {
    const rt = await hostile('stops-reading');
    const cli = startCli([command, '--socket', rt.socketPath]);
    await rt.stalled;
    // Long enough for the unanswered requests to fill every buffer on the way.
    await new Promise((r) => setTimeout(r, 1000));
    const signalled = Date.now();
    cli.child.kill('SIGTERM');
    await cli.exited;
    expect(Date.now() - signalled).toBeLessThan(MARGIN_MS);
  });
});

describe('before the registration completes, nothing the runtime sends is printed', () => {
  it('logs against a peer that never answers RegisterPlugin and sends 1,000 StateChange events: exit 5, no event printed', async () => {
    const rt = await hostile('unregistered-flood');
    const cli = startCli(['logs', '--socket', rt.socketPath, '--timeout', '1s']);
    const { code } = await cli.exited;
    expect(rt.sent()).toBe(1000);
    expect(code).toBe(5);
    expect(cli.stdout()).toBe('');
    expect(cli.stderr()).toMatch(/registration of plugin 99-nrictl-logs not completed within 1s/);
  });
});
