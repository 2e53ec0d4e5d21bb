// Judges one expectation against the simulated runtime's state after its step, and
// names the plugin that set each value that differs (from the step's adjusted and
// updated events: the last plugin whose answer set that key).
import type { nri } from '../api/index.js';
import type { Expectation } from './file.js';

export interface StepRecord {
  number: number;
  label: string;
  ok: boolean;
  /** The simulator's events during the step. */
  events: Array<Record<string, unknown> & { type: string }>;
}

export interface Outcome {
  name: string;
  ok: boolean;
  /** One line per difference: what, expected, actual, who set it. */
  diffs: string[];
}

const show = (v: unknown): string => (v === undefined || v === null ? 'absent' : JSON.stringify(v));

/** Unwraps Optional* ({ value }) and flattens to dotted paths of leaves. */
function flatten(v: unknown, prefix = '', out: Map<string, unknown> = new Map()): Map<string, unknown> {
  if (v === null || v === undefined) return out;
  if (typeof v === 'object' && !Array.isArray(v)) {
    const keys = Object.keys(v);
    if (keys.length === 1 && keys[0] === 'value') return flatten((v as { value: unknown }).value, prefix, out);
    for (const k of keys) flatten((v as Record<string, unknown>)[k], prefix ? `${prefix}.${k}` : k, out);
    return out;
  }
  out.set(prefix, v);
  return out;
}

/** Who set `key` of `field` on `container` in the runtime's events so far (last writer wins). */
function setter(
  history: StepRecord[],
  container: string,
  pick: (adjust: nri.IContainerAdjustment, update: nri.IContainerUpdate | undefined) => boolean,
): string {
  let who: string | undefined;
  for (const step of history) {
    for (const e of step.events) {
      if (e.container !== container) continue;
      if (e.type === 'adjusted' && pick(e.adjust as nri.IContainerAdjustment, undefined)) who = String(e.plugin);
      if (e.type === 'updated' && !e.failed && pick({}, e.update as nri.IContainerUpdate)) who = String(e.plugin);
    }
  }
  return who === undefined ? 'not set by any plugin: from the scenario' : `set by ${who}`;
}

function mapDiffs(
  field: string,
  expected: Record<string, string | null>,
  actual: Record<string, string>,
  by: (key: string) => string,
): string[] {
  const diffs: string[] = [];
  for (const [k, want] of Object.entries(expected)) {
    const have = actual[k];
    if (want === null ? have === undefined : have === want) continue;
    diffs.push(`${field}.${k}: expected ${show(want)}, actual ${show(have)}${have === undefined ? '' : ` (${by(k)})`}`);
  }
  return diffs;
}

function listDiffs(
  field: string,
  key: string,
  expected: Array<Record<string, unknown>>,
  actual: Array<Record<string, unknown>>,
  by: (id: string) => string,
): string[] {
  const diffs: string[] = [];
  for (const want of expected) {
    const id = String(want[key]);
    const have = actual.find((a) => String(a[key]) === id);
    if (!have) {
      diffs.push(`${field}[${key}=${id}]: expected ${JSON.stringify(want)}, actual absent`);
      continue;
    }
    for (const [k, v] of Object.entries(want)) {
      if (JSON.stringify(have[k]) !== JSON.stringify(v))
        diffs.push(`${field}[${key}=${id}].${k}: expected ${show(v)}, actual ${show(have[k])} (${by(id)})`);
    }
  }
  return diffs;
}

