/**
 * "Did you mean": the candidate closest to a mistyped name, by edit distance where a
 * swap of two neighbouring letters counts as one edit (--sokcet is one slip from
 * --socket), or the only candidate the name begins (--mem for --memory).
 */

/** Optimal string alignment distance: insertions, deletions, substitutions, adjacent swaps. */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...new Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2][j - 2] + 1);
      d[i][j] = best;
    }
  }
  return d[a.length][b.length];
}

/**
 * The closest candidate, or undefined when none is close enough to be a slip of the
 * fingers: at most two edits, and fewer edits than the name has letters (so "-x" does
 * not suggest every short name).
 */
export function closestName(typed: string, candidates: readonly string[]): string | undefined {
  const name = typed.toLowerCase();
  const prefixed = candidates.filter((c) => c.toLowerCase().startsWith(name));
  if (name.length >= 2 && prefixed.length === 1) return prefixed[0];
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const distance = editDistance(name, candidate.toLowerCase());
    if (best === undefined || distance < best.distance) best = { candidate, distance };
  }
  if (best === undefined || best.distance === 0 || best.distance > 2 || best.distance >= name.length) return undefined;
  return best.candidate;
}
