// `nrictl sim` stops when told to: Ctrl-C on a terminal (a real pseudo-terminal from
// util-linux `script`), SIGTERM and SIGINT sent to the real process, `quit` typed at the
// prompt, and a scenario with nothing left to do. Each run must end within a bound and
// leave no socket and no directory of its own behind.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { assertBuilt, BIN, cliEnv } from './nri-cli.js';
import { builtBundle } from '../support/built.js';

const repo = path.resolve(import.meta.dirname, '../..');
/** Generous for a loaded 2-core machine; a sim that ignores the signal never gets there. */
const EXIT_BOUND_MS = 15_000;
const hasScript = spawnSync('script', ['--version']).status === 0;

let tmp: string;
beforeAll(() => {
  assertBuilt('sim');
  tmp = mkdtempSync(path.join(os.tmpdir(), 'simsig-'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

interface Run {
  child: ChildProcess;
  output(): string;
  /** Resolves once the output matches. */
  shows(text: RegExp): Promise<RegExpMatchArray>;
  /** Resolves with the exit code, or rejects when the process is still alive after the bound. */
  exitWithin(ms: number): Promise<number | null>;
  write(keys: string): void;
}

function watch(child: ChildProcess): Run {
  let out = '';
  const waiters: Array<() => void> = [];
  const onData = (d: Buffer): void => {
    out += d.toString();
    for (const w of waiters.splice(0)) w();
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  const closed = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return {
    child,
    output: () => out,
    shows: (text) =>
      new Promise((resolve, reject) => {
        const check = (): void => {
          const m = out.match(text);
          if (m) resolve(m);
          else waiters.push(check);
        };
        void closed.then(() => reject(new Error(`exited before showing ${String(text)}; output:\n${out}`)));
        check();
      }),
    exitWithin: (ms) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          child.kill('SIGKILL');
          reject(new Error(`still running ${ms} ms later; output:\n${out}`));
        }, ms);
        void closed.then((code) => {
          clearTimeout(timer);
          resolve(code);
        });
      }),
    write: (keys) => void child.stdin?.write(keys),
  };
}

/** `nrictl sim ...args` as a plain child process: stdin, stdout and stderr are pipes, CI is set. */
function simOnPipes(args: string[]): Run {
  return watch(
    spawn(process.execPath, [BIN, 'sim', ...args], {
      cwd: repo,
      env: cliEnv({ CI: '1' }),
      stdio: ['pipe', 'pipe', 'pipe'],
    }),
  );
}

const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * `nrictl sim ...args` on a pseudo-terminal, CI unset: interactive by default, Ctrl-C is a key.
 * `script` runs the command through `$SHELL -c`; `exec` makes node the only process in the
 * terminal's foreground group, as at a real prompt. Without it a shell that does not exec
 * its last command itself (dash, the /bin/sh a bare CI machine falls back to) would also
 * take the SIGINT, die of it, and report 130 whatever the simulator did.
 */
function simOnTerminal(args: string[]): Run {
  const cmd = `exec ${[process.execPath, BIN, 'sim', ...args].map(quote).join(' ')}`;
  return watch(
    spawn('script', ['-qfec', cmd, '/dev/null'], {
      cwd: repo,
      env: cliEnv({ CI: undefined, TERM: 'dumb', SHELL: '/bin/sh' }),
      stdio: ['pipe', 'pipe', 'pipe'],
    }),
  );
}

/** The pid of the node process running `sim` with this argument (under `script` it is a grandchild). */
function simPid(marker: string): number {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let argv: string[];
    try {
      argv = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
    } catch {
      continue;
    }
    if (argv[0] === process.execPath && argv.includes(BIN) && argv.includes(marker)) return Number(entry);
  }
  throw new Error(`no sim process with ${marker}`);
}

const LISTENING = /listening\s+(\/\S+\/nri\.sock)/;

/** A fresh 0700 directory and a socket path in it that names this run. */
function socketIn(name: string): string {
  return path.join(mkdtempSync(path.join(tmp, `${name}-`)), 'nri.sock');
}

