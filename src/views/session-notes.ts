// What a connecting command tells people while it reaches the runtime: the spinner's
// label while it waits, and warnings about the socket.
import type { SessionNote } from '../session/index.js';
import type { Note } from '../output/index.js';

export function sessionNote(note: SessionNote): Note {
  switch (note.kind) {
    case 'connecting':
      return { waiting: `connecting to ${note.sim !== undefined ? 'the embedded simulator' : note.socketPath}` };
    case 'receiving':
      return { waiting: "registered; receiving the runtime's pods and containers" };
    case 'warning':
      return { warning: note.text };
  }
}