export function judge(
  e: Expectation,
  step: StepRecord,
  history: StepRecord[],
  container: nri.IContainer | undefined,
  containerId: string | undefined,
): Outcome[] {
  const out: Outcome[] = [];
  const at = `after step ${step.number} (${step.label})`;
  if (e.result !== undefined) {
    const actual = step.ok ? 'succeeded' : 'failed';
    const why = step.events
      .filter((x) => x.type === 'conflict' || x.type === 'rejected' || x.type === 'error')
      .map((x) => String(x.message));
    out.push({
      name: `${at}: step ${e.result}`,
      ok: actual === e.result,
      diffs:
        actual === e.result
          ? []
          : [`step: expected ${e.result}, actual ${actual}${why.length ? `: ${why.join('; ')}` : ''}`],
    });
  }
  if (e.conflict !== undefined) {
    const want = [...e.conflict].sort().join(' and ');
    const seen = step.events
      .filter((x) => x.type === 'conflict')
      .map((x) => [...(x.plugins as string[])].sort().join(' and '));
    const ok = seen.includes(want);
    out.push({
      name: `${at}: conflict between ${want}`,
      ok,
      diffs: ok
        ? []
        : [
            `conflict: expected between ${want}, actual ${seen.length ? seen.map((s) => `between ${s}`).join(', ') : 'none'}`,
          ],
    });
  }
  const fields = (['env', 'annotations', 'mounts', 'devices', 'rlimits', 'resources'] as const).filter(
    (f) => e[f] !== undefined,
  );
  if (fields.length === 0) return out;
  const name = `${at}: container ${containerId ?? '(none)'} ${fields.join(', ')}`;
  if (containerId === undefined)
    return [...out, { name, ok: false, diffs: ['container: the step names none; add container: ID'] }];
  if (container === undefined)
    return [...out, { name, ok: false, diffs: [`container ${containerId}: expected to exist, actual absent`] }];
  const id = containerId;
  const diffs: string[] = [];
  if (e.env) {
    const actual: Record<string, string> = {};
    for (const kv of container.env ?? []) {
      const eq = kv.indexOf('=');
      actual[eq < 0 ? kv : kv.slice(0, eq)] = eq < 0 ? '' : kv.slice(eq + 1);
    }
    diffs.push(
      ...mapDiffs('env', e.env, actual, (k) => setter(history, id, (a) => (a.env ?? []).some((x) => x.key === k))),
    );
  }
  if (e.annotations) {
    diffs.push(
      ...mapDiffs('annotations', e.annotations, container.annotations ?? {}, (k) =>
        setter(history, id, (a) => a.annotations?.[k] !== undefined),
      ),
    );
  }
  if (e.mounts) {
    diffs.push(
      ...listDiffs('mounts', 'destination', e.mounts, (container.mounts ?? []) as Array<Record<string, unknown>>, (d) =>
        setter(history, id, (a) => (a.mounts ?? []).some((m) => m.destination === d)),
      ),
    );
  }
  if (e.devices) {
    diffs.push(
      ...listDiffs(
        'devices',
        'path',
        e.devices,
        (container.linux?.devices ?? []) as Array<Record<string, unknown>>,
        (p) => setter(history, id, (a) => (a.linux?.devices ?? []).some((d) => d.path === p)),
      ),
    );
  }
  if (e.rlimits) {
    diffs.push(
      ...listDiffs('rlimits', 'type', e.rlimits, (container.rlimits ?? []) as Array<Record<string, unknown>>, (t) =>
        setter(history, id, (a) => (a.rlimits ?? []).some((r) => r.type === t)),
      ),
    );
  }
  if (e.resources) {
    const actual = flatten(container.linux?.resources ?? {});
    for (const r of e.resources) {
      for (const [p, want] of flatten(r.parsed)) {
        const have = actual.get(p);
        if (JSON.stringify(have) === JSON.stringify(want)) continue;
        const by = setter(history, id, (a, u) => flatten(a.linux?.resources ?? u?.linux?.resources ?? {}).has(p));
        diffs.push(
          `resources.${r.key}: expected ${show(r.value)}, actual ${show(have)}${have === undefined ? '' : ` (${by})`}`,
        );
      }
    }
  }
  out.push({ name, ok: diffs.length === 0, diffs });
  return out;
}

/** The run-wide check: no plugin timed out, was dropped or failed a request. */
export function judgePluginFailures(
  history: StepRecord[],
  before: Array<Record<string, unknown> & { type: string }>,
): Outcome {
  const bad = [...before, ...history.flatMap((s) => s.events)].filter(
    (e) => e.type === 'dropped' || (e.type === 'error' && e.plugin !== undefined),
  );
  return {
    name: 'no plugin timed out, was dropped or failed a request',
    ok: bad.length === 0,
    diffs: bad.map((e) =>
      e.type === 'dropped'
        ? `plugin ${String(e.plugin)}: dropped (${String(e.reason)})`
        : `plugin ${String(e.plugin)}: ${String(e.message)}`,
    ),
  };
}
