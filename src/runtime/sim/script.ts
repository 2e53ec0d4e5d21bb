// Runs a scenario's `steps:` against a Runtime, one step after the other. A step that
// names something that does not exist is reported and skipped, so one typo does not
// hide the rest of the run.
import type { Runtime } from './runtime.js';
import type { Step } from './scenario.js';
import { stamp } from '../events.js';

/** "create ctr-web", "run-pod pod0", "sleep 200": how a step is named in `after:`. */
export function stepLabel(step: Step): string {
  switch (step.kind) {
    case 'run-pod':
      return `run-pod ${step.pod.id ?? ''}`;
    case 'create':
      return `create ${step.container.id ?? ''}`;
    case 'sleep':
      return `sleep ${step.ms}`;
    default:
      return `${step.kind} ${step.id}`;
  }
}

export interface ScriptResult {
  steps: number;
  failed: number;
}

/** Resolves false when the step failed in a way the runtime already reported (a refused creation, a plugin's error). */
export async function runStep(runtime: Runtime, step: Step, signal?: AbortSignal): Promise<boolean | void> {
  switch (step.kind) {
    case 'run-pod':
      return (await runtime.runPodSandbox(step.pod)).ok;
    case 'update-pod':
      return (await runtime.updatePodSandbox(step.id, step.resources, step.overhead)).ok;
    case 'stop-pod':
      return runtime.stopPodSandbox(step.id);
    case 'remove-pod':
      return runtime.removePodSandbox(step.id);
    case 'create': {
      // A conflict, a validator's rejection or a plugin error fails the creation.
      const r = await runtime.createContainer(step.container.podSandboxId ?? '', step.container);
      return r.ok;
    }
    case 'start':
      return runtime.startContainer(step.id);
    case 'update':
      return (await runtime.updateContainer(step.id, step.resources)).ok;
    case 'stop':
      return runtime.stopContainer(step.id);
    case 'remove':
      return runtime.removeContainer(step.id);
    case 'sleep':
      await sleep(step.ms, signal);
      return;
  }
}

/**
 * Asked before each step: what the run's reader asks to wait for (its output has room
 * again), or undefined while it keeps up, and then nothing is awaited: the step starts in
 * the same turn. A simulated runtime can wait for a slow reader; a real one cannot.
 */
export type Pace = () => Promise<void> | undefined;

/** Waits for the pace's promise, cut short by a stop. */
async function beforeStep(wait: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (signal?.aborted) return;
  if (signal === undefined) return wait;
  let onAbort: (() => void) | undefined;
  const stopped = new Promise<void>((resolve) => {
    onAbort = () => resolve();
    signal.addEventListener('abort', onAbort);
  });
  try {
    await Promise.race([wait, stopped]);
  } finally {
    if (onAbort) signal.removeEventListener('abort', onAbort);
  }
}

/** A script's steps: a scenario's list, or a recording's, read as the replay goes (sim --replay). */
export type Steps = Iterable<Step> | AsyncIterable<Step>;

export async function runScript(
  runtime: Runtime,
  steps: Steps,
  signal?: AbortSignal,
  pace?: Pace,
): Promise<ScriptResult> {
  let failed = 0;
  const n = await eachStep(steps, signal, pace, async (step, i) => {
    try {
      if ((await runStep(runtime, step, signal)) === false) failed++;
    } catch (err) {
      failed++;
      runtime.emit(
        'event',
        stamp({ type: 'error', event: `step ${i + 1} (${step.kind})`, message: (err as Error).message }),
      );
    }
  });
  return { steps: n, failed };
}

/**
 * The one loop over a script's steps (runScript's, and runExpectations' that judges after
 * each): the pace awaited before each step, none started once stopped, the source closed
 * however it ends. Resolves how many steps ran. A list's steps are read at once, so that
 * the first starts in the turn the script does; a source's (a replay's, read as it goes)
 * as they come.
 */
export async function eachStep(
  steps: Steps,
  signal: AbortSignal | undefined,
  pace: Pace | undefined,
  run: (step: Step, index: number) => Promise<void>,
): Promise<number> {
  const reader = stepReader(steps);
  let n = 0;
  try {
    for (;;) {
      const next = reader.next();
      const got = next instanceof Promise ? await next : next;
      if (got.done) break;
      const wait = pace?.();
      if (wait) await beforeStep(wait, signal);
      if (signal?.aborted) break;
      await run(got.value, n++);
    }
  } finally {
    await reader.close();
  }
  return n;
}

function stepReader(steps: Steps): {
  next(): IteratorResult<Step> | Promise<IteratorResult<Step>>;
  close(): Promise<unknown>;
} {
  if (Symbol.asyncIterator in steps) {
    const it = steps[Symbol.asyncIterator]();
    return { next: () => it.next(), close: async () => it.return?.() };
  }
  const it = steps[Symbol.iterator]();
  return { next: () => it.next(), close: async () => it.return?.() };
}

/** A scripted pause that a stop (Ctrl-C, SIGTERM) cuts short (a replay's pace too). */
export function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
