// Runs a runtime process and times a stretch of its work from outside: the process
// prints one line per finished cycle (its RemoveContainer event); at the `from`-th and
// the `to`-th such line the bench notes the time and the process's CPU time, then stops
// it with SIGTERM. Both runtimes flush a line per event, so a line's arrival is the
// event's time to within a pipe wake-up.
import { spawn } from 'node:child_process';
import { childrenCpuNs, processCpuNs } from './thread-cpu.js';

export interface Stretch {
  /** Cycles timed (to - from). */
  cycles: number;
  wallMs: number;
  cpuNs: number;
  /** From the spawn to the end of the last cycle: start-up and warm-up included. */
  wholeWallMs: number;
  /** The process's CPU time up to the end of the last cycle. */
  wholeCpuNs: number;
  /** CPU time of its child processes (the plugins) over the timed cycles. */
  pluginsCpuNs: number;
}

export interface WatchedRun {
  command: string;
  args: string[];
  /** Whether a stdout line marks the end of a cycle. Called only for lines containing `hint`. */
  isCycleEnd(line: string): boolean;
  hint: string;
  from: number;
  to: number;
  timeoutMs?: number;
  env?: NodeJS.ProcessEnv;
}

export function watchRun(run: WatchedRun): Promise<Stretch> {
  return new Promise((resolve, reject) => {
    const spawned = performance.now();
    const child = spawn(run.command, run.args, { stdio: ['ignore', 'pipe', 'pipe'], env: run.env ?? process.env });
    let seen = 0;
    let start: { t: number; cpu: number; plugins: number } | undefined;
    let result: Stretch | undefined;
    let partial = '';
    let stderr = '';
    const tail: string[] = [];
    const timer = setTimeout(() => child.kill('SIGKILL'), run.timeoutMs ?? 300_000);
    const mark = (): void => {
      seen++;
      if (seen === run.from)
        start = { t: performance.now(), cpu: processCpuNs(child.pid!), plugins: childrenCpuNs(child.pid!) };
      if (seen === run.to && start) {
        const t = performance.now();
        const cpu = processCpuNs(child.pid!);
        const plugins = childrenCpuNs(child.pid!) - start.plugins;
        result = {
          cycles: run.to - run.from,
          wallMs: t - start.t,
          cpuNs: cpu - start.cpu,
          wholeWallMs: t - spawned,
          wholeCpuNs: cpu,
          pluginsCpuNs: plugins,
        };
        child.kill('SIGTERM');
      }
    };
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      const lines = (partial + chunk).split('\n');
      partial = lines.pop()!;
      for (const line of lines) {
        if (line.includes(run.hint) && run.isCycleEnd(line)) mark();
        tail.push(line);
        if (tail.length > 5) tail.shift();
      }
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      if (stderr.length < 20_000) stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (result) return resolve(result);
      reject(
        new Error(
          `${run.command} ${run.args.join(' ')} ended (${code ?? signal}) after ${seen} of ${run.to} cycles\nstdout tail:\n${tail.join('\n')}\nstderr:\n${stderr.slice(-2000)}`,
        ),
      );
    });
  });
}
