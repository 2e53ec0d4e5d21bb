// What every connecting command (sync dump, update, evict, logs, doctor) shares through
// src/session: deadlines against a runtime that goes silent, the identity checked before
// connecting, confirmation without a terminal, closed pipes, malformed frames.
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateScenario } from '../../src/runtime/index.js';
import { MODERN_CONFIGURE, RuntimePeer } from '../plugin/peer.js';
import { BIN, cliEnv, nrictlOnTerminal, runCli, startCli, startRuntime, tempDir } from './nri-cli.js';

const never = (): Promise<void> => new Promise(() => {});
const POD = { id: 'p1', name: 'web-0', namespace: 'shop', uid: 'u1' };
const CTR = { id: 'c1aaaaaaaaaa', podSandboxId: 'p1', name: 'web', state: 3 };

/** A peer whose socket is 0600, as a runtime's should be: no permission warning in the way. */
async function listen(behaviour: Parameters<typeof RuntimePeer.listen>[0] = {}): Promise<RuntimePeer> {
  const peer = await RuntimePeer.listen(behaviour);
  chmodSync(peer.socketPath, 0o600);
  return peer;
}

let t: ReturnType<typeof tempDir>;
beforeAll(() => {
  t = tempDir('nrconn-');
});
afterAll(() => t.cleanup());

// One at a time, before the tests below run side by side: these time the command's deadline.
describe('a runtime that registers nrictl and then goes silent', () => {
  it('sync dump: no Synchronize within --timeout ends with exit 5 in time', async () => {
    const peer = await listen();
    try {
      let registeredAt = 0;
      void peer.next().then(async (s) => {
        await s.registered;
        registeredAt = Date.now();
        await s.call('Configure', MODERN_CONFIGURE); // then nothing: no Synchronize
      });
      const r = await runCli(['sync', 'dump', '--socket', peer.socketPath, '--timeout', '1s']);
      // Counted from the registration, not from the CLI's own start-up.
      expect(Date.now() - registeredAt).toBeLessThan(1000 + 1000);
      expect(r.code).toBe(5);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(/not completed within 1s: no final Synchronize request/);
    } finally {
      await peer.close();
    }
  });

  for (const cmd of [
    ['update', 'c1aa', '--cpus', '0', '--yes'],
    ['evict', 'c1aa', '--reason', 'test', '--yes'],
  ]) {
    it(`${cmd[0]}: UpdateContainers unanswered within --timeout ends with exit 6 in time`, async () => {
      let sentAt = 0;
      const peer = await listen({
        update: () => {
          sentAt = Date.now();
          return never();
        },
      });
      try {
        void peer.next().then((s) => s.handshake(MODERN_CONFIGURE, [{ pods: [POD], containers: [CTR] }]));
        const r = await runCli([...cmd, '--socket', peer.socketPath, '--timeout', '1s']);
        // Counted from the request's arrival, not from the CLI's own start-up.
        expect(Date.now() - sentAt).toBeLessThan(1000 + 1000);
        expect(r.code).toBe(6);
        expect(r.stderr.trim().split('\n')).toHaveLength(1);
        expect(r.stderr).toContain(
          `Error: ${peer.socketPath} registered nrictl but did not answer UpdateContainers within 1s`,
        );
        expect(peer.sessions[0].updates).toHaveLength(1);
      } finally {
        await peer.close();
      }
    });
  }

  it("update without --timeout waits the runtime's own request timeout from Configure", async () => {
    const peer = await listen({ update: never });
    try {
      void peer
        .next()
        .then((s) => s.handshake({ ...MODERN_CONFIGURE, requestTimeout: 700 }, [{ pods: [POD], containers: [CTR] }]));
      const r = await runCli(['update', 'c1aa', '--cpus', '0', '--yes', '--socket', peer.socketPath]);
      expect(r.code).toBe(6);
      expect(r.stderr).toContain('did not answer UpdateContainers within 700ms');
    } finally {
      await peer.close();
    }
  });

  it('Ctrl-C while update registers: "cancelled: nothing was sent", exit 1', async () => {
    const peer = await listen({ register: never });
    try {
      const run = startCli(['update', 'c1aa', '--cpus', '0', '--yes', '--socket', peer.socketPath]);
      await (
        await peer.next()
      ).registered;
      run.child.kill('SIGINT');
      const { code } = await run.exited;
      expect(code).toBe(1);
      expect(run.stderr().trim()).toBe('Error: cancelled while registering: nothing was sent');
    } finally {
      await peer.close();
    }
  });
});

