// logs --reconnect: the runtime restarts (stopped, then a new one on the same socket)
// and logs comes back by itself, keeps its counts, and says how long it was away.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { nri } from '../../src/api/index.js';
import { runCli, startCli, startRuntime, tempDir } from './nri-cli.js';

const pod = (id: string, name: string): nri.IPodSandbox => ({ id, namespace: 'shop', name, uid: `uid-${id}` });

let t: ReturnType<typeof tempDir>;
beforeAll(() => {
  t = tempDir('nrrc-');
});
afterAll(() => t.cleanup());

describe('nrictl logs --reconnect', () => {
  it('survives a runtime restart on the same socket and shows the events after it', async () => {
    const socketPath = path.join(t.dir, 'nri.sock');
    const first = await startRuntime({}, { socketPath });
    const run = startCli(['logs', '--socket', socketPath, '--reconnect', '-o', 'json']);
    await first.synchronized('99-nrictl-logs');
    await first.runtime.runPodSandbox(pod('p1', 'before'));
    await first.stop();
    await run.waitForStderr('the runtime went away');

    const second = await startRuntime({}, { socketPath });
    try {
      await second.synchronized('99-nrictl-logs');
      await run.waitForStderr(
        /registered again with nrictl-sim \S+ after a gap of \d+(\.\d)?m?s: events in the gap were missed/,
      );
      await second.runtime.runPodSandbox(pod('p2', 'after'));
      await second.runtime.stopPodSandbox('p2');
      // The events after the restart reach the output.
      await waitFor(() => run.stdout().includes('"StopPodSandbox"'));
      run.child.kill('SIGINT');
      const { code } = await run.exited;
      expect(code).toBe(0);
      const events = run
        .stdout()
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { event: string; pod: { name: string } });
      expect(events.map((e) => `${e.event}:${e.pod.name}`)).toEqual([
        'RunPodSandbox:before',
        'RunPodSandbox:after',
        'StopPodSandbox:after',
      ]);
      // The counts run across both registrations.
      expect(run.stderr().trim().split('\n').at(-1)).toBe('nrictl logs: 3 events seen, 3 printed, 0 dropped');
    } finally {
      await second.stop();
    }
  });

  it('keeps trying while the runtime is away, and Ctrl-C ends it cleanly with the summary', async () => {
    const socketPath = path.join(t.dir, 'away.sock');
    const rt = await startRuntime({}, { socketPath });
    const run = startCli(['logs', '--socket', socketPath, '--reconnect']);
    await rt.synchronized('99-nrictl-logs');
    await rt.stop();
    await run.waitForStderr(/still no runtime \(.*\); next try in 1s/);
    run.child.kill('SIGINT');
    const { code } = await run.exited;
    expect(code).toBe(0);
    expect(run.stderr().trim().split('\n').at(-1)).toBe('nrictl logs: 0 events seen, 0 printed, 0 dropped');
  });

  it('without --reconnect (stdout not a terminal) a runtime that goes away ends logs with exit 6', async () => {
    const socketPath = path.join(t.dir, 'once.sock');
    const rt = await startRuntime({}, { socketPath });
    // In this process, as a pipe would have it: stdout is no terminal.
    const run = runCli(['logs', '--socket', socketPath]);
    await rt.synchronized('99-nrictl-logs');
    await rt.stop();
    const { code, stderr } = await run;
    expect(code).toBe(6);
    expect(stderr).toContain('--reconnect waits for it to come back');
  });
});

describe('nrictl logs and signals', () => {
  it('SIGHUP ends logs like SIGTERM: the summary, exit 0', async () => {
    const rt = await startRuntime({});
    try {
      const run = startCli(['logs', '--socket', rt.socketPath]);
      await rt.synchronized('99-nrictl-logs');
      run.child.kill('SIGHUP');
      const r = await run.exited;
      expect(r).toEqual({ code: 0, signal: null });
      expect(run.stderr().trim().split('\n').at(-1)).toBe('nrictl logs: 0 events seen, 0 printed, 0 dropped');
    } finally {
      await rt.stop();
    }
  });

  it('-e validate on a runtime too old for it: exit 5, and no advice meant for plugin authors', async () => {
    const rt = await startRuntime({}, { nriVersion: 'v0.6.1' });
    try {
      const { code, stderr } = await runCli(['logs', '--socket', rt.socketPath, '-e', 'validate']);
      expect(code).toBe(5);
      expect(stderr).not.toContain('add a handler');
      expect(stderr.trim()).toMatch(
        /^Error: .*cannot deliver any of the events asked for: it is too old for them; ask for events it knows \(see --events in --help\)$/,
      );
    } finally {
      await rt.stop();
    }
  });
});

async function waitFor(cond: () => boolean, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
}
