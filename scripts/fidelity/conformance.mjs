// `nrictl conformance -o json` (src/conformance/model.ts, ConformanceReport) read into what
// the fidelity page keeps of a run: the runtime, the summary, and per check its verdict
// and reason. Timings per check, notes and clauses stay out: they change from run to run
// and the page compares verdicts.

const STATUSES = new Set(['pass', 'fail', 'skip', 'error']);

function need(cond, what) {
  if (!cond) throw new Error(`conformance JSON: ${what}`);
}

/** The parts of a conformance report the page needs; throws, naming the field, on another shape. */
export function parseConformanceReport(text) {
  let r;
  try {
    r = JSON.parse(text);
  } catch (e) {
    throw new Error(`conformance JSON: not JSON (${e.message})`, { cause: e });
  }
  need(r && typeof r === 'object', 'not an object');
  need(r.target && typeof r.target.runtime === 'string', 'no target.runtime');
  need(r.summary && typeof r.summary.total === 'number', 'no summary.total');
  need(Array.isArray(r.verdicts), 'no verdicts list');
  const verdicts = r.verdicts.map((v, i) => {
    need(typeof v.name === 'string', `verdict ${i} has no name`);
    need(STATUSES.has(v.status), `verdict ${v.name} has status ${JSON.stringify(v.status)}`);
    return {
      name: v.name,
      status: v.status,
      ...(v.reason ? { reason: v.reason } : {}),
      ...(v.known?.ref ? { known: v.known.ref } : {}),
    };
  });
  const s = r.summary;
  return {
    runtime: r.target.runtime,
    nri: r.target.nri,
    ...(r.target.sim ? { preset: r.target.sim.preset } : {}),
    summary: {
      total: s.total,
      passed: s.passed,
      failed: s.failed,
      knownGaps: s.knownGaps,
      skipped: s.skipped,
      errors: s.errors,
      durationMs: Math.round(s.durationMs),
    },
    verdicts,
    leftovers: (r.leftovers ?? []).map((l) => `${l.kind} ${l.name}`),
    ...(r.leftoversUnchecked ? { leftoversUnchecked: r.leftoversUnchecked.reason } : {}),
    interrupted: r.interrupted === true,
  };
}

function plural(n, noun) {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/** conformance's own closing line: "36 checks in 41.2 s: 34 passed, 1 failed, 1 skipped, 0 errors". */
export function conformanceSummary(summary) {
  const s = summary;
  const took = s.durationMs >= 1000 ? `${(s.durationMs / 1000).toFixed(1)} s` : `${s.durationMs} ms`;
  const failed = `${s.failed} failed${s.knownGaps ? ` (${plural(s.knownGaps, 'known gap')})` : ''}`;
  return `${plural(s.total, 'check')} in ${took}: ${s.passed} passed, ${failed}, ${s.skipped} skipped, ${plural(s.errors, 'error')}`;
}
