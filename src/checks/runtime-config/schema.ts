import { finding, type Finding, type RuntimeKind, type Severity } from '../finding.js';
import { configDuration } from './duration.js';
import { excerpt } from '../../units/index.js';
import { nearestKey, typeName } from './keys.js';
import type { DefaultValidatorSettings } from './validator.js';

export type KeyType = 'bool' | 'string' | 'duration' | 'seconds' | 'string-list' | 'table';

export interface KeySpec {
  type: KeyType;
  /** The key exists only in old versions and is ignored now. */
  obsolete?: string;
}

/** A runtime's NRI settings after defaults, as far as the file says. */
export interface NriSettings {
  runtime: RuntimeKind;
  /** undefined: the file does not say (or says it wrongly, see `invalid`) and the default depends on the runtime version. */
  enabled: boolean | undefined;
  socketPath: string;
  pluginPath: string;
  pluginConfigPath: string;
  /** null: the file gives an invalid value (see `invalid`); no default stands in for it. */
  registrationTimeoutMs: number | null;
  requestTimeoutMs: number | null;
  externalConnections: boolean;
  /** The built-in default validator's table, when the file has one (containerd 2.2+, CRI-O 1.34+). */
  defaultValidator?: DefaultValidatorSettings;
  /**
   * Settings the file gives a value of the wrong type or form, as written there (`"5x"`).
   * The runtime refuses such a file; its `wrong-type` finding says so. What the other
   * fields hold for them is not what the runtime runs with.
   */
  invalid: Partial<Record<SettingName, string>>;
}

export type SettingName = Exclude<keyof NriSettings, 'runtime' | 'invalid' | 'defaultValidator'>;

/** A value as the file writes it, for messages: strings quoted, tables and lists as JSON. */
function asWritten(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'string') return JSON.stringify(excerpt(value));
  return excerpt(JSON.stringify(value) ?? String(value));
}

/** Records the keys of `invalid` that map to a setting; the setting's value no longer counts. */
export function markInvalid(
  s: NriSettings,
  invalid: Record<string, unknown>,
  settingOf: Record<string, SettingName>,
): void {
  for (const [key, value] of Object.entries(invalid)) {
    const name = settingOf[key];
    if (!name) continue;
    s.invalid[name] = asWritten(value);
    if (name === 'enabled') s.enabled = undefined;
    if (name === 'registrationTimeoutMs' || name === 'requestTimeoutMs') s[name] = null;
  }
}

/** The values that passed, and those of known keys that did not (wrong type or form). */
export interface CheckedTable {
  values: Record<string, unknown>;
  invalid: Record<string, unknown>;
}

export interface RuntimeConfigReport {
  file: string;
  format: RuntimeKind;
  settings: NriSettings;
  findings: Finding[];
  /** containerd: the HOST:PORT its metrics are served on (NRI's from 2.3 on), when the file sets one. */
  metricsAddress?: string;
  /** Where the runtime serves CRI, as the file says or by the runtime's default; absent for Docker (no CRI) or an unreadable file. */
  criSocket?: string;
  /** containerd: the file turns the CRI plugin off (disabled_plugins), as Docker's own containerd does. */
  criDisabled?: true;
}

export class Collector {
  readonly findings: Finding[] = [];
  constructor(readonly file: string) {}
  add(severity: Severity, code: string, message: string, fix: string): void {
    this.findings.push(finding(severity, this.file, code, message, fix));
  }
}

/**
 * Checks one table against its known keys: unknown keys (with the nearest known one),
 * wrong types, bad durations, obsolete keys. Returns the values that passed.
 */
export function checkTable(
  table: Record<string, unknown>,
  schema: Record<string, KeySpec>,
  section: string,
  out: Collector,
  runtimeName: string,
): CheckedTable {
  const good: Record<string, unknown> = {};
  const invalid: Record<string, unknown> = {};
  const known = Object.keys(schema);
  for (const [key, value] of Object.entries(table)) {
    const spec = schema[key];
    const shown = excerpt(key);
    if (!spec) {
      const near = nearestKey(key, known);
      out.add(
        'warning',
        'unknown-key',
        `${section}: unknown key "${shown}"${near ? ` (did you mean "${near}"?)` : ''}: ${runtimeName} ignores it`,
        near ? `rename "${shown}" to "${near}"` : `remove "${shown}"`,
      );
      continue;
    }
    if (spec.obsolete) {
      out.add('warning', 'obsolete-key', `${section}: "${shown}" ${spec.obsolete}`, `remove "${shown}"`);
      continue;
    }
    const problem = typeProblem(value, spec.type);
    if (problem) {
      out.add(
        'error',
        'wrong-type',
        `${section}: "${shown}" ${problem}: ${runtimeName} refuses the configuration`,
        `write "${shown}" as ${describe(spec.type)}`,
      );
      invalid[key] = value;
      continue;
    }
    good[key] = value;
  }
  return { values: good, invalid };
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
      return Number.isInteger(value) && (value as number) >= 0
        ? undefined
        : `is ${t === 'number' ? 'not a whole number' : `a ${t}`}, not whole seconds`;
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
    seconds: 'a whole number of seconds',
    duration: 'a duration string such as "5s"',
  }[type];
}

/** The settings in one line; an invalid value is shown as written, never a default in its place. */
export function summaryFinding(out: Collector, s: NriSettings): void {
  const bad = (name: SettingName) => (s.invalid[name] !== undefined ? `invalid (${s.invalid[name]})` : undefined);
  const state = bad('enabled')
    ? `NRI on or off: ${bad('enabled')}`
    : s.enabled === undefined
      ? 'NRI state depends on the runtime version'
      : s.enabled
        ? 'NRI enabled'
        : 'NRI disabled';
  const ms = (name: 'registrationTimeoutMs' | 'requestTimeoutMs') => bad(name) ?? `${s[name]} ms`;
  const external = bad('externalConnections') ?? (s.externalConnections ? 'allowed' : 'refused');
  out.add(
    'info',
    'nri-settings',
    `${state}; socket ${bad('socketPath') ?? s.socketPath}; plugins ${bad('pluginPath') ?? s.pluginPath}; configs ${bad('pluginConfigPath') ?? s.pluginConfigPath}; registration timeout ${ms('registrationTimeoutMs')}, request timeout ${ms('requestTimeoutMs')}; external plugins ${external}`,
    'nothing to do',
  );
}

export function isTable(v: unknown): v is Record<string, unknown> {
  return typeName(v) === 'table';
}
