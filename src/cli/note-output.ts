// A library's notes for people, on stderr: lines ("nrictl logs: registered ..."),
// warnings, and the spinner while nrictl waits on the runtime. Never on stdout: notes are
// not data, and a JSON stream must stay parseable.
import { spinner, type Note, type NoteView, type Spinner } from '../output/index.js';

export interface NoteWriters {
  /** A line of the command's own ("nrictl logs: ..."), dim. */
  say(text: string): void;
  /** A "Warning: ..." line. */
  warning(text: string): void;
}

export class NoteOutput {
  private waiting: Spinner | undefined;

  constructor(private readonly writers: NoteWriters) {}

  sink<N>(view: NoteView<N>): (note: N) => void {
    return (note) => {
      const shown = view(note);
      if (shown !== undefined) this.show(shown);
    };
  }

  /** The wait is over (the library returned): the spinner goes. */
  stopWaiting(): void {
    this.waiting?.stop();
    this.waiting = undefined;
  }

  private show(note: Note): void {
    if ('waiting' in note) {
      // Drawn only on a terminal outside CI, after 200 ms (the output layer's spinner).
      if (this.waiting) this.waiting.update(note.waiting);
      else this.waiting = spinner(process.stderr, note.waiting);
      return;
    }
    this.stopWaiting();
    if ('warning' in note) this.writers.warning(note.warning);
    else for (const line of note.say.split('\n')) this.writers.say(line);
  }
}
