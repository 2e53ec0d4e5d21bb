// `nrictl sim` as one library call: check every input, start the simulated runtime
// (pre-started plugins launched and registered, as the Go adaptation's Start does),
// wait for the external plugins asked for, run the scenario's script or judge its
// expectations, hand the runtime to an interactive driver or keep serving, and stop,
// removing the socket, on every way out: the end, an error, or the signal.
import type { Outcome } from '../../expect/index.js';
import type { SimEvent } from '../events.js';
import { runExpectations } from './expectations.js';
import { planSimulation, type SimulationInputs } from './inputs.js';
import { Runtime } from './runtime.js';
import { runScript, type Pace } from './script.js';
import { SimState } from './state.js';

/** What `nrictl sim` is given: the inputs, checked before anything starts, and how the run is driven. */
export interface SimulationOptions extends SimulationInputs {
  /** Before the script: wait until this many plugins are live (registered and synchronized; pre-started ones count). */
  waitForPlugins?: number;
  /** After the script, serve until the signal. */
  keepRunning?: boolean;
  /** The run's records as they come: every event, in the order it happened, and the script's end. */
  onRecord?: (r: SimulationRecord) => void;
  /** Awaited before each step of the script: the records' reader has room again (a bounded output). */
  pace?: Pace;
  /** After the script (or without one), the runtime is driven by this until it resolves: an interactive prompt. */
  drive?: (runtime: Runtime, signal: AbortSignal) => Promise<void>;
  /** Once the plugins are there, before the first step: what must see every step too (replay's probes). */
  beforeScript?: (runtime: Runtime, signal: AbortSignal) => Promise<void>;
  /** After the last step (or the stop), before the runtime stops; only when beforeScript ran. */
  afterScript?: () => Promise<void>;
}

/** The script ran to its end, or as far as it got before the signal: said when it happens. */
export interface ScriptDone {
  time: number;
  type: 'script-done';
  steps: number;
  failed: number;
  stopped: boolean;
}

/** What a simulation reports as it runs. */
export type SimulationRecord = SimEvent | ScriptDone;

export interface SimulationResult {
  /** The socket plugins could dial (undefined when the run ended before it listened). */
  socketPath?: string;
  /** The CRI socket, when one was served. */
  criSocketPath?: string;
  /** The scenario's script, when one ran without expectations. */
  script?: { steps: number; failed: number };
  /** The expectations judged, when an expectation file was given. */
  expectations?: { file: string; outcomes: Outcome[]; failed: number };
  /** The signal ended the run (Ctrl-C, SIGTERM, SIGHUP, a closed output). */
  stopped: boolean;
}

/**
 * Runs a simulation until its script is done (or, without one, or with keepRunning, until
 * the signal). Throws before anything starts when an input cannot be used
 * (SimulationInputError, ScenarioError, ExpectationError, ...). No fixed waits: pre-started
 * plugins are awaited through their registration, external ones with waitForPlugins.
 */
export async function runSimulation(opts: SimulationOptions, signal: AbortSignal): Promise<SimulationResult> {
  const plan = await planSimulation(opts);
  const result: SimulationResult = { stopped: false };
  if (signal.aborted) return { ...result, stopped: true };
  const runtime = new Runtime(new SimState(plan.scenario), plan.runtime);
  let afterScript: (() => Promise<void>) | undefined;
  const onRecord = opts.onRecord;
  if (onRecord) runtime.on('event', onRecord);
  // Removed on the way out: `--preset all` runs one simulation after another on one signal.
  let onAbort: () => void = () => {};
  const stopped = new Promise<void>((resolve) =>
    signal.addEventListener('abort', (onAbort = () => resolve()), { once: true }),
  );
  let cri: { socketPath: string; close(): Promise<void> } | undefined;
  let starting: Promise<unknown> | undefined;
  try {
    starting = runtime.start();
    await Promise.race([starting, stopped]);
    if (runtime.socketPath !== undefined) result.socketPath = runtime.socketPath;
    if (opts.criSocketPath !== undefined && !signal.aborted) {
      // Loaded only here: gRPC and the CRI bindings cost a run without CRI nothing.
      const { serveCri } = await import('./cri/serve.js');
      cri = await serveCri(runtime, opts.criSocketPath, {
        runtimeName: plan.runtime.runtimeName ?? '',
        runtimeVersion: plan.runtime.runtimeVersion ?? '',
        images: plan.scenario.images,
        ...(opts.signaturePolicy ? { unverifiableImage: plan.runtime.quirks?.signaturePolicyRefusal } : {}),
      });
      result.criSocketPath = cri.socketPath;
      onRecord?.({ time: Date.now(), type: 'listening', socketPath: cri.socketPath, api: 'cri' });
    }
    if (plan.scripted && !signal.aborted) {
      if (opts.waitForPlugins !== undefined) await Promise.race([livePlugins(runtime, opts.waitForPlugins), stopped]);
      if (!signal.aborted && opts.beforeScript) {
        await opts.beforeScript(runtime, signal);
        afterScript = opts.afterScript;
      }
      if (signal.aborted) {
        // Stopped while waiting: nothing ran.
      } else if (plan.expectations) {
        const outcomes = await runExpectations(runtime, plan.steps, plan.labels, plan.expectations, signal, opts.pace);
        const failed = outcomes.filter((o) => !o.ok).length;
        result.expectations = { file: plan.expectations.file, outcomes, failed };
      } else {
        result.script = await runScript(runtime, plan.steps, signal, opts.pace);
        onRecord?.({ time: Date.now(), type: 'script-done', ...result.script, stopped: signal.aborted });
      }
    }
    if (!signal.aborted) {
      if (opts.drive) await opts.drive(runtime, signal);
      else if (opts.keepRunning || !plan.scripted) await stopped;
    }
  } finally {
    signal.removeEventListener('abort', onAbort);
    await afterScript?.();
    await cri?.close();
    await runtime.stop();
    // Stopped while starting: start() still finishes what it began (the socket's directory,
    // a plugin it was launching) and undoes it; returning before that would let it make them
    // after the caller removed their place (--preset all's run directory, left behind).
    await starting?.catch(() => {});
    if (onRecord) runtime.off('event', onRecord);
  }
  result.stopped = signal.aborted;
  return result;
}

/** Resolves once `wanted` plugins are live (synchronized and not dropped since); the caller races it against a stop. */
async function livePlugins(runtime: Runtime, wanted: number): Promise<void> {
  const live = new Set<string>();
  for (const p of runtime.plugins()) live.add(p.name); // plugins() lists the live ones (joined: synchronized where the runtime does that)
  if (live.size >= wanted) return;
  await new Promise<void>((resolve) => {
    const onEvent = (e: SimEvent): void => {
      if (e.type === 'synchronized') live.add(e.plugin);
      if (e.type === 'dropped' || e.type === 'stopped') live.delete(e.plugin);
      if (live.size >= wanted) {
        runtime.off('event', onEvent);
        resolve();
      }
    };
    runtime.on('event', onEvent);
  });
}
