// containerd's config.toml: its NRI plugin's table read through the runtime's table
// (tables.ts), and what is containerd's own: keys that stray outside that table, a table
// misnamed, the config version that decides whether NRI is on, the metrics address.
import { validatorSettings } from './validator.js';
import { applySettings, checkKeys, defaultSettings, parseDocument, sectionOf } from './reader.js';
import {
  Collector,
  isTable,
  summaryFinding,
  timeoutFindings,
  type NriSettings,
  type RuntimeConfigReport,
} from './schema.js';
import { CONTAINERD, CONTAINERD_LABEL as LABEL, CONTAINERD_NRI_PLUGIN } from './tables.js';
import { excerptKey, excerptPath } from '../../units/index.js';
import { containerdCriSocket } from './cri-socket.js';

/** Keys that only mean something inside the NRI section; elsewhere containerd drops them. */
const STRAY_KEYS = [
  'disable_connections',
  'plugin_config_path',
  'plugin_registration_timeout',
  'plugin_request_timeout',
];

export function lintContainerd(file: string, text: string): RuntimeConfigReport {
  const out = new Collector(file);
  const doc = parseDocument(text, CONTAINERD, out);
  if (!doc) return { file, format: 'containerd', settings: defaultSettings(CONTAINERD), findings: out.findings };

  const version = typeof doc.version === 'number' ? doc.version : undefined;
  // Without "disable", version 3 (containerd 2.x) has NRI on; before, it depends on the version run.
  const settings: NriSettings = {
    ...defaultSettings(CONTAINERD),
    enabled: version !== undefined && version >= 3 ? true : undefined,
  };
  const plugins = isTable(doc.plugins) ? doc.plugins : {};
  const section = sectionOf(doc, CONTAINERD);

  for (const stray of findStrayKeys(doc, [])) {
    out.add(
      'warning',
      'nri-key-outside-section',
      `"${excerptPath(stray)}" is outside ${LABEL}: containerd ignores it there`,
      `move it into the ${LABEL} section`,
    );
  }
  for (const key of Object.keys(plugins)) {
    if (key !== CONTAINERD_NRI_PLUGIN && /nri/i.test(key)) {
      out.add(
        'warning',
        'nri-section-misnamed',
        `[plugins."${excerptKey(key)}"] is not the NRI plugin's section: containerd ignores it`,
        `rename the section to ${LABEL}`,
      );
    }
  }

  if (!isTable(section)) {
    if (version === undefined || version < 2) {
      out.add(
        'warning',
        'config-version',
        `no "version = 2" or "version = 3": containerd reads this as a version 1 file`,
        'add version = 2 (containerd 1.7) or version = 3 (2.x) at the top',
      );
    }
    out.add(
      'warning',
      'nri-section-missing',
      `no ${LABEL} section: NRI is off by default in containerd 1.7 and on in 2.x`,
      `add ${LABEL} with disable = false`,
    );
    summaryFinding(out, settings);
    return { file, format: 'containerd', settings, findings: out.findings, ...containerdCriSocket(doc) };
  }

  const checked = checkKeys(section, CONTAINERD.keys, LABEL, CONTAINERD, out);
  const v = checked.values;
  if (isTable(v.default_validator)) {
    const validator = checkKeys(
      v.default_validator,
      CONTAINERD.validatorKeys,
      `${LABEL}.default_validator`,
      CONTAINERD,
      out,
    );
    settings.defaultValidator = validatorSettings(validator.values, false);
    if (validator.values.reject_sysctl_adjustment !== undefined)
      out.add(
        'info',
        'validator-key-version',
        'reject_sysctl_adjustment is known from containerd 2.2.1 on: 2.2.0 logs "Ignoring unknown key in TOML for plugin" and does not reject sysctl adjustments',
        'run containerd 2.2.1 or later for it to take effect',
      );
    out.add(
      'info',
      'validator-key-version',
      'default_validator exists from containerd 2.2.0 on: 2.0 and 2.1 ignore the table (with an "Ignoring unknown key in TOML" warning per key), 1.7 silently',
      'run containerd 2.2 or later for the default validator',
    );
  }
  applySettings(settings, checked, CONTAINERD.keys);

  // An invalid "disable" has its wrong-type finding; it is not also "not set".
  if (settings.invalid.enabled === undefined && settings.enabled === false) {
    out.add(
      'warning',
      'nri-disabled',
      `${LABEL} has disable = true: containerd runs no NRI plugin`,
      'set disable = false and restart containerd',
    );
  } else if (settings.invalid.enabled === undefined && settings.enabled === undefined) {
    out.add(
      'warning',
      'nri-default',
      `${LABEL} does not set "disable": NRI is off in containerd 1.7 and on in 2.x`,
      'set disable = false explicitly',
    );
  }
  if (!settings.externalConnections) {
    out.add(
      'info',
      'external-connections-disabled',
      'disable_connections = true: only plugins from the plugin directory run; nrictl logs and other external plugins cannot connect',
      'set disable_connections = false to allow external plugins',
    );
  }
  timeoutFindings(out, settings);
  summaryFinding(out, settings);
  return {
    file,
    format: 'containerd',
    settings,
    findings: out.findings,
    ...metricsAddressOf(doc, version),
    ...containerdCriSocket(doc),
  };
}

/**
 * Where containerd serves its metrics (/v1/metrics; NRI's from 2.3 on): the metrics
 * plugin's address, else [metrics] address, which containerd 2.3 migrates to it from
 * config files of version 3 or older only (cmd/containerd/server/config/config.go).
 */
function metricsAddressOf(doc: Record<string, unknown>, version: number | undefined): { metricsAddress?: string } {
  const plugins = isTable(doc.plugins) ? doc.plugins : {};
  const server = plugins['io.containerd.server.v1.metrics'];
  if (isTable(server) && typeof server.address === 'string' && server.address !== '')
    return { metricsAddress: server.address };
  const metrics = doc.metrics;
  if ((version ?? 2) < 4 && isTable(metrics) && typeof metrics.address === 'string' && metrics.address !== '')
    return { metricsAddress: metrics.address };
  return {};
}

/** The path of each stray key, its parts written as in the file (quoted where not bare). */
function findStrayKeys(table: Record<string, unknown>, path: string[]): string[][] {
  const found: string[][] = [];
  for (const [key, value] of Object.entries(table)) {
    const here = [...path, key];
    if (path.length === 1 && path[0] === 'plugins' && key === CONTAINERD_NRI_PLUGIN) continue;
    if (STRAY_KEYS.includes(key)) found.push(here.map((p) => (/^[\w-]+$/.test(p) ? p : `"${p}"`)));
    if (isTable(value)) found.push(...findStrayKeys(value, here));
  }
  return found;
}
