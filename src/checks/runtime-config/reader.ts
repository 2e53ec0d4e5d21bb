// The one reader of runtime configs: parses a file as its runtime's table says (TOML or
// JSON, one finding when the runtime would not start on it), checks a table of keys
// (unknown keys, obsolete ones, wrong types and forms), and turns the values that pass
// into settings. Every runtime's findings of these kinds come from here, in one wording.
import { excerpt, excerptKey } from '../../units/index.js';
import { configDuration, goDurationMs } from './duration.js';
import { nearestKey, typeName } from './keys.js';
import {
  isTable,
  markInvalid,
  type CheckedTable,
  type Collector,
  type KeySpec,
  type KeyType,
  type NriSettings,
} from './schema.js';
import type { RuntimeTable } from './tables.js';
import { loadToml } from './toml.js';

/** The settings of a file that says nothing. */
export function defaultSettings(rt: RuntimeTable): NriSettings {
  return { runtime: rt.format, ...rt.defaults, invalid: {} };
}

/**
 * The file as a table, or undefined after its one finding: text that is not TOML or JSON,
 * or JSON that is not an object, is a file the runtime does not start with.
 */
export function parseDocument(text: string, rt: RuntimeTable, out: Collector): Record<string, unknown> | undefined {
  if (rt.syntax === 'toml') {
    try {
      return loadToml().parse(text);
    } catch (err) {
      const where = err instanceof loadToml().TomlError ? `line ${err.line}: ` : '';
      const reason = `${where}${(err as Error).message.split('\n')[0]}`;
      out.add('error', 'toml-syntax', `not valid TOML (${reason}): ${rt.name} does not start`, 'fix the TOML syntax');
      return undefined;
    }
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    const reason = jsonErrorText(text, err as Error);
    out.add('error', 'json-syntax', `not valid JSON (${reason}): ${rt.name} does not start`, 'fix the JSON syntax');
    return undefined;
  }
  if (!isTable(doc)) {
    const fix = 'make daemon.json one JSON object';
    out.add('error', 'json-syntax', `not a JSON object: ${rt.name} does not start`, fix);
    return undefined;
  }
  return doc;
}

/**
 * JSON.parse's reason with a line and column instead of an offset, and without the
 * copy of the text V8 puts into some messages.
 */
function jsonErrorText(text: string, err: Error): string {
  let reason = err.message.replace(/^(.*?), (?:\.\.\.)?".*"(?:\.\.\.)? is not valid JSON$/s, '$1');
  const at = /\s+in JSON at position (\d+)(?: \(line \d+ column \d+\))?/.exec(reason);
  if (!at) return reason;
  reason = reason.slice(0, at.index) + reason.slice(at.index + at[0].length);
  const before = text.slice(0, Number(at[1]));
  const line = before.split('\n').length;
  const column = before.length - before.lastIndexOf('\n');
  return `line ${line}, column ${column}: ${reason}`;
}

/** The runtime's NRI table in the file, when it is there and is a table. */
export function sectionOf(doc: Record<string, unknown>, rt: RuntimeTable): unknown {
  let at: unknown = doc;
  for (const name of rt.section) at = isTable(at) ? at[name] : undefined;
  return at;
}

/**
 * Checks one table against its known keys: unknown keys (with the nearest known one),
 * obsolete keys, wrong types, bad durations. `label`: how messages name the table.
 * Returns the values that passed, and those of known keys that did not.
 */
export function checkKeys(
  table: Record<string, unknown>,
  keys: Record<string, KeySpec>,
  label: string | undefined,
  rt: RuntimeTable,
  out: Collector,
): CheckedTable {
  const values: Record<string, unknown> = {};
  const invalid: Record<string, unknown> = {};
  const at = label === undefined ? '' : `${label}: `;
  for (const [key, value] of Object.entries(table)) {
    // Own keys only: a key named "constructor" is no key of the table.
    const spec = Object.hasOwn(keys, key) ? keys[key] : undefined;
    const shown = excerptKey(key);
    if (!spec) {
      unknownKey(key, keys, at, rt, out);
      continue;
    }
    if (spec.obsolete) {
      out.add('warning', 'obsolete-key', `${at}"${shown}" ${spec.obsolete}`, `remove "${shown}"`);
      continue;
    }
    const problem = typeProblem(value, spec.type);
    if (problem) {
      out.add(
        'error',
        'wrong-type',
        `${at}"${shown}" ${problem}: ${rt.name} refuses ${rt.refuses}`,
        `write "${shown}" as ${describe(spec.type)}`,
      );
      invalid[key] = value;
      continue;
    }
    values[key] = value;
  }
  return { values, invalid };
}

