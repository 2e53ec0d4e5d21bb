/** Levenshtein distance, small strings only. */
function distance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0];
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = prev[j];
      prev[j] = Math.min(up + 1, prev[j - 1] + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = up;
    }
  }
  return prev[b.length];
}

/** The known key an unknown one was most likely meant to be, if any is close. */
export function nearestKey(key: string, known: readonly string[]): string | undefined {
  if (key.length > 64) return undefined; // no typo; and the distance costs its length times each key's
  const norm = (s: string) => s.toLowerCase().replace(/[-_]/g, '');
  let best: string | undefined;
  let bestD = Infinity;
  for (const k of known) {
    const d = norm(k) === norm(key) ? 0 : distance(key.toLowerCase(), k.toLowerCase());
    if (d < bestD) {
      bestD = d;
      best = k;
    }
  }
  return best !== undefined && bestD <= Math.max(2, Math.floor(key.length / 4)) ? best : undefined;
}

export function typeName(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (v === null) return 'null';
  if (typeof v === 'object') return v instanceof Date ? 'date' : 'table';
  return typeof v;
}
