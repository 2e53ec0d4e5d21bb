import { loadToml } from './toml.js';
import { goDurationMs } from './duration.js';
import { validatorSettings } from './validator.js';
import {
  checkTable,
  Collector,
  isTable,
  markInvalid,
  summaryFinding,
  type KeySpec,
  type NriSettings,
  type RuntimeConfigReport,
  type SettingName,
} from './schema.js';
import { DEFAULT_SOCKET_PATH } from '../defaults.js';
import { excerpt } from '../../units/index.js';
import { containerdCriSocket } from './cri-socket.js';

const CONTAINERD_NRI_PLUGIN = 'io.containerd.nri.v1.nri';

const NRI_KEYS: Record<string, KeySpec> = {
  disable: { type: 'bool' },
  disable_connections: { type: 'bool' },
  plugin_path: { type: 'string' },
  plugin_config_path: { type: 'string' },
  socket_path: { type: 'string' },
  plugin_registration_timeout: { type: 'duration' },
  plugin_request_timeout: { type: 'duration' },
  default_validator: { type: 'table' },
  config_file: { type: 'string', obsolete: 'belonged to NRI v0.2 (/etc/nri/nri.conf); containerd ignores it now' },
};

const VALIDATOR_KEYS: Record<string, KeySpec> = {
  enable: { type: 'bool' },
  reject_oci_hook_adjustment: { type: 'bool' },
  reject_runtime_default_seccomp_adjustment: { type: 'bool' },
  reject_unconfined_seccomp_adjustment: { type: 'bool' },
  reject_custom_seccomp_adjustment: { type: 'bool' },
  reject_namespace_adjustment: { type: 'bool' },
  reject_sysctl_adjustment: { type: 'bool' },
  required_plugins: { type: 'string-list' },
  tolerate_missing_plugins_annotation: { type: 'string' },
};

const SETTING_OF: Record<string, SettingName> = {
  disable: 'enabled',
  disable_connections: 'externalConnections',
  plugin_path: 'pluginPath',
  plugin_config_path: 'pluginConfigPath',
  socket_path: 'socketPath',
  plugin_registration_timeout: 'registrationTimeoutMs',
  plugin_request_timeout: 'requestTimeoutMs',
};

/** Keys that only mean something inside the NRI section; elsewhere containerd drops them. */
const STRAY_KEYS = [
  'disable_connections',
  'plugin_config_path',
  'plugin_registration_timeout',
  'plugin_request_timeout',
];

export function lintContainerd(file: string, text: string): RuntimeConfigReport {
  const out = new Collector(file);
  const settings: NriSettings = {
    runtime: 'containerd',
    enabled: undefined,
    socketPath: DEFAULT_SOCKET_PATH,
    pluginPath: '/opt/nri/plugins',
    pluginConfigPath: '/etc/nri/conf.d',
    registrationTimeoutMs: 5000,
    requestTimeoutMs: 2000,
    externalConnections: true,
    invalid: {},
  };
  let doc: Record<string, unknown>;
  try {
    doc = loadToml().parse(text);
  } catch (err) {
    const where = err instanceof loadToml().TomlError ? `line ${err.line}: ` : '';
    out.add(
      'error',
      'toml-syntax',
      `not valid TOML (${where}${(err as Error).message.split('\n')[0]}): containerd does not start`,
      'fix the TOML syntax',
    );
    return { file, format: 'containerd', settings, findings: out.findings };
  }

  const version = typeof doc.version === 'number' ? doc.version : undefined;
  const plugins = isTable(doc.plugins) ? doc.plugins : {};
  const section = plugins[CONTAINERD_NRI_PLUGIN];
  const label = `[plugins."${CONTAINERD_NRI_PLUGIN}"]`;

  for (const stray of findStrayKeys(doc, [])) {
    out.add(
      'warning',
      'nri-key-outside-section',
      `"${excerpt(stray)}" is outside ${label}: containerd ignores it there`,
      `move it into the ${label} section`,
    );
  }
  for (const key of Object.keys(plugins)) {
    if (key !== CONTAINERD_NRI_PLUGIN && /nri/i.test(key)) {
      out.add(
        'warning',
        'nri-section-misnamed',
        `[plugins."${excerpt(key)}"] is not the NRI plugin's section: containerd ignores it`,
        `rename the section to ${label}`,
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
      `no ${label} section: NRI is off by default in containerd 1.7 and on in 2.x`,
      `add ${label} with disable = false`,
    );
    settings.enabled = version !== undefined && version >= 3 ? true : undefined;
    summaryFinding(out, settings);
    return { file, format: 'containerd', settings, findings: out.findings, ...containerdCriSocket(doc) };
  }

  const { values: v, invalid } = checkTable(section, NRI_KEYS, label, out, 'containerd');
  if (isTable(v.default_validator)) {
    const checked = checkTable(v.default_validator, VALIDATOR_KEYS, `${label}.default_validator`, out, 'containerd');
    settings.defaultValidator = validatorSettings(checked.values, false);
    if (checked.values.reject_sysctl_adjustment !== undefined)
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
  if (v.disable !== undefined) settings.enabled = !v.disable;
  else settings.enabled = version !== undefined && version >= 3 ? true : undefined;
  if (typeof v.socket_path === 'string') settings.socketPath = v.socket_path;
  if (typeof v.plugin_path === 'string') settings.pluginPath = v.plugin_path;
  if (typeof v.plugin_config_path === 'string') settings.pluginConfigPath = v.plugin_config_path;
  if (typeof v.plugin_registration_timeout === 'string')
    settings.registrationTimeoutMs = goDurationMs(v.plugin_registration_timeout)!;
  if (typeof v.plugin_request_timeout === 'string') settings.requestTimeoutMs = goDurationMs(v.plugin_request_timeout)!;
  if (v.disable_connections === true) settings.externalConnections = false;
  markInvalid(settings, invalid, SETTING_OF);

  // An invalid "disable" has its wrong-type finding; it is not also "not set".
  if (settings.invalid.enabled === undefined && settings.enabled === false) {
    out.add(
      'warning',
      'nri-disabled',
      `${label} has disable = true: containerd runs no NRI plugin`,
      'set disable = false and restart containerd',
    );
  } else if (settings.invalid.enabled === undefined && settings.enabled === undefined) {
    out.add(
      'warning',
      'nri-default',
      `${label} does not set "disable": NRI is off in containerd 1.7 and on in 2.x`,
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

function findStrayKeys(table: Record<string, unknown>, path: string[]): string[] {
  const found: string[] = [];
  for (const [key, value] of Object.entries(table)) {
    const here = [...path, key];
    if (path.length === 1 && path[0] === 'plugins' && key === CONTAINERD_NRI_PLUGIN) continue;
    if (STRAY_KEYS.includes(key)) found.push(here.map((p) => (/^[\w-]+$/.test(p) ? p : `"${p}"`)).join('.'));
    if (isTable(value)) found.push(...findStrayKeys(value, here));
  }
  return found;
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
