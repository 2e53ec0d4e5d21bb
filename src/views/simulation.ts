// `nrictl sim`: its stream of records and what it ends with. The records are the
// simulator's events and, when the scenario's script is done, a line saying so; the end
// is the expectations' report for people, in json and yaml one record per expectation,
// and with -o junit the expectations as JUnit XML.
import type { ScriptDone, SimEvent, SimulationRecord, SimulationResult } from '../runtime/index.js';
import type { RecordView, View } from '../output/index.js';
import { junitReport, textReport } from './expectations.js';

/** The records of a simulation, given how its events are drawn. */
export function simulationRecords(events: RecordView<SimEvent>): RecordView<SimulationRecord> {
  return {
    text: (r, layout) => (r.type === 'script-done' ? scriptDone(r) : events.text(r, layout)),
    data: (r) => (r.type === 'script-done' ? { ...r, time: new Date(r.time).toISOString() } : events.data(r)),
  };
}

function scriptDone(r: ScriptDone): string {
  return `script done: ${r.steps} steps, ${r.failed} failed${r.stopped ? ' (stopped)' : ''}`;
}

export const simulationView: View<SimulationResult> = {
  text: (r) => (r.expectations ? textReport(r.expectations.outcomes) : ''),
  data: (r) => (r.expectations ? r.expectations.outcomes.map((o) => ({ type: 'expectation', ...o })) : []),
};

/** -o junit: the expectations alone on stdout, for a CI system. */
export const simulationJunitView: View<SimulationResult> = {
  text: (r) => junitReport(r.expectations?.outcomes ?? [], `nrictl sim --expect ${r.expectations?.file ?? ''}`),
  data: (r) => r.expectations?.outcomes ?? [],
};
