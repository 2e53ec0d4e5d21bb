import { closestName } from './suggest.js';

/** The flag definitions a command accepts, as oclif holds them. */
export type FlagDefinitions = Record<string, { char?: string; allowNo?: boolean; type?: string } | undefined>;

/** Every spelling a command accepts for its long flags: --color and --no-color alike. */
function longFlagNames(flags: FlagDefinitions): string[] {
  const names: string[] = [];
  for (const [name, def] of Object.entries(flags)) {
    names.push(name);
    if (def?.type === 'boolean' && def.allowNo) names.push(`no-${name}`);
  }
  return names;
}

/** An argument as oclif's RequiredArgsError lists the missing ones. */
interface ArgDefinition {
  name?: string;
  description?: string;
}

/**
 * "missing NAME, the plugin's name, such as demo: ...": oclif lists missing arguments
 * as a table wrapped over several lines, which joined make no sentence.
 */
function missingArgs(args: readonly ArgDefinition[]): string {
  const named = args.filter((a) => a.name);
  const what = named.map((a) => a.name!.toUpperCase()).join(' and ');
  const first = named[0]?.description?.trim().replace(/\.$/, '');
  const about = named.length === 1 && first ? `, ${first.charAt(0).toLowerCase()}${first.slice(1)}` : '';
  return `missing ${what || 'an argument'}${about}`;
}

/**
 * oclif's parse errors as one line that keeps the reason: oclif puts it on a second
 * line ("Parsing --buffer \n\tExpected an integer greater than or equal to 1 ...") and
 * ends with "See more help with --help". An unknown long flag gets the closest one
 * the command has; a missing argument is named with what it is for.
 */
export function oneLineParseError(err: Error & { flags?: unknown; args?: unknown }, flags: FlagDefinitions): string {
  if (/^Missing \d+ required args?\b/.test(err.message) && Array.isArray(err.args))
    return missingArgs(err.args as ArgDefinition[]);
  const lines = err.message
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && l !== 'See more help with --help');
  const [first = err.message.trim(), ...rest] = lines;
  const parsing = /^Parsing (--\S+)$/.exec(first);
  // A flag's own parse error may name the flag already ("--timeout 5: a duration needs a unit").
  const reason = rest.join('; ');
  let line = parsing
    ? reason.startsWith(`${parsing[1]} `)
      ? reason
      : `${parsing[1]}: ${reason}`
    : [first, ...rest].join(': ').replace(/:: /g, ': ');
  if (/^The following errors? occurred:/.test(first) && rest.length > 0) line = rest.join('; ');
  if (Array.isArray(err.flags)) {
    const known = longFlagNames(flags);
    const hints = err.flags
      .filter((f): f is string => typeof f === 'string' && f.startsWith('--'))
      .map((f) => {
        const typed = f.slice(2).split('=')[0] ?? '';
        const near = closestName(typed, known);
        return near === undefined ? undefined : `--${near}`;
      })
      .filter((s): s is string => s !== undefined);
    if (hints.length > 0) line += ` (did you mean ${[...new Set(hints)].join(', ')}?)`;
  }
  return line;
}
