// What a streaming library (logs, trace, the simulator) hands its records and its notes
// to. The library only pushes; the command line decides where they go and how they look
// (src/cli/base-command.ts: a bounded queue into stdout, rendered in the -o format, and
// notes for people on stderr).

/**
 * Where a stream's records go. push() must never write or wait: it runs on the
 * runtime's reply path. A record that does not fit is dropped and counted.
 */
export interface RecordSink<R> {
  /** Hands a record on; false when it was dropped (counted in `dropped`). */
  push(record: R): boolean;
  /** Stops taking records and writes what is queued, for at most timeoutMs; complete: all of it was. */
  end(timeoutMs?: number): Promise<{ written: number; dropped: number; complete: boolean }>;
  /** Records handed to the output so far. */
  readonly written: number;
  /** Records dropped so far: the output could not keep up, or its reader went away. */
  readonly dropped: number;
  /**
   * Undefined while the output has room; else resolves when it has again. Only for a
   * source that may wait (the simulator's script); the runtime's reply path never calls it.
   */
  room(): Promise<void> | undefined;
}

/**
 * The reason of an aborted stop signal when stdout's reader went away (`| head`): the
 * stream ends as a pipeline expects, without waiting to write what nobody will read.
 */
export const OUTPUT_CLOSED = 'output-closed';

/** True when the signal was aborted because the output's reader went away. */
export function outputClosed(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true && signal.reason === OUTPUT_CLOSED;
}

/** A sink that keeps nothing (a trace summed up as findings by doctor): every record counts as written. */
export function discardingSink<R>(): RecordSink<R> {
  let written = 0;
  return {
    push: () => {
      written++;
      return true;
    },
    end: () => Promise.resolve({ written, dropped: 0, complete: true }),
    room: () => undefined,
    get written() {
      return written;
    },
    dropped: 0,
  };
}

/**
 * How a note of a stream is told to people, on stderr (never on stdout: notes are not
 * data): `say`, a line of its own ("nrictl logs: ..."; several for a text with line
 * breaks); `warning`, a "Warning: ..." line; `waiting`, the label of the spinner shown
 * while nrictl waits on the runtime (on a terminal, after 200 ms; the next note or the
 * end stops it). undefined: nothing to tell.
 */
export type Note = { say: string } | { warning: string } | { waiting: string };

/** Turns a library's note into what people are told. */
export type NoteView<N> = (note: N) => Note | undefined;
