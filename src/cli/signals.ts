// Ctrl-C, SIGTERM and SIGHUP (a closed terminal), handled once for every command: they
// abort one AbortSignal that the library layers honour, so a command ends through its
// normal path (a summary, "cancelled: nothing was sent", a removed socket). bin/run.js
// starts listening before oclif loads, so a signal in the first moments is not lost to
// Node's default handler (which ends the process with 130 and no word).

const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
export type StopSignal = (typeof STOP_SIGNALS)[number];

/** What bin/run.js leaves behind: the signals that came before a command took over. */
interface EarlySignals {
  early: StopSignal[];
  onEarly: (signal: StopSignal) => void;
}
const EARLY = Symbol.for('nrictl.early-signals');

/** Why the stop signal fired: a signal, or the reader of stdout went away. */
export type StopReason = StopSignal | 'output-closed';

let controller: AbortController | undefined;

/**
 * The process's stop signal, created on first use. Its reason is the StopReason. A
 * second signal more than a second after the first, while the command is still winding
 * down, ends the process at once (128 + the signal's number), as a user pressing Ctrl-C
 * again expects; whatever holds files to remove does so on 'exit' (the runtime's listener).
 */
export function stopSignal(): AbortSignal {
  if (controller) return controller.signal;
  const ac = new AbortController();
  controller = ac;
  const handoff = (globalThis as Record<symbol, EarlySignals | undefined>)[EARLY];
  let firstAt = 0;
  const onSignal = (signal: StopSignal): void => {
    const stopping = ac.signal.aborted && ac.signal.reason !== 'output-closed';
    // A signal right behind the first (a supervisor's TERM then INT) joins the stop under way.
    if (stopping && Date.now() - firstAt > SECOND_SIGNAL_GRACE_MS) process.exit(128 + SIGNAL_NUMBER[signal]);
    if (!stopping) firstAt = Date.now();
    ac.abort(signal);
  };
  for (const s of STOP_SIGNALS) {
    if (handoff) process.off(s, handoff.onEarly);
    process.on(s, onSignal);
  }
  const first = handoff?.early[0];
  if (first) {
    firstAt = Date.now();
    ac.abort(first);
  }
  return ac.signal;
}

/** Stops the command because nobody reads its output any more (`| head`): a normal end. */
export function stopForClosedOutput(): void {
  const ac = controller;
  if (ac && !ac.signal.aborted) ac.abort('output-closed' satisfies StopReason);
}

const SIGNAL_NUMBER: Record<StopSignal, number> = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 };
/** How long after the first signal a second one still only joins the stop. */
const SECOND_SIGNAL_GRACE_MS = 1000;