describe.skipIf(!hasScript)('nrictl sim on a terminal (needs util-linux script)', { concurrent: true }, () => {
  it('Ctrl-C at the prompt stops it and removes its socket directory', async ({ expect }) => {
    const run = simOnTerminal([]);
    const [, socketPath] = await run.shows(LISTENING);
    await run.shows(/help \| quit/);
    run.write('\x03');
    expect(await run.exitWithin(EXIT_BOUND_MS)).toBe(0);
    expect(existsSync(path.dirname(socketPath))).toBe(false);
  });

  it('SIGTERM stops it while the prompt reads the terminal', async ({ expect }) => {
    const socketPath = socketIn('term');
    const run = simOnTerminal(['--socket', socketPath]);
    await run.shows(/help \| quit/);
    process.kill(simPid(socketPath), 'SIGTERM');
    expect(await run.exitWithin(EXIT_BOUND_MS)).toBe(0);
    expect(existsSync(socketPath)).toBe(false);
  });

  it('--keep-running with a scenario stops on Ctrl-C, as its help says', async ({ expect }) => {
    const run = simOnTerminal(['examples/demo.yaml', '--keep-running']);
    const [, socketPath] = await run.shows(LISTENING);
    await run.shows(/script done/);
    run.write('\x03');
    expect(await run.exitWithin(EXIT_BOUND_MS)).toBe(0);
    expect(existsSync(path.dirname(socketPath))).toBe(false);
  });

  it('quit typed at the prompt stops it', async ({ expect }) => {
    const run = simOnTerminal([]);
    const [, socketPath] = await run.shows(LISTENING);
    await run.shows(/help \| quit/);
    run.write('quit\r');
    expect(await run.exitWithin(EXIT_BOUND_MS)).toBe(0);
    expect(existsSync(path.dirname(socketPath))).toBe(false);
  });
});

describe.concurrent('nrictl sim without a terminal', () => {
  it.for([
    ['a scenario without steps', 'pods:\n  - {id: p0, name: web, namespace: shop}\n'],
    ['an empty scenario file', ''],
  ])('%s: runs its (no) steps and exits by itself', async ([, text], { expect }) => {
    const file = path.join(tmp, `nosteps-${text.length}.yaml`);
    writeFileSync(file, text);
    const run = simOnPipes([file]);
    const [, socketPath] = await run.shows(LISTENING);
    expect(await run.exitWithin(EXIT_BOUND_MS)).toBe(0);
    expect(run.output()).toMatch(/script done: 0 steps, 0 failed/);
    expect(existsSync(path.dirname(socketPath))).toBe(false);
  });

  it.for(['SIGTERM', 'SIGINT'] as const)(
    '%s while --wait-for-plugins waits stops it and removes the socket',
    async (signal, { expect }) => {
      const socketPath = socketIn('wait');
      const run = simOnPipes(['examples/demo.yaml', '--wait-for-plugins', '1', '--socket', socketPath]);
      await run.shows(LISTENING);
      run.child.kill(signal);
      expect(await run.exitWithin(EXIT_BOUND_MS)).toBe(0);
      expect(existsSync(socketPath)).toBe(false);
      expect(run.output()).not.toMatch(/script done/);
    },
  );

  it('SIGTERM then SIGINT while waiting: the first one already stops it', async ({ expect }) => {
    const socketPath = socketIn('twice');
    const run = simOnPipes(['examples/demo.yaml', '--wait-for-plugins', '2', '--socket', socketPath]);
    await run.shows(LISTENING);
    run.child.kill('SIGTERM');
    run.child.kill('SIGINT');
    expect(await run.exitWithin(EXIT_BOUND_MS)).toBe(0);
    expect(existsSync(socketPath)).toBe(false);
  });

  it('SIGTERM stops --keep-running after the script', async ({ expect }) => {
    const run = simOnPipes(['examples/demo.yaml', '--keep-running']);
    const [, socketPath] = await run.shows(LISTENING);
    await run.shows(/script done/);
    run.child.kill('SIGTERM');
    expect(await run.exitWithin(EXIT_BOUND_MS)).toBe(0);
    expect(existsSync(path.dirname(socketPath))).toBe(false);
  });

  it('SIGINT stops --interactive reading piped stdin that stays open', async ({ expect }) => {
    const run = simOnPipes(['--interactive']);
    const [, socketPath] = await run.shows(LISTENING);
    await run.shows(/help \| quit/);
    run.child.kill('SIGINT');
    expect(await run.exitWithin(EXIT_BOUND_MS)).toBe(0);
    expect(existsSync(path.dirname(socketPath))).toBe(false);
  });
});