function unknownKey(key: string, keys: Record<string, KeySpec>, at: string, rt: RuntimeTable, out: Collector): void {
  const shown = excerptKey(key);
  if (rt.underscoreSpellingIgnored && key.includes('_')) {
    const hyphenated = key.replace(/_/g, '-');
    if (Object.hasOwn(keys, hyphenated)) {
      out.add(
        'warning',
        'underscore-key-ignored',
        `${at}"${shown}" is an old underscore spelling: ${rt.name} reads "${hyphenated}" and ignores this key`,
        `rename "${shown}" to "${hyphenated}"`,
      );
      return;
    }
  }
  const near = nearestKey(key, Object.keys(keys));
  // A file that holds much more than NRI: only keys that look meant for NRI are ours to judge.
  if (rt.unknownKeys === 'ignored, judged if NRI-like' && !(near && /nri|plugin|connection|cri/i.test(key))) return;
  const meant = near ? ` (did you mean "${near}"?)` : '';
  const fix = near ? `rename "${shown}" to "${near}"` : `remove "${shown}"`;
  if (rt.unknownKeys === 'refused')
    out.add(
      'error',
      'unknown-key',
      `${at}unknown key "${shown}"${meant}: ${rt.name} refuses unknown keys here and does not start`,
      fix,
    );
  else out.add('warning', 'unknown-key', `${at}unknown key "${shown}"${meant}: ${rt.name} ignores it`, fix);
}

function typeProblem(value: unknown, type: KeyType): string | undefined {
  const t = typeName(value);
  switch (type) {
    case 'bool':
      return t === 'boolean' ? undefined : `is a ${t}, not a boolean`;
    case 'string':
      return t === 'string' ? undefined : `is a ${t}, not a string`;
    case 'table':
      return t === 'table' ? undefined : `is a ${t}, not a table`;
    case 'string-list':
      return Array.isArray(value) && value.every((v) => typeof v === 'string')
        ? undefined
        : `is a ${t}, not a list of strings`;
    case 'seconds':
      return Number.isInteger(value) && (value as number) >= 0 ? undefined : `is a ${t}, not a whole number of seconds`;
    case 'duration': {
      if (t !== 'string') return `is a ${t}, not a duration string such as "5s"`;
      const d = configDuration(value as string);
      return 'error' in d ? `"${excerpt(value as string)}" is not a duration (${d.error})` : undefined;
    }
  }
}

function describe(type: KeyType): string {
  return {
    bool: 'true or false',
    string: 'a quoted string',
    table: 'a table',
    'string-list': 'a list of strings',
    seconds: 'an integer (seconds)',
    duration: 'a duration string such as "5s"',
  }[type];
}

/**
 * Applies a checked table to the settings: each valid value replaces what was there (a
 * valid value of a later file also clears an earlier file's invalid one), and each
 * invalid value stands for its setting, which then has no value to run with.
 */
export function applySettings(s: NriSettings, checked: CheckedTable, keys: Record<string, KeySpec>): void {
  const fields = s as unknown as Record<string, unknown>;
  for (const [key, value] of Object.entries(checked.values)) {
    const spec = keys[key];
    if (spec?.setting === undefined) continue;
    delete s.invalid[spec.setting];
    fields[spec.setting] = settingValue(spec, value);
  }
  markInvalid(s, checked.invalid, keys);
}

function settingValue(spec: KeySpec, value: unknown): unknown {
  switch (spec.type) {
    case 'bool':
      return spec.negated ? !value : value;
    case 'duration':
      return goDurationMs(value as string);
    case 'seconds':
      return (value as number) * 1000;
    default:
      return value;
  }
}
