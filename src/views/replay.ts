// `nrictl sim --replay FILE`: the simulator's stream as for a scenario, ended by what was
// replayed (for people on stderr; for programs one more record, type "replay") and, with
// --expect, the expectations' report.
import type { ReplayResult, ReplaySummary } from '../replay/index.js';
import type { View } from '../output/index.js';
import { simulationJunitView, simulationView } from './simulation.js';

function replayed(s: ReplaySummary): string {
  const as =
    s.preset === undefined
      ? s.recordedOn
        ? ` as ${s.recordedOn.name} ${s.recordedOn.version} (no preset for it: NRI's own rules)`
        : ''
      : ` as ${s.preset}${s.presetFrom === 'recording' && s.recordedOn ? ` (recorded on ${s.recordedOn.name} ${s.recordedOn.version})` : ''}`;
  const parts = [`${s.steps} steps`];
  if (s.madeUp > 0) parts.push(`${s.madeUp} made up for what the recording names but lacks`);
  let line = `replayed ${s.events} events of ${s.file}${as} from ${s.pods} pods and ${s.containers} containers: ${parts.join(', ')}`;
  if (s.gaps > 0) line += `; the runtime went away ${s.gaps} time(s) while recording: events then were missed`;
  if (s.lost > 0) line += `; the recording lost ${s.lost} record(s) (see its trailer)`;
  return line;
}

export const replayView: View<ReplayResult> = {
  text: (r) => simulationView.text(r.simulation, { width: undefined, wide: false }),
  data: (r) => [...(simulationView.data(r.simulation) as unknown[]), { type: 'replay', ...r.replay }],
  note: (r) => replayed(r.replay),
};

export const replayJunitView: View<ReplayResult> = {
  text: (r) => simulationJunitView.text(r.simulation, { width: undefined, wide: false }),
  data: (r) => simulationJunitView.data(r.simulation),
};
