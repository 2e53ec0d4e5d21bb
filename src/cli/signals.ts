// Ctrl-C, SIGTERM and SIGHUP (a closed terminal), handled for every command: they abort
// one AbortSignal that the library layers honour, so a command ends through its normal
// path (a summary, "cancelled: nothing was sent", a removed socket). bin/run.js starts
// listening before oclif loads, so a signal in the first moments is not lost to Node's
// default handler (which ends the process with 130 and no word).
//
// The listening belongs to one command's run, from its start to its end: the command
// releases it when it ends, so a process that runs commands one after another (a test
// worker) gives each a stop signal of its own and keeps no handler of theirs.

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

export interface StopListener {
  /** Aborted with the StopReason. */
  readonly signal: AbortSignal;
  /** Stops listening for the signals; the signal stays as it is. */
  release(): void;
}

/** The running command's listener, which a closed stdout stops too. */
let current: AbortController | undefined;

/**
 * Listens for the stop signals on behalf of one command. A second signal more than a
 * second after the first, while the command is still winding down, ends the process at
 * once (128 + the signal's number), as a user pressing Ctrl-C again expects; whatever
 * holds files to remove does so on 'exit' (the runtime's listener).
 */
export function listenForStop(): StopListener {
  const ac = new AbortController();
  current = ac;
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
  const first = handoff?.early.shift();
  if (first) {
    firstAt = Date.now();
    ac.abort(first);
  }
  return {
    signal: ac.signal,
    release: () => {
      for (const s of STOP_SIGNALS) process.off(s, onSignal);
      if (current === ac) current = undefined;
    },
  };
}

/** Stops the running command because nobody reads its output any more (`| head`): a normal end. */
export function stopForClosedOutput(): void {
  const ac = current;
  if (ac && !ac.signal.aborted) ac.abort('output-closed' satisfies StopReason);
}

const SIGNAL_NUMBER: Record<StopSignal, number> = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 };
/** How long after the first signal a second one still only joins the stop. */
const SECOND_SIGNAL_GRACE_MS = 1000;
