// `nrictl sim --preset all`: the runs of one scenario against every runtime release
// line. As they come, each preset's events under a line naming the runtime (json and
// yaml: every record carries its preset); at the end one result per preset: for people
// the expectation report of each preset that failed and a table, for machines one
// object per preset.
import type { PresetRecord, PresetResult, PresetsResult, SimulationRecord } from '../runtime/index.js';
import { alignColumns, type RecordView, type View } from '../output/index.js';
import { textReport } from './expectations.js';

/** The records of runs per preset, given how one run's records are drawn. */
export function presetRecords(records: RecordView<SimulationRecord>): RecordView<PresetRecord> {
  return {
    text: (r, layout) =>
      r.type === 'preset'
        ? `=== ${r.preset}: ${r.runtimeName} ${r.runtimeVersion}, NRI ${r.nriVersion}`
        : records.text(r, layout),
    data: (r) =>
      r.type === 'preset'
        ? { ...r, time: new Date(r.time).toISOString() }
        : { preset: r.preset, ...(records.data(r) as object) },
  };
}

function verdict(p: PresetResult): string {
  if (p.result.stopped) return 'stopped';
  if (p.startFailure) return 'NO START';
  return p.ok ? 'ok' : 'FAILED';
}

function detail(p: PresetResult): string {
  const parts: string[] = [];
  const e = p.result.expectations;
  if (e) parts.push(`${e.outcomes.length - e.failed}/${e.outcomes.length} expectations hold`);
  const s = p.result.script;
  if (s) parts.push(`script: ${s.steps} steps, ${s.failed} failed`);
  if (p.startFailure) parts.push(`runtime did not start (${p.startFailure.plugin}): ${p.startFailure.log}`);
  else for (const r of p.refused) parts.push(`${r.plugin} refused: ${r.message}`);
  return parts.join('; ');
}

export const presetsView: View<PresetsResult> = {
  text: (r) => {
    const blocks: string[] = [];
    for (const p of r.presets) {
      const e = p.result.expectations;
      if (e && e.failed > 0) blocks.push(`--- ${p.preset}\n${textReport(e.outcomes)}`);
    }
    const rows = r.presets.map((p) => [
      p.preset,
      `${p.runtimeName} ${p.runtimeVersion}`,
      p.nriVersion,
      verdict(p),
      detail(p),
    ]);
    blocks.push(alignColumns([['PRESET', 'RUNTIME', 'NRI', 'RESULT', 'DETAIL'], ...rows]).join('\n'));
    const failed = r.presets.filter((p) => !p.ok).length;
    blocks.push(`presets: ${r.presets.length - failed} ok, ${failed} failed${r.stopped ? ' (stopped)' : ''}`);
    return blocks.join('\n');
  },
  data: (r) =>
    r.presets.map((p) => ({
      type: 'preset-result',
      preset: p.preset,
      runtimeName: p.runtimeName,
      runtimeVersion: p.runtimeVersion,
      nriVersion: p.nriVersion,
      ok: p.ok,
      refused: p.refused,
      ...(p.startFailure ? { startFailure: p.startFailure } : {}),
      ...(p.result.script ? { script: p.result.script } : {}),
      ...(p.result.expectations
        ? {
            expectations: {
              file: p.result.expectations.file,
              failed: p.result.expectations.failed,
              outcomes: p.result.expectations.outcomes,
            },
          }
        : {}),
      stopped: p.result.stopped,
    })),
};
