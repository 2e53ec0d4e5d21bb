// Child processes for the fidelity script: each with a deadline, its output kept in a log
// file (critest's is long), stdout captured with a bound when asked for.
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { connect } from 'node:net';

const STDOUT_BOUND = 16 * 1024 * 1024;

/**
 * Runs a command to its end or its deadline (then its process group is killed). Resolves
 * { code, signal, stdout, timedOut, ms }; stderr (and stdout unless captured) goes to `log`.
 * `onSpawn` gets the child's pid, which is also its process group's.
 */
export function runCommand(cmd, args, { env, cwd, log, timeoutMs, capture = false, stdin = 'ignore', onSpawn }) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const sink = createWriteStream(log, { flags: 'a' });
    sink.write(`$ ${cmd} ${args.join(' ')}\n`);
    const child = spawn(cmd, args, { env, cwd, stdio: [stdin, 'pipe', 'pipe'], detached: true });
    if (child.pid) onSpawn?.(child.pid);
    let stdout = '';
    let overflow = false;
    child.stdout.on('data', (chunk) => {
      if (!capture) return void sink.write(chunk);
      if (stdout.length + chunk.length > STDOUT_BOUND) overflow = true;
      else stdout += chunk;
    });
    child.stderr.on('data', (chunk) => sink.write(chunk));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid, 'SIGKILL');
    }, timeoutMs);
    child.on('error', (e) => {
      clearTimeout(timer);
      sink.end();
      reject(new Error(`${cmd}: ${e.message}`));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      sink.end(`[exit ${code ?? signal}${timedOut ? ', killed at its deadline' : ''}]\n`);
      if (overflow) return reject(new Error(`${cmd}: more than ${STDOUT_BOUND} bytes on stdout`));
      resolve({ code, signal, stdout, timedOut, ms: performance.now() - started });
    });
  });
}

/** Signals a process group, ignoring one that is gone. */
export function killGroup(pid, signal) {
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}

/** Whether something accepts connections on a unix socket within `ms`. */
export function socketAnswers(path, ms = 2000) {
  return new Promise((resolve) => {
    const s = connect(path);
    const done = (ok) => {
      clearTimeout(timer);
      s.destroy();
      resolve(ok);
    };
    const timer = setTimeout(() => done(false), ms);
    s.once('connect', () => done(true));
    s.once('error', () => done(false));
  });
}
