// Drives a scenario's steps one by one and judges the expectations attached to each
// (src/expect: the file, the judging), for `nrictl sim --expect`.
import {
  judge,
  judgePluginFailures,
  placeExpectations,
  type ExpectationFile,
  type Outcome,
  type StepRecord,
} from '../../expect/index.js';
import type { SimEvent } from '../events.js';
import type { Runtime } from './runtime.js';
import type { Step } from './scenario.js';
import { eachStep, runStep, stepLabel, type Pace, type Steps } from './script.js';

function stepContainer(step: Step): string | undefined {
  if (step.kind === 'create') return step.container.id ?? undefined;
  if (step.kind === 'start' || step.kind === 'update' || step.kind === 'stop' || step.kind === 'remove') return step.id;
  return undefined;
}

/** `labels`: the steps' labels, in order (a replay's steps are read as it goes: planSimulation knows them). */
export async function runExpectations(
  runtime: Runtime,
  steps: Steps,
  labels: readonly string[],
  spec: ExpectationFile,
  signal?: AbortSignal,
  pace?: Pace,
): Promise<Outcome[]> {
  const placed = placeExpectations(spec, labels);
  const before: Array<Record<string, unknown> & { type: string }> = [];
  let current: Array<Record<string, unknown> & { type: string }> = before;
  const onEvent = (e: SimEvent): void => void current.push(e as unknown as Record<string, unknown> & { type: string });
  runtime.on('event', onEvent);
  const history: StepRecord[] = [];
  const outcomes: Outcome[] = [];
  try {
    await eachStep(steps, signal, pace, async (step, i) => {
      const record: StepRecord = { number: i + 1, label: stepLabel(step), ok: true, events: [] };
      current = record.events;
      try {
        if ((await runStep(runtime, step, signal)) === false) record.ok = false;
      } catch (err) {
        record.ok = false;
        record.events.push({ type: 'error', message: (err as Error).message });
      }
      history.push(record);
      for (const e of placed.get(i) ?? []) {
        const id = e.container ?? stepContainer(step);
        outcomes.push(...judge(e, record, history, id === undefined ? undefined : runtime.state.container(id), id));
      }
    });
  } finally {
    runtime.off('event', onEvent);
  }
  if (spec.noPluginFailures) outcomes.push(judgePluginFailures(history, before));
  return outcomes;
}
