// Which result each cell of the page shows. A result measured in this run replaces the one
// kept; what this run could not measure keeps the last result kept in docs/fidelity/,
// marked as carried over, with why it was not measured again; what was never measured
// stays empty. Nothing is made up.

/**
 * slots: for every id, { state: 'fresh', record } | { state: 'carried', record, why } |
 * { state: 'missing', why }. `kept` and `fresh` map an id to a record, `why` an id to the
 * reason it was not measured in this run (a run that failed is not measured).
 */
export function mergeResults(ids, kept, fresh, why) {
  const slots = {};
  for (const id of ids) {
    if (fresh[id]) slots[id] = { state: 'fresh', record: fresh[id] };
    else if (kept[id]) slots[id] = { state: 'carried', record: kept[id], why: why[id] ?? 'not run' };
    else slots[id] = { state: 'missing', why: why[id] ?? 'not run' };
  }
  return slots;
}

/**
 * How two lists of verdicts, keyed by name, compare: one row per name (the first list's
 * order, then names only the second has), and how many agree among those both judged.
 */
export function compareVerdicts(real, other) {
  const byName = (list) => new Map((list ?? []).map((v) => [v.name, v]));
  const a = byName(real);
  const b = byName(other);
  const names = [...a.keys(), ...[...b.keys()].filter((n) => !a.has(n))];
  const rows = names.map((name) => {
    const r = a.get(name);
    const o = b.get(name);
    return { name, real: r, other: o, agree: r && o ? sameVerdict(r, o) : undefined };
  });
  const judged = rows.filter((r) => r.agree !== undefined);
  return { rows, agreeing: judged.filter((r) => r.agree).length, compared: judged.length };
}

/**
 * One verdict each: the same status. A race run several times on both sides (foldRuns): the
 * imitation showed every outcome the real runtime showed. It may show the race's other
 * outcome too, which the runtime gives at another moment (the page gives the counts).
 */
function sameVerdict(real, other) {
  if (!real.runs || !other.runs) return real.status === other.status;
  return Object.keys(real.runs).every((outcome) => outcome in other.runs);
}
