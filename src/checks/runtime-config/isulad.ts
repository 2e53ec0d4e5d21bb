// iSulad's daemon.json: its NRI keys read through the runtime's table (tables.ts), and
// what is iSulad's own: the request timeout read from a misspelled key, a socket path in
// its schema that is never applied, and NRI working only with the CRI v1 service.
import { applySettings, checkKeys, defaultSettings, parseDocument } from './reader.js';
import { Collector, summaryFinding, type RuntimeConfigReport } from './schema.js';
import { ISULAD, ISULAD_REQUEST_TIMEOUT_KEY } from './tables.js';
import { DEFAULT_SOCKET_PATH } from '../defaults.js';
import { isuladCriSocket } from './cri-socket.js';

const ISULAD_READS = `iSulad (2.1.5, and its master as of 2025-07) reads the request timeout from "${ISULAD_REQUEST_TIMEOUT_KEY}"`;

export function lintIsulad(file: string, text: string): RuntimeConfigReport {
  const out = new Collector(file);
  const settings = defaultSettings(ISULAD);
  const cfg = parseDocument(text, ISULAD, out);
  if (!cfg) return { file, format: 'isulad', settings, findings: out.findings };
  const checked = checkKeys(cfg, ISULAD.keys, ISULAD.label, ISULAD, out);
  const good = checked.values;
  applySettings(settings, checked, ISULAD.keys);

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
