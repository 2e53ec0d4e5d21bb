// Which checks a run takes: --focus and --skip, each a check's name (that check alone), a
// group ("sync": its checks), a glob ("sync/*", "*hook*") or critest's number ("17"). A
// filter that names no check is a mistake, said before anything is made.
import { CHECKS } from './checks/index.js';
import { ConformanceError } from './errors.js';
import type { Check } from './check.js';

function matcher(pattern: string): (c: Check) => boolean {
  if (/^\d+$/.test(pattern)) return (c) => c.critest === Number(pattern);
  // A check's own name is that check alone (container-lifecycle, not its /post-events too).
  if (CHECKS.some((c) => c.name === pattern)) return (c) => c.name === pattern;
  if (!pattern.includes('*')) return (c) => c.name.startsWith(`${pattern}/`);
  const re = new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);
  return (c) => re.test(c.name);
}

function patterns(values: readonly string[] | undefined): string[] {
  return (values ?? [])
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v !== '');
}

export function selectChecks(focus?: readonly string[], skip?: readonly string[]): Check[] {
  const f = patterns(focus);
  const s = patterns(skip);
  for (const [flag, list] of [
    ['focus', f],
    ['skip', s],
  ] as const) {
    for (const p of list)
      if (!CHECKS.some(matcher(p)))
        throw new ConformanceError(
          'bad-input',
          `"${p}" matches no check (names: ${[...new Set(CHECKS.map((c) => c.name.split('/')[0]))].join(', ')}; or critest's number, or a glob such as "sync/*")`,
          flag,
        );
  }
  const chosen = CHECKS.filter(
    (c) => (f.length === 0 || f.some((p) => matcher(p)(c))) && !s.some((p) => matcher(p)(c)),
  );
  if (chosen.length === 0) throw new ConformanceError('bad-input', '--skip leaves no check to run', 'skip');
  return chosen;
}
