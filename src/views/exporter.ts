// `nrictl exporter`: what it says on stderr while it runs (registered, the runtime gone
// and back, a part of the node it cannot read) and the line it ends with.
import type { ExporterNote, ExporterResult } from '../exporter/index.js';
import type { NoteView, View } from '../output/index.js';
import { formatDuration, plural } from '../units/index.js';
import { sessionNote } from './session-notes.js';

export const exporterNoteView: NoteView<ExporterNote> = (n) => {
  switch (n.kind) {
    case 'metrics':
      return { say: `metrics on ${n.url}` };
    case 'registered': {
      const on = n.sim !== undefined ? `the embedded simulator (${n.sim})` : n.socketPath;
      return {
        say: `${n.plugin} registered with ${n.runtime} at ${on}; subscribed to ${n.events} only. Ctrl-C to stop.`,
      };
    }
    case 'waiting':
      return { say: `not registered (${n.error.message}); nrictl_nri_up is 0; next try in ${formatDuration(n.inMs)}` };
    case 'gone':
      return {
        say: `the runtime went away (${n.error.message}): nrictl_nri_up is 0; registering again when it is back`,
      };
    case 'retrying':
      return { say: `still no runtime (${n.error.message}); next try in ${formatDuration(n.inMs)}` };
    case 'back':
      return {
        say: `registered again with ${n.runtime?.label ?? 'the runtime'} after ${formatDuration(n.gapMs)}: nrictl_nri_up is 1`,
      };
    case 'read-failed':
      return {
        warning: `${n.message} (counted in nrictl_exporter_errors_total{kind="${n.error}"}; its series are left out)`,
      };
    case 'read-again':
      return { say: `${READ_WHAT[n.error]} read again` };
    case 'undetermined':
      return {
        say: `cannot see whether ${n.plugins.join(', ')} ${n.plugins.length === 1 ? 'runs' : 'run'} (the probes cannot see: not root, /proc hidden, or --root another tree): left out of nrictl_plugin_info`,
      };
    default:
      return sessionNote(n);
  }
};

const READ_WHAT: Record<Extract<ExporterNote, { kind: 'read-again' }>['error'], string> = {
  connect: 'the socket',
  register: 'the registration',
  files: "the node's NRI files",
  'runtime-metrics': "the runtime's metrics",
  'conformance-report': 'the conformance report',
};

/** How a run ended: one line on stdout for people, one object for programs. */
export const exporterView: View<ExporterResult> = {
  text: (r) => {
    const errors = Object.entries(r.errors)
      .filter(([, n]) => n > 0)
      .map(([kind, n]) => `${kind} ${n}`);
    return `${r.plugin} ran ${formatDuration(r.durationMs)}: ${plural(r.registrations, 'registration')}, ${plural(r.refreshes, 'reading')} of the node, ${errors.length ? `errors: ${errors.join(', ')}` : 'no errors'}`;
  },
  data: (r) => r,
};