// One at a time too, before the tests below run side by side: a run in this process lends
// its TMPDIR to the whole process while it lasts, where a simulator that a test beside it
// started would make its directory.
describe('checked before connecting', () => {
  const bad: Array<[string, string[], RegExp]> = [
    ['an empty --plugin-name', ['--plugin-name', ''], /^Error: --plugin-name "": invalid plugin name: name is empty/],
    [
      'a --plugin-name with a space',
      ['--plugin-name', 'a b'],
      /^Error: --plugin-name "a b": invalid plugin name "a b": contains invalid character ' '/,
    ],
    [
      'a one-digit --plugin-index',
      ['--plugin-index', '7'],
      /^Error: --plugin-index "7": invalid plugin index "7", must be 2 digits/,
    ],
  ];
  const commands: string[][] = [
    ['sync', 'dump'],
    ['logs'],
    ['update', 'c1aa', '--cpus', '0', '--yes'],
    ['evict', 'c1aa', '--reason', 'x', '--yes'],
    ['doctor', '--root', '.'],
  ];
  // Every connecting command checks these flags before it starts anything, through one
  // parser (the messages are src/api's, tested there): each command once, with each bad
  // value in turn, rather than every pair.
  commands.forEach((cmd, i) => {
    const [what, flags, message] = bad[i % bad.length];
    it(`${cmd.slice(0, cmd[0] === 'sync' ? 2 : 1).join(' ')}: ${what} is exit 2, and no simulator is left behind`, async ({
      expect,
    }) => {
      // A temporary directory of its own, where the simulator would make its socket's.
      const tmp = mkdtempSync(path.join(t.dir, 'tmp-'));
      const r = await runCli([...cmd, ...flags, '--sim', 'examples/demo.yaml'], { TMPDIR: tmp });
      expect(r.code).toBe(2);
      expect(r.stderr.trim()).toMatch(message);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(readdirSync(tmp)).toEqual([]);
    });
  });

  it('--timeout without a unit is exit 2', async ({ expect }) => {
    const r = await runCli(['sync', 'dump', '--sim', 'examples/demo.yaml', '--timeout', '5']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe('Error: --timeout 5: a duration needs a unit, such as 2s or 500ms');
  });

  it('--timeout beyond the timer limit is exit 2 in one line, not an instant timeout', async ({ expect }) => {
    // Node fires a timer of 2^31 ms or more at once (TimeoutOverflowWarning): 600h failed registration, exit 5.
    const r = await runCli(['sync', 'dump', '--sim', 'examples/demo.yaml', '--timeout', '600h']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(
      'Error: --timeout 600h: longer than the longest wait nrictl can time, 596h31m23.647s (2^31-1 ms)',
    );
  });

  it('--timeout takes Go duration syntax', async ({ expect }) => {
    const r = await runCli(['sync', 'dump', '--sim', 'examples/demo.yaml', '--timeout', '1m2.5s']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });
});

describe.concurrent('confirmation without a terminal', () => {
  for (const cmd of [
    ['update', 'c2c3', '--cpus', '1'],
    ['evict', 'c2c3', '--reason', 'test'],
  ]) {
    for (const env of [{ CI: '1' }, { CI: undefined }]) {
      it(`${cmd[0]} with ${env.CI ? 'CI set' : 'stdin not a terminal'} and no --yes: refuses with exit 2, nothing sent`, async ({
        expect,
      }) => {
        const sim = await startRuntime({ pods: [POD], containers: [{ ...CTR, id: 'c2c3d4e5f6a7' }] });
        try {
          const r = await runCli([...cmd, '--socket', sim.socketPath], env);
          expect(r.code).toBe(2);
          expect(r.stderr.trim()).toBe(
            'Error: no terminal to confirm on (stdin or stdout is not a terminal, or CI is set): add --yes to send without asking, or --dry-run to only look',
          );
          expect(sim.of('registered')).toEqual([]);
        } finally {
          await sim.stop();
        }
      });
    }
  }
});

describe.concurrent('pipes and malformed frames', () => {
  it('sync dump -o json | head -c 10 on a large state: exit 0, nothing on stderr', async ({ expect }) => {
    const big = generateScenario({ pods: 400, containersPerPod: 5 });
    // Neither side's deadline is under test: on a busy machine 2,000 containers can take
    // longer than the default bounds to be sent and read, so both are generous.
    const large = await startRuntime(
      { pods: big.pods, containers: big.containers },
      { requestTimeoutMs: 60_000, registrationTimeoutMs: 60_000 },
    );
    const dump = ['sync', 'dump', '--socket', large.socketPath, '-o', 'json', '--timeout', '60s'];
    const child = spawn(process.execPath, [BIN, ...dump], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: cliEnv(),
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    let got = 0;
    child.stdout.on('data', (d: Buffer) => {
      got += d.length;
      if (got >= 10) child.stdout.destroy(); // what `head -c 10` does once it has its bytes
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    await large.stop();
    expect(got).toBeGreaterThanOrEqual(10);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
  });

  it('a peer that sends garbage: nrictl says it rejected a malformed frame (exit 6)', async ({ expect }) => {
    const socketPath = path.join(t.dir, 'garbage.sock');
    const server = net.createServer((sock) => {
      // A mux header announcing a frame far over the limit: nothing NRI would send.
      sock.write(Buffer.from([0, 0, 0, 1, 0xff, 0xff, 0xff, 0xff]));
    });
    await new Promise<void>((resolve) => server.listen(socketPath, resolve));
    chmodSync(socketPath, 0o600);
    try {
      const r = await runCli(['sync', 'dump', '--socket', socketPath]);
      expect(r.code).toBe(6);
      expect(r.stderr.trim()).toMatch(
        new RegExp(`^Error: nrictl rejected a malformed message from ${socketPath}.* and closed the connection: `),
      );
      expect(r.stderr).not.toContain('dropped the plugin');
    } finally {
      server.close();
    }
  });
});

describe.concurrent('doctor reaches the socket it is given', () => {
  it('honours NRI_SOCKET_PATH and --socket', async ({ expect }) => {
    const sim = await startRuntime({ pods: [POD], containers: [CTR] });
    // A root of its own: the tests beside this one make files in t.dir.
    const root = mkdtempSync(path.join(t.dir, 'root-'));
    try {
      const [viaEnv, viaFlag] = await Promise.all([
        runCli(['doctor', '--root', root, '-o', 'json'], { NRI_SOCKET_PATH: sim.socketPath }),
        runCli(['doctor', '--root', root, '-o', 'json', '--socket', sim.socketPath]),
      ]);
      expect(JSON.parse(viaEnv.stdout)).toMatchObject({ connection: 'answered', runtime: { pods: 1, containers: 1 } });
      expect(JSON.parse(viaFlag.stdout)).toMatchObject({ connection: 'answered', runtime: { pods: 1, containers: 1 } });
    } finally {
      await sim.stop();
    }
  });

  it('--root that is not a directory is exit 2', async ({ expect }) => {
    const r = await runCli(['doctor', '--root', '/etc/passwd']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(
      "Error: --root: /etc/passwd is not a directory (the node's root directory: /, or where a node image is mounted)",
    );
  });
});

describe.concurrent('update warns about a value that is almost surely a missing unit', () => {
  it('--memory 100 is 100 bytes: warns, naming the likely unit', async ({ expect }) => {
    const [r, fine] = await Promise.all([
      runCli(['update', 'c2c3', '--memory', '100', '--dry-run', '--sim', 'examples/demo.yaml']),
      runCli(['update', 'c2c3', '--memory', '100Mi', '--dry-run', '--sim', 'examples/demo.yaml']),
    ]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(
      'Warning: --memory 100 means 100 bytes, which is almost surely a missing unit: did you mean 100Mi or 100Gi?',
    );
    expect(fine.stderr).not.toContain('Warning');
  });
});

describe.concurrent('progress and help', () => {
  it('update shows the spinner while it connects and registers (on a terminal)', async ({ expect }) => {
    const peer = await listen();
    // Every session (the update's, then the second look) is synchronized after a pause.
    let serving = true;
    void (async () => {
      while (serving) {
        const s = await peer.next();
        await new Promise((r) => setTimeout(r, 800));
        await s.handshake(MODERN_CONFIGURE, [{ pods: [POD], containers: [CTR] }]).catch(() => {});
      }
    })();
    try {
      const r = await nrictlOnTerminal(['update', 'c1aa', '--cpus', '0', '--yes', '--socket', peer.socketPath], []);
      expect(r.screen).toContain(`connecting to ${peer.socketPath}`);
      expect(r.screen).toContain('Applied');
      expect(r.code).toBe(0);
    } finally {
      serving = false;
      await peer.close();
    }
  });

  it('logs --help says that -e container and -e all include ValidateContainerAdjustment', async ({ expect }) => {
    const r = await runCli(['logs', '--help']);
    expect(r.stdout.replace(/\s+/g, ' ')).toContain('the groups all and container include it');
  });
});
