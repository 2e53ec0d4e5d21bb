// What reading a runtime config gives: the NRI settings, the findings, and the key specs
// that say which setting a key gives. The reader (reader.ts) fills them from a runtime's
// table (tables.ts).
import { finding, type Finding, type RuntimeKind, type Severity } from '../finding.js';
import { excerpt } from '../../units/index.js';
import { typeName } from './keys.js';
import type { DefaultValidatorSettings } from './validator.js';

export type KeyType = 'bool' | 'string' | 'duration' | 'seconds' | 'string-list' | 'table';

export interface KeySpec {
  type: KeyType;
  /** The key exists only in old versions and is ignored now. */
  obsolete?: string;
  /** The setting the key's value gives. */
  setting?: SettingName;
  /** A boolean that says the opposite of its setting (disable: enabled). */
  negated?: true;
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

/** Records the keys of `invalid` that give a setting; the setting's value no longer counts. */
export function markInvalid(s: NriSettings, invalid: Record<string, unknown>, keys: Record<string, KeySpec>): void {
  for (const [key, value] of Object.entries(invalid)) {
    const name = keys[key]?.setting;
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

export function timeoutFindings(out: Collector, s: NriSettings): void {
  // null: invalid, and already reported as such.
  if (s.registrationTimeoutMs !== null && s.registrationTimeoutMs <= 0)
    out.add(
      'error',
      'timeout-not-positive',
      'the plugin registration timeout is not positive: no plugin can register in time',
      'use a timeout such as 5s',
    );
  if (s.requestTimeoutMs !== null && s.requestTimeoutMs <= 0)
    out.add(
      'error',
      'timeout-not-positive',
      'the plugin request timeout is not positive: every plugin request times out',
      'use a timeout such as 2s',
    );
}
