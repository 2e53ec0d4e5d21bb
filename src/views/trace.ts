// `nrictl trace`: per traced event a block for people, headed as logs' lines are (the
// one event renderer, ./events.ts; -o wide: as logs' wide lines, with the resources the
// last probe saw), then per plugin its time and what it changed; one
// object per event for programs; the summary; the notes while it runs.
import type { Change, TraceNote, TraceRecord, TraceSummary } from '../trace/index.js';
import { lateAnswerConsequence } from '../api/runtime-identity.js';
import { formatDuration } from '../units/index.js';
import { chalk, type Layout, type NoteView, type RecordView, type View } from '../output/index.js';
import { dataTime, eventHead, formatEventLine } from './events.js';
import { recordingNote, recordingSummaryText } from './recording.js';
import { sessionNote } from './session-notes.js';

const ms = (x: number | undefined): string => (x === undefined ? '-' : `${x.toFixed(2)} ms`);

/** "env FOO: (unset) -> bar". */
function formatChange(c: Change): string {
  return `${c.field} ${c.key}: ${c.old ?? '(unset)'} -> ${c.new ?? '(removed)'}`;
}

export const traceRecordView: RecordView<TraceRecord> = {
  text: traceBlock,
  data: (r) => ({ type: 'event', ...r, time: dataTime(r.time) }),
};

/** The head of a block: as logs' line for the event, without its resources; -o wide, as logs' wide line. */
function blockHead(r: TraceRecord, layout: Layout): string {
  const { id, namespace, name, uid, cgroupParent } = r.pod;
  const pod = { id, namespace, name, uid, linux: { cgroupParent } };
  const rec = { time: r.time, event: r.event, pod, container: r.container, resources: r.resources ?? null };
  return layout.wide ? formatEventLine(rec, undefined, layout) : eventHead(rec);
}

function traceBlock(r: TraceRecord, layout: Layout): string {
  const lines = [blockHead(r, layout)];
  const width = Math.max(12, ...r.segments.filter((s) => !s.calibration).map((s) => s.label.length));
  for (const s of r.segments) {
    if (s.calibration) continue;
    const changes = s.changes.map(
      (c) =>
        formatChange(c) +
        (c.owner && c.owner !== s.label
          ? chalk.dim(` [${c.owner}${c.ownerAgrees === false ? ', NOT between these probes' : ''}]`)
          : ''),
    );
    const time = s.ms === undefined ? chalk.dim('not reached') : ms(s.ms);
    lines.push(`  ${s.label.padEnd(width)} ${time.padStart(10)}${changes.length ? `  ${changes.join('; ')}` : ''}`);
  }
  let tail = `  ${'total'.padEnd(width)} ${ms(r.totalMs).padStart(10)}`;
  if (r.end === 'failed')
    tail += chalk.red(
      `  request went no further than ${r.stoppedIn ?? 'a probe'}: a plugin there failed it, or plugins conflicted`,
    );
  if (r.end === 'stopped') tail += chalk.dim('  (trace stopped before the request reached every probe)');
  lines.push(tail);
  return lines.join('\n');
}

export const traceSummaryView: View<TraceSummary> = {
  text: summaryText,
  data: (s) => ({ type: 'summary', ...s }),
};

function summaryText(s: TraceSummary): string {
  const out: string[] = [];
  const e = s.events;
  out.push(
    chalk.bold(
      `Summary: ${e.traced} events traced (${e.failed} failed, ${e.filtered} filtered out, ${e.dropped} dropped from the output); request timeout ${s.requestTimeoutMs} ms (${s.requestTimeoutFrom})`,
    ),
  );
  if (s.recording) out.push(`  ${recordingSummaryText(s.recording)}`);
  for (const [event, h] of Object.entries(s.hopMs))
    out.push(
      chalk.dim(
        `  probe hop on ${event}: p50 ${ms(h.p50Ms)}, p99 ${ms(h.p99Ms)} (subtracted from each plugin's time; each probe adds about this much to every traced event)`,
      ),
    );
  if (s.plugins.length === 0) out.push('  no plugin timings (no event reached two probes)');
  const width = Math.max(14, ...s.plugins.map((r) => r.label.length));
  if (s.plugins.length > 0)
    out.push(
      `  ${'plugin'.padEnd(width)} ${'event'.padEnd(16)} ${'count'.padStart(6)} ${'p50'.padStart(10)} ${'p99'.padStart(10)} ${'max'.padStart(10)} ${'of timeout'.padStart(10)}`,
    );
  for (const r of s.plugins) {
    const share = `${(r.timeoutShare * 100).toFixed(1)}%`;
    const line = `  ${r.label.padEnd(width)} ${r.event.padEnd(16)} ${String(r.count).padStart(6)} ${ms(r.p50Ms).padStart(10)} ${ms(r.p99Ms).padStart(10)} ${ms(r.maxMs).padStart(10)} ${share.padStart(10)}`;
    out.push(
      r.late
        ? chalk.red(
            `${line}  ${r.group ? 'one of them' : 'it'} took the whole request timeout: the runtime gave up on it and dropped it; ${lateAnswerConsequence(s.requestTimeoutSetting)}`,
          )
        : r.warning
          ? chalk.yellow(
              `${line}  p99 past half the request timeout: the runtime drops a plugin for good the first time it is late`,
            )
          : line,
    );
  }
  return out.join('\n');
}

export const traceNoteView: NoteView<TraceNote> = (n) => {
  if (n.kind === 'recording-full') return recordingNote(n);
  if (n.kind !== 'live') return sessionNote(n);
  const who = n.runtime ? `${n.runtime.label} (${n.runtime.vintage})` : 'the runtime';
  const plugins = n.plan.segments
    .filter((s) => !s.calibration)
    .map((s) => s.label)
    .join(', ');
  const until =
    n.durationMs !== undefined
      ? `tracing for ${formatDuration(n.durationMs)}`
      : n.scripted
        ? 'tracing the scenario'
        : 'Ctrl-C to stop';
  return {
    say: [
      `${n.plan.probes.length} probes at ${n.plan.probes.join(',')} on ${who}; plugins from ${n.pluginSource}: ${plugins}`,
      ...n.notes,
      ...(n.metricsUrl ? [`metrics on ${n.metricsUrl}`] : []),
      `${until}.`,
    ].join('\n'),
  };
};
