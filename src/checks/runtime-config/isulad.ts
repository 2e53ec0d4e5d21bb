import {
  Collector,
  markInvalid,
  summaryFinding,
  type KeySpec,
  type NriSettings,
  type RuntimeConfigReport,
  type SettingName,
} from './schema.js';
import { nearestKey, typeName } from './keys.js';
import { DEFAULT_SOCKET_PATH } from '../defaults.js';
import { excerpt } from '../../units/index.js';
import { isuladCriSocket } from './cri-socket.js';

const NRI_KEYS: Record<string, KeySpec> = {
  'nri-support': { type: 'bool' },
  'disable-connections': { type: 'bool' },
  'plugin-config-path': { type: 'string' },
  'plugin-path': { type: 'string' },
  'plugin-registration-timeout': { type: 'seconds' },
  'plugin-request-timeout': { type: 'seconds' },
  'plugin-requst-timeout': { type: 'seconds' },
  'enable-cri-v1': { type: 'bool' },
  'nri-socket-path': { type: 'string' },
};

/**
 * JSON.parse's reason with a line and column instead of an offset, and without the
 * copy of the text V8 puts into some messages.
 */
export function jsonErrorText(text: string, err: Error): string {
  let reason = err.message.replace(/^(.*?), (?:\.\.\.)?".*"(?:\.\.\.)? is not valid JSON$/s, '$1');
  const at = /\s+in JSON at position (\d+)(?: \(line \d+ column \d+\))?/.exec(reason);
  if (!at) return reason;
  reason = reason.slice(0, at.index) + reason.slice(at.index + at[0].length);
  const before = text.slice(0, Number(at[1]));
  const line = before.split('\n').length;
  const column = before.length - before.lastIndexOf('\n');
  return `line ${line}, column ${column}: ${reason}`;
}

/** The key iSulad reads its plugin request timeout from: lcr's daemon.json schema misspells it. */
const ISULAD_REQUEST_TIMEOUT_KEY = 'plugin-requst-timeout';
const ISULAD_READS = `iSulad (2.1.5, and its master as of 2025-07) reads the request timeout from "${ISULAD_REQUEST_TIMEOUT_KEY}"`;

const SETTING_OF: Record<string, SettingName> = {
  'nri-support': 'enabled',
  'disable-connections': 'externalConnections',
  'plugin-config-path': 'pluginConfigPath',
  'plugin-path': 'pluginPath',
  'plugin-registration-timeout': 'registrationTimeoutMs',
  'plugin-requst-timeout': 'requestTimeoutMs',
};

