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
 * same outcomes, or ones that differ no more than chance makes them. A race won one time in
 * five shows no win in six runs one time in four: that is no difference of the imitation's.
 * So a race's sides disagree when one failed where the other did not, or when how often
 * each passed differs beyond chance (Fisher's exact test, two-sided, p < 0.05): real 0 of
 * 6 against 2 of 6 agrees; 6 of 6 against 0 of 6 does not.
 */
function sameVerdict(real, other) {
  if (!real.runs || !other.runs) return real.status === other.status;
  if ('fail' in real.runs !== 'fail' in other.runs) return false;
  const total = (runs) => Object.values(runs).reduce((a, b) => a + b, 0);
  return fisherExact(real.runs.pass ?? 0, total(real.runs), other.runs.pass ?? 0, total(other.runs)) >= 0.05;
}

/** Two-sided p-value of Fisher's exact test that a of n and b of m come from one rate. */
export function fisherExact(a, n, b, m) {
  const k = a + b;
  const logChoose = (x, y) => logFactorial(x) - logFactorial(y) - logFactorial(x - y);
  const logP = (i) => logChoose(n, i) + logChoose(m, k - i) - logChoose(n + m, k);
  const observed = logP(a);
  let p = 0;
  for (let i = Math.max(0, k - m); i <= Math.min(n, k); i++) {
    const lp = logP(i);
    if (lp <= observed + 1e-9) p += Math.exp(lp);
  }
  return Math.min(1, p);
}

function logFactorial(x) {
  let s = 0;
  for (let i = 2; i <= x; i++) s += Math.log(i);
  return s;
}
