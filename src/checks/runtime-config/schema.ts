import { finding, type Finding, type RuntimeKind, type Severity } from '../finding.js';
import { parseGoDuration } from './duration.js';
import { nearestKey, typeName } from './keys.js';

export type KeyType = 'bool' | 'string' | 'duration' | 'seconds' | 'string-list' | 'table';

export interface KeySpec {
  type: KeyType;
  /** The key exists only in old versions and is ignored now. */
  obsolete?: string;
}

/** A runtime's NRI settings after defaults, as far as the file says. */
export interface NriSettings {
  runtime: RuntimeKind;
  /** undefined: the file does not say and the default depends on the runtime version. */
  enabled: boolean | undefined;
  socketPath: string;
  pluginPath: string;
  pluginConfigPath: string;
  registrationTimeoutMs: number;
  requestTimeoutMs: number;
  externalConnections: boolean;
}

export interface RuntimeConfigReport {
  file: string;
  format: RuntimeKind;
  settings: NriSettings;
  findings: Finding[];
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
): Record<string, unknown> {
  const good: Record<string, unknown> = {};
  const known = Object.keys(schema);
  for (const [key, value] of Object.entries(table)) {
    const spec = schema[key];
    if (!spec) {
      const near = nearestKey(key, known);
      out.add('warning', 'unknown-key',
        `${section}: unknown key "${key}"${near ? ` (did you mean "${near}"?)` : ''}: ${runtimeName} ignores it`,
        near ? `rename "${key}" to "${near}"` : `remove "${key}"`);
      continue;
    }
    if (spec.obsolete) {
      out.add('warning', 'obsolete-key', `${section}: "${key}" ${spec.obsolete}`, `remove "${key}"`);
      continue;
    }
    const problem = typeProblem(value, spec.type);
    if (problem) {
      out.add('error', 'wrong-type', `${section}: "${key}" ${problem}: ${runtimeName} refuses the configuration`, `write "${key}" as ${describe(spec.type)}`);
      continue;
    }
    good[key] = value;
  }
  return good;
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
      return Array.isArray(value) && value.every((v) => typeof v === 'string') ? undefined : `is a ${t}, not a list of strings`;
    case 'seconds':
      return Number.isInteger(value) && (value as number) >= 0 ? undefined : `is ${t === 'number' ? 'not a whole number' : `a ${t}`}, not whole seconds`;
    case 'duration':
      if (t !== 'string') return `is a ${t}, not a duration string such as "5s"`;
      return parseGoDuration(value as string) === undefined ? `"${String(value)}" is not a duration such as "5s" or "500ms"` : undefined;
  }
}

function describe(type: KeyType): string {
  return { bool: 'true or false', string: 'a quoted string', table: 'a table', 'string-list': 'a list of strings', seconds: 'a whole number of seconds', duration: 'a duration string such as "5s"' }[type];
}

export function summaryFinding(out: Collector, s: NriSettings): void {
  const state = s.enabled === undefined ? 'NRI state depends on the runtime version' : s.enabled ? 'NRI enabled' : 'NRI disabled';
  out.add('info', 'nri-settings',
    `${state}; socket ${s.socketPath}; plugins ${s.pluginPath}; configs ${s.pluginConfigPath}; registration timeout ${s.registrationTimeoutMs} ms, request timeout ${s.requestTimeoutMs} ms; external plugins ${s.externalConnections ? 'allowed' : 'refused'}`,
    'nothing to do');
}

export function isTable(v: unknown): v is Record<string, unknown> {
  return typeName(v) === 'table';
}
