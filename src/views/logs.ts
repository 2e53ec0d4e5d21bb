// `nrictl logs`: one line per event for people (the one event renderer, ./events.ts; -o wide
// adds the full ids, the pod's uid and cgroup parent and every resource field),
// one object per event for programs; the notes while it runs and the summary, on stderr.
import type { LoggedEvent, LogNote, LogResult } from '../observe/index.js';
import { formatDuration, plural } from '../units/index.js';
import type { NoteView, RecordView, View } from '../output/index.js';
import { dataTime, eventDisplayName, formatEventLine } from './events.js';
import { recordingNote, recordingSummaryText } from './recording.js';
import { sessionNote } from './session-notes.js';

export const logEventView: RecordView<LoggedEvent> = {
  text: (e, layout) =>
    formatEventLine(
      { time: e.time, event: e.event, pod: e.pod, container: e.container ?? null, resources: e.resources ?? null },
      e.previous,
      layout,
    ),
  data: loggedEventData,
};

/**
 * The data form of an event: its time and name, and the request's content (pod,
 * container, resources) as the runtime sent it, in the protobuf JSON mapping.
 * previousResources is what the container had before an update, when known.
 */
export function loggedEventData(e: LoggedEvent): Record<string, unknown> {
  const out: Record<string, unknown> = { time: dataTime(e.time), event: eventDisplayName(e.event), pod: e.pod };
  if (e.container) out.container = e.container;
  if (e.resources) out.linuxResources = e.resources;
  if (e.overhead) out.overheadLinuxResources = e.overhead;
  if (e.previous) out.previousResources = e.previous;
  if (e.validation) {
    const v = e.validation;
    if (v.adjust) out.adjust = v.adjust;
    if (v.update?.length) out.update = v.update;
    if (v.owners) out.owners = v.owners;
    if (v.plugins?.length) out.plugins = v.plugins;
  }
  return out;
}

export const logNoteView: NoteView<LogNote> = (n) => {
  switch (n.kind) {
    case 'registered': {
      const on = n.sim !== undefined ? `the embedded simulator (${n.sim})` : n.socketPath;
      return {
        say: `${n.plugin} registered with ${n.runtime ?? 'runtime'} at ${on}; events: ${n.events ?? 'all but validate'}. Ctrl-C to stop.`,
      };
    }
    case 'metrics':
      return { say: `metrics on ${n.url}` };
    case 'gone':
      return {
        say: `the runtime went away (${n.error.message}); registering again when it is back (Ctrl-C to stop)`,
      };
    case 'retrying':
    case 'waiting':
      return { say: `still no runtime (${n.error.message}); next try in ${formatDuration(n.inMs)}` };
    case 'recording-full':
      return recordingNote(n);
    case 'back':
      return {
        say: `registered again with ${n.runtime?.label ?? 'runtime'} after a gap of ${formatDuration(n.gapMs)}: events in the gap were missed`,
      };
    default:
      return sessionNote(n);
  }
};

/**
 * How a logs run ended, for people: "42 events seen, 40 printed, 2 dropped (5 filtered
 * out)", on stderr (the base command puts it there, after "nrictl logs: "), in every
 * format: stdout holds the events alone.
 */
export const logSummaryView: View<LogResult> = {
  text: ({ summary: s, end }) => {
    let line = `${plural(s.seen, 'event')} seen, ${s.printed} printed, ${s.dropped} dropped`;
    if (s.filtered > 0) line += ` (${s.filtered} filtered out)`;
    if (end === 'output-closed') line += ' (the output was closed by its reader)';
    else if (!s.flushed) line += ' (output still blocked at exit)';
    if (s.recording) line += `; ${recordingSummaryText(s.recording)}`;
    return line;
  },
  data: ({ summary, end }) => ({ type: 'summary', end, ...summary }),
};
