// What logs and trace say about a recording (--record): the note when --record-max ends
// it, and the part of their summary that says what the file holds.
import type { RecordingNote, RecordingSummary } from '../recording/index.js';
import { formatBytes, plural } from '../units/index.js';
import type { Note } from '../output/index.js';

export function recordingNote(n: RecordingNote): Note {
  return {
    say: `${n.file} reached --record-max ${formatBytes(n.maxBytes)}: the recording ends here (with its trailer); the command goes on`,
  };
}

/** "recorded 42 events to rec.jsonl (2 dropped: the file could not keep up, 5 past --record-max)". */
export function recordingSummaryText(r: RecordingSummary): string {
  if (r.error !== undefined) return `no recording: ${r.error}`;
  const also: string[] = [];
  if (r.dropped > 0) also.push(`${r.dropped} dropped: the file could not keep up`);
  if (r.truncated > 0) also.push(`${r.truncated} past --record-max`);
  return `recorded ${plural(r.written, 'record')} to ${r.file}${also.length ? ` (${also.join(', ')})` : ''}`;
}
