// Drives a scenario's steps one by one and judges the expectations attached to each.
import type { Runtime, SimEvent, Step } from '../runtime/index.js';
import { runStep } from '../runtime/index.js';
import { judge, judgePluginFailures, type Outcome, type StepRecord } from './check.js';
import { ExpectationError, type Expectation, type ExpectationFile } from './file.js';

/** "create ctr-web", "run-pod pod0", "sleep 200": how a step is named in `after:`. */
export function stepLabel(step: Step): string {
  switch (step.kind) {
    case 'run-pod':
      return `run-pod ${step.pod.id ?? ''}`;
    case 'create':
      return `create ${step.container.id ?? ''}`;
    case 'sleep':
      return `sleep ${step.ms}`;
    default:
      return `${step.kind} ${step.id}`;
  }
}

function stepContainer(step: Step): string | undefined {
  if (step.kind === 'create') return step.container.id ?? undefined;
  if (step.kind === 'start' || step.kind === 'update' || step.kind === 'stop' || step.kind === 'remove') return step.id;
  return undefined;
}

/** Which step (0-based) each expectation follows; a name that fits none or several is an error before anything runs. */
export function placeExpectations(spec: ExpectationFile, steps: readonly Step[]): Map<number, Expectation[]> {
  const labels = steps.map(stepLabel);
  const placed = new Map<number, Expectation[]>();
  for (const e of spec.expectations) {
    let index: number;
    if (typeof e.after === 'number') {
      if (e.after > steps.length)
        throw new ExpectationError(
          `${spec.file}: ${e.where}.after: step ${e.after} does not exist (the scenario has ${steps.length})`,
          spec.file,
        );
      index = e.after - 1;
    } else {
      const hits = labels.flatMap((l, i) => (l === e.after ? [i] : []));
      if (hits.length === 0)
        throw new ExpectationError(
          `${spec.file}: ${e.where}.after: no step "${e.after}" (steps: ${labels.join(', ') || 'none'})`,
          spec.file,
        );
      if (hits.length > 1)
        throw new ExpectationError(
          `${spec.file}: ${e.where}.after: "${e.after}" names steps ${hits.map((h) => h + 1).join(', ')}; use the number`,
          spec.file,
        );
      index = hits[0]!;
    }
    placed.set(index, [...(placed.get(index) ?? []), e]);
  }
  return placed;
}

export async function runExpectations(
  runtime: Runtime,
  steps: readonly Step[],
  spec: ExpectationFile,
  signal?: AbortSignal,
): Promise<Outcome[]> {
  const placed = placeExpectations(spec, steps);
  const before: Array<Record<string, unknown> & { type: string }> = [];
  let current: Array<Record<string, unknown> & { type: string }> = before;
  const onEvent = (e: SimEvent): void => void current.push(e as unknown as Record<string, unknown> & { type: string });
  runtime.on('event', onEvent);
  const history: StepRecord[] = [];
  const outcomes: Outcome[] = [];
  try {
    for (const [i, step] of steps.entries()) {
      if (signal?.aborted) break;
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
    }
  } finally {
    runtime.off('event', onEvent);
  }
  if (spec.noPluginFailures) outcomes.push(judgePluginFailures(history, before));
  return outcomes;
}
