const UNIT_MS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  μs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

/** Parses a Go duration string ("5s", "1m30s", "250ms") into milliseconds; undefined when invalid. */
export function parseGoDuration(text: string): number | undefined {
  const s = text.trim();
  if (s === '0') return 0;
  const re = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/gy;
  let sign = 1;
  let rest = s;
  if (rest.startsWith('-') || rest.startsWith('+')) {
    sign = rest.startsWith('-') ? -1 : 1;
    rest = rest.slice(1);
  }
  if (rest === '') return undefined;
  let total = 0;
  re.lastIndex = 0;
  let m: RegExpExecArray | null;
  let consumed = 0;
  while ((m = re.exec(rest)) !== null) {
    total += Number(m[1]) * UNIT_MS[m[2]];
    consumed = re.lastIndex;
  }
  return consumed === rest.length ? sign * total : undefined;
}