export function lintIsulad(file: string, text: string): RuntimeConfigReport {
  const out = new Collector(file);
  const settings: NriSettings = {
    runtime: 'isulad',
    enabled: false,
    socketPath: DEFAULT_SOCKET_PATH,
    pluginPath: '/opt/nri/plugins',
    pluginConfigPath: '/etc/nri/conf.d',
    registrationTimeoutMs: 5000,
    requestTimeoutMs: 2000,
    externalConnections: true,
    invalid: {},
  };
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    out.add(
      'error',
      'json-syntax',
      `not valid JSON (${jsonErrorText(text, err as Error)}): iSulad does not start`,
      'fix the JSON syntax',
    );
    return { file, format: 'isulad', settings, findings: out.findings };
  }
  if (typeName(doc) !== 'table') {
    out.add('error', 'json-syntax', 'not a JSON object: iSulad does not start', 'make daemon.json one JSON object');
    return { file, format: 'isulad', settings, findings: out.findings };
  }
  const cfg = doc as Record<string, unknown>;
  const known = Object.keys(NRI_KEYS);
  const good: Record<string, unknown> = {};
  const invalid: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(cfg)) {
    const spec = NRI_KEYS[key];
    const shown = excerpt(key);
    if (!spec) {
      // daemon.json holds much more than NRI; only keys that look meant for NRI are ours to judge.
      const hyphenated = key.replace(/_/g, '-');
      if (key.includes('_') && NRI_KEYS[hyphenated]) {
        out.add(
          'warning',
          'underscore-key-ignored',
          `"${shown}" is an old underscore spelling: iSulad reads "${hyphenated}" and ignores this key`,
          `rename "${shown}" to "${hyphenated}"`,
        );
        continue;
      }
      const near = nearestKey(key, known);
      if (near && /nri|plugin|connection|cri/i.test(key)) {
        out.add(
          'warning',
          'unknown-key',
          `unknown key "${shown}" (did you mean "${near}"?): iSulad ignores it`,
          `rename "${shown}" to "${near}"`,
        );
      }
      continue;
    }
    const t = typeName(value);
    const ok =
      spec.type === 'bool'
        ? t === 'boolean'
        : spec.type === 'string'
          ? t === 'string'
          : Number.isInteger(value) && (value as number) >= 0;
    if (!ok) {
      out.add(
        'error',
        'wrong-type',
        `"${shown}" is a ${t}, not ${spec.type === 'bool' ? 'a boolean' : spec.type === 'string' ? 'a string' : 'a whole number of seconds'}: iSulad refuses daemon.json`,
        `write "${shown}" as ${spec.type === 'seconds' ? 'an integer (seconds)' : spec.type === 'bool' ? 'true or false' : 'a quoted string'}`,
      );
      invalid[key] = value;
      continue;
    }
    good[key] = value;
  }

  settings.enabled = good['nri-support'] === true;
  if (typeof good['plugin-path'] === 'string') settings.pluginPath = good['plugin-path'];
  if (typeof good['plugin-config-path'] === 'string') settings.pluginConfigPath = good['plugin-config-path'];
  if (typeof good['plugin-registration-timeout'] === 'number')
    settings.registrationTimeoutMs = good['plugin-registration-timeout'] * 1000;
  // iSulad 2.1.5, up to its master of 2025-07, reads the request timeout under lcr's
  // misspelled key; the correctly spelled one is in no schema it ships, and is ignored.
  const read = good[ISULAD_REQUEST_TIMEOUT_KEY];
  const unread = good['plugin-request-timeout'];
  if (typeof unread === 'number' && typeof read !== 'number') {
    out.add(
      'warning',
      'request-timeout-ignored',
      `"plugin-request-timeout" is not read: ${ISULAD_READS}, so the request timeout stays ${typeof read === 'undefined' ? '2 s' : 'as it was'}`,
      `write the value as "${ISULAD_REQUEST_TIMEOUT_KEY}": ${unread} (keeping "plugin-request-timeout" does no harm)`,
    );
  } else if (typeof unread === 'number' && typeof read === 'number' && unread !== read) {
    out.add(
      'warning',
      'request-timeout-conflict',
      `"plugin-request-timeout" (${unread}) and "${ISULAD_REQUEST_TIMEOUT_KEY}" (${read}) disagree: ${ISULAD_READS}, so ${read} s counts`,
      'give both the same value',
    );
  } else if (typeof read === 'number') {
    out.add(
      'info',
      'request-timeout-spelling',
      `the request timeout (${read} s) is read from "${ISULAD_REQUEST_TIMEOUT_KEY}", as iSulad spells it (lcr's schema)`,
      'nothing to do',
    );
  }
  if (typeof read === 'number') settings.requestTimeoutMs = read * 1000;
  if (good['disable-connections'] === true) settings.externalConnections = false;
  markInvalid(settings, invalid, SETTING_OF);

  if (settings.invalid.enabled !== undefined) {
    // "nri-support" has its wrong-type finding: one finding per fault, not also "is false".
  } else if (!settings.enabled) {
    out.add(
      'warning',
      'nri-disabled',
      `"nri-support" is ${cfg['nri-support'] === undefined ? 'not set' : 'false'}: iSulad runs no NRI plugin`,
      'set "nri-support": true and restart iSulad',
    );
  } else if (good['enable-cri-v1'] !== true) {
    out.add(
      'error',
      'cri-v1-required',
      '"nri-support" is on but "enable-cri-v1" is not true: iSulad\'s NRI works only with the CRI v1 service',
      'set "enable-cri-v1": true',
    );
  }
  if (typeof good['nri-socket-path'] === 'string' && good['nri-socket-path'] !== DEFAULT_SOCKET_PATH) {
    out.add(
      'warning',
      'socket-path-not-applied',
      `"nri-socket-path" is in iSulad's schema but never applied: the socket stays ${DEFAULT_SOCKET_PATH}, not ${good['nri-socket-path']}`,
      `remove "nri-socket-path" and point plugins at ${DEFAULT_SOCKET_PATH}`,
    );
  }
  if (!settings.externalConnections) {
    out.add(
      'info',
      'external-connections-disabled',
      '"disable-connections": true: only plugins from the plugin directory run; external plugins cannot connect',
      'set "disable-connections": false to allow external plugins',
    );
  }
  if (settings.registrationTimeoutMs === 0 || settings.requestTimeoutMs === 0) {
    out.add(
      'error',
      'timeout-not-positive',
      'a plugin timeout is 0: plugins cannot register or answer in time',
      'use whole seconds such as 5 and 2',
    );
  }
  summaryFinding(out, settings);
  return { file, format: 'isulad', settings, findings: out.findings, criSocket: isuladCriSocket(cfg) };
}
