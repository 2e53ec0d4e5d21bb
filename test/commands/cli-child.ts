// The built CLI run to its end as a child process that the test waits for without
// blocking: what spawnSync gave (status, stdout, stderr, input on stdin, a timeout), but
// while one run waits (a scenario's sleeps, a runtime's answer) the worker runs other
// tests' children, and a simulator in the test's own process can answer.
import { spawn } from 'node:child_process';
import { BIN, cliEnv } from './nri-cli.js';

export interface CliResult {
  /** The exit code; null when a signal ended it (the timeout's SIGTERM among them). */
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  cwd?: string;
  /** The whole environment, as cliEnv() makes it; cliEnv() when not given. */
  env?: NodeJS.ProcessEnv;
  /** Written to stdin, which is then closed; stdin is closed at once when not given, as spawnSync does. */
  input?: string;
  /** Killed after this long, as spawnSync's timeout. */
  timeoutMs?: number;
  /** The signal the timeout sends; SIGTERM unless given. */
  killSignal?: NodeJS.Signals;
}

/** `node bin/run.js ...args` to completion. */
export function runBuilt(args: string[], opts: CliOptions = {}): Promise<CliResult> {
  return runProgram(process.execPath, [BIN, ...args], opts);
}

/** Any program (a shell pipeline around nrictl) to completion. */
export function runProgram(command: string, args: string[], opts: CliOptions = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: opts.cwd,
      env: opts.env ?? cliEnv(),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    // A child that exits before reading its input closes the pipe: not the test's failure.
    child.stdin.on('error', () => {});
    child.stdin.end(opts.input ?? '');
    const timer =
      opts.timeoutMs === undefined
        ? undefined
        : setTimeout(() => child.kill(opts.killSignal ?? 'SIGTERM'), opts.timeoutMs).unref();
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}
