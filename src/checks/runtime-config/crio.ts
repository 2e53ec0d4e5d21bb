// CRI-O's crio.conf and its drop-ins: each file's [crio.nri] read through the runtime's
// table (tables.ts), and what is CRI-O's own: NRI keys in its other tables, and the
// files applied one after the other, a later one's key winning.
import { validatorSettings } from './validator.js';
import { applySettings, checkKeys, defaultSettings, parseDocument } from './reader.js';
import {
  Collector,
  isTable,
  summaryFinding,
  timeoutFindings,
  type CheckedTable,
  type NriSettings,
  type RuntimeConfigReport,
} from './schema.js';
import { CRIO, CRIO_LABEL as LABEL } from './tables.js';
import { excerptKey } from '../../units/index.js';
import { crioCriSocket, DEFAULT_CRI_SOCKETS } from './cri-socket.js';
import { crioPauseImage } from './pause-image.js';

/** The NRI table of one CRI-O file, checked; undefined when the file has none. */
interface CrioLayer extends CheckedTable {
  file: string;
  /** Its default_validator table's values that passed the check, when it has the table. */
  validator?: Record<string, unknown>;
}

/** `api` gets the file's [crio.api] listen and [crio.image] pause_image, if it sets them (whatever its NRI table says). */
function parseLayer(
  file: string,
  text: string,
  out: Collector,
  api: { listen?: string; pauseImage?: string },
): CrioLayer | undefined {
  const doc = parseDocument(text, CRIO, out);
  if (!doc) return undefined;
  const listen = crioCriSocket(doc);
  if (listen !== undefined) api.listen = listen;
  const pause = crioPauseImage(doc);
  if (pause !== undefined) api.pauseImage = pause;
  const crio = isTable(doc.crio) ? doc.crio : {};
  for (const [table, value] of Object.entries(crio)) {
    if (table === 'nri' || !isTable(value)) continue;
    for (const key of Object.keys(value)) {
      if (Object.hasOwn(CRIO.keys, key) || /(^|_)nri(_|$)/.test(key)) {
        out.add(
          'warning',
          'nri-key-outside-section',
          `"${excerptKey(key)}" is in [crio.${excerptKey(table)}], not ${LABEL}: CRI-O ignores it there`,
          `move it into ${LABEL}`,
        );
      }
    }
  }
  if (!isTable(crio.nri)) return undefined;
  const { values, invalid } = checkKeys(crio.nri, CRIO.keys, LABEL, CRIO, out);
  if (!isTable(values.default_validator)) return { file, values, invalid };
  const validator = checkKeys(values.default_validator, CRIO.validatorKeys, `${LABEL}.default_validator`, CRIO, out);
  return { file, values, invalid, validator: validator.values };
}

/** A later file's value replaces an earlier one, valid or not; an invalid one stands for no default. */
function apply(s: NriSettings, layer: CrioLayer): void {
  applySettings(s, layer, CRIO.keys);
  // A later file's keys override an earlier one's, key by key, as for the rest of [crio.nri];
  // a value of the wrong type gives no setting (its finding says so), as in containerd's table.
  if (layer.validator) s.defaultValidator = { ...s.defaultValidator, ...validatorSettings(layer.validator, true) };
}

/**
 * CRI-O reads crio.conf, then each drop-in in lexical order; a key set in a later file
 * wins. `files` must be in that order (crio.conf first). Findings land on each file;
 * the last report carries the effective settings.
 */
export function lintCrio(files: Array<{ file: string; text: string }>): RuntimeConfigReport[] {
  const settings = defaultSettings(CRIO);
  const reports: RuntimeConfigReport[] = [];
  const setBy = new Map<string, string>();
  let anyNri = false;
  // A later file's listen wins, as for the rest of CRI-O's settings.
  const api: { listen?: string; pauseImage?: string } = {};
  for (const { file, text } of files) {
    const out = new Collector(file);
    const layer = parseLayer(file, text, out, api);
    if (layer) {
      anyNri = true;
      for (const key of [...Object.keys(layer.values), ...Object.keys(layer.invalid)]) {
        const earlier = setBy.get(key);
        if (earlier)
          out.add(
            'info',
            'overrides-earlier-file',
            `${LABEL} "${excerptKey(key)}" overrides the value from ${earlier}`,
            'nothing to do, if meant',
          );
        setBy.set(key, file);
      }
      apply(settings, layer);
    }
    reports.push({
      file,
      format: 'crio',
      settings: { ...settings, invalid: { ...settings.invalid } },
      findings: out.findings,
      criSocket: api.listen ?? DEFAULT_CRI_SOCKETS.crio,
      ...(api.pauseImage !== undefined ? { pauseImage: api.pauseImage } : {}),
    });
  }
  const last = reports[reports.length - 1];
  if (!last) return reports;
  const out = new Collector(last.file);
  if (!anyNri) {
    out.add(
      'warning',
      'nri-section-missing',
      `no ${LABEL} table: CRI-O's built-in default applies (check \`crio config | grep enable_nri\`)`,
      `add ${LABEL} with enable_nri = true`,
    );
  } else if (settings.invalid.enabled !== undefined) {
    // enable_nri has a wrong-type finding: one finding per fault, not also "not set".
  } else if (settings.enabled === false) {
    out.add(
      'warning',
      'nri-disabled',
      `${LABEL} enable_nri = false: CRI-O runs no NRI plugin`,
      'set enable_nri = true and restart CRI-O',
    );
  } else if (settings.enabled === undefined) {
    out.add(
      'warning',
      'nri-default',
      `${LABEL} does not set enable_nri: CRI-O's built-in default applies`,
      'set enable_nri = true explicitly',
    );
  }
  if (!settings.externalConnections) {
    out.add(
      'info',
      'external-connections-disabled',
      'nri_disable_connections = true: only plugins from the plugin directory run; external plugins cannot connect',
      'set nri_disable_connections = false to allow external plugins',
    );
  }
  timeoutFindings(out, settings);
  summaryFinding(out, settings);
  last.findings.push(...out.findings);
  last.settings = { ...settings, invalid: { ...settings.invalid } };
  return reports;
}