describe.concurrent('nrictl sim removes its socket and directory on every way out', () => {
  it('SIGHUP (a closed terminal) stops it like SIGTERM', async ({ expect }) => {
    const run = simOnPipes(['demo', '--keep-running']);
    const [, socketPath] = await run.shows(LISTENING);
    await run.shows(/script done/);
    run.child.kill('SIGHUP');
    expect(await run.exitWithin(EXIT_BOUND_MS)).toBe(0);
    expect(existsSync(path.dirname(socketPath))).toBe(false);
  });

  it.for([[], ['-o', 'json']])('a reader that goes away: nrictl sim demo %j | head -1', async (format, { expect }) => {
    const cmd = `${[process.execPath, BIN, 'sim', 'demo', ...format].map(quote).join(' ')} | head -1`;
    const run = watch(
      spawn('sh', ['-c', cmd], { cwd: repo, env: cliEnv({ CI: '1' }), stdio: ['pipe', 'pipe', 'pipe'] }),
    );
    expect(await run.exitWithin(EXIT_BOUND_MS)).toBe(0);
    const socketPath = /(\/\S+\/nri\.sock)/.exec(run.output())?.[1];
    expect(socketPath).toBeDefined();
    expect(existsSync(path.dirname(socketPath!))).toBe(false);
  });

  it('a second Ctrl-C, while the first still waits for a plugin, ends it at once', async ({ expect }) => {
    // A pre-started plugin that never answers CreateContainer: the first stop waits for it.
    // It leaves a mark when asked, so that the first Ctrl-C comes while the call is open,
    // however long the way there takes on a busy machine.
    const dir = mkdtempSync(path.join(tmp, 'hang-'));
    const plugins = path.join(dir, 'plugins');
    const asked = path.join(dir, 'asked-to-create');
    mkdirSync(plugins);
    writeFileSync(
      path.join(plugins, '10-hang'),
      `#!${process.execPath}\nconst { writeFileSync } = require('node:fs');\nconst { Stub } = require(${JSON.stringify(await builtBundle())});\n` +
        `void new Stub({ createContainer: () => { writeFileSync(${JSON.stringify(asked)}, ''); return new Promise(() => {}); } }).start();\n`,
      { mode: 0o755 },
    );
    const run = simOnPipes(['demo', '--plugin-dir', plugins, '--request-timeout', '60s', '--calls']);
    const [, socketPath] = await run.shows(LISTENING);
    const [, pid] = await run.shows(/launched\s+10-hang \(pid (\d+)/);
    try {
      await expect.poll(() => existsSync(asked), { timeout: EXIT_BOUND_MS, interval: 50 }).toBe(true);
      run.child.kill('SIGINT');
      await new Promise((r) => setTimeout(r, 1200)); // a second Ctrl-C, well after the first
      run.child.kill('SIGINT');
      expect(await run.exitWithin(EXIT_BOUND_MS)).toBe(130);
      expect(existsSync(path.dirname(socketPath))).toBe(false);
    } finally {
      // Its SDK, its connection closed while the handler runs, waits up to the 60 s timeout
      // to say whether the handler ran past it: the test ends it rather than leave it behind.
      try {
        process.kill(Number(pid), 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
  });
});
