import { loadToml } from './toml.js';
import { timeoutFindings } from './containerd.js';
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
import { crioCriSocket, DEFAULT_CRI_SOCKETS } from './cri-socket.js';

const NRI_KEYS: Record<string, KeySpec> = {
  enable_nri: { type: 'bool' },
  nri_listen: { type: 'string' },
  nri_plugin_dir: { type: 'string' },
  nri_plugin_config_dir: { type: 'string' },
  nri_plugin_registration_timeout: { type: 'duration' },
  nri_plugin_request_timeout: { type: 'duration' },
  nri_disable_connections: { type: 'bool' },
  default_validator: { type: 'table' },
  nri_config_file: { type: 'string', obsolete: 'belonged to NRI v0.2; CRI-O ignores it now' },
  nri_socket_path: { type: 'string', obsolete: 'is an old name; CRI-O reads nri_listen' },
};

const VALIDATOR_KEYS: Record<string, KeySpec> = {
  nri_enable_default_validator: { type: 'bool' },
  nri_validator_reject_oci_hook_adjustment: { type: 'bool' },
  nri_validator_reject_runtime_default_seccomp_adjustment: { type: 'bool' },
  nri_validator_reject_unconfined_seccomp_adjustment: { type: 'bool' },
  nri_validator_reject_custom_seccomp_adjustment: { type: 'bool' },
  nri_validator_reject_namespace_adjustment: { type: 'bool' },
  nri_validator_required_plugins: { type: 'string-list' },
  nri_validator_tolerate_missing_plugins_annotation: { type: 'string' },
};

const SETTING_OF: Record<string, SettingName> = {
  enable_nri: 'enabled',
  nri_listen: 'socketPath',
  nri_plugin_dir: 'pluginPath',
  nri_plugin_config_dir: 'pluginConfigPath',
  nri_plugin_registration_timeout: 'registrationTimeoutMs',
  nri_plugin_request_timeout: 'requestTimeoutMs',
  nri_disable_connections: 'externalConnections',
};

const LABEL = '[crio.nri]';

/** The NRI table of one CRI-O file, checked; undefined when the file has none. */
interface CrioLayer {
  file: string;
  values: Record<string, unknown>;
  /** Known keys with a value of the wrong type or form. */
  invalid: Record<string, unknown>;
}

/** `api` gets the file's [crio.api] listen, if it sets one (whatever its NRI table says). */
function parseLayer(file: string, text: string, out: Collector, api: { listen?: string }): CrioLayer | undefined {
  let doc: Record<string, unknown>;
  try {
    doc = loadToml().parse(text);
  } catch (err) {
    const where = err instanceof loadToml().TomlError ? `line ${err.line}: ` : '';
    out.add(
      'error',
      'toml-syntax',
      `not valid TOML (${where}${(err as Error).message.split('\n')[0]}): CRI-O does not start`,
      'fix the TOML syntax',
    );
    return undefined;
  }
  const listen = crioCriSocket(doc);
  if (listen !== undefined) api.listen = listen;
  const crio = isTable(doc.crio) ? doc.crio : {};
  for (const [table, value] of Object.entries(crio)) {
    if (table === 'nri' || !isTable(value)) continue;
    for (const key of Object.keys(value)) {
      if (key in NRI_KEYS || /(^|_)nri(_|$)/.test(key)) {
        out.add(
          'warning',
          'nri-key-outside-section',
          `"${excerpt(key)}" is in [crio.${excerpt(table)}], not ${LABEL}: CRI-O ignores it there`,
          `move it into ${LABEL}`,
        );
      }
    }
  }
  if (!isTable(crio.nri)) return undefined;
  const { values, invalid } = checkTable(crio.nri, NRI_KEYS, LABEL, out, 'CRI-O');
  if (isTable(values.default_validator))
    checkTable(values.default_validator, VALIDATOR_KEYS, `${LABEL}.default_validator`, out, 'CRI-O');
  return { file, values, invalid };
}

function defaults(): NriSettings {
  return {
    runtime: 'crio',
    enabled: undefined,
    socketPath: DEFAULT_SOCKET_PATH,
    pluginPath: '/opt/nri/plugins',
    pluginConfigPath: '/etc/nri/conf.d',
    registrationTimeoutMs: 5000,
    requestTimeoutMs: 2000,
    externalConnections: true,
    invalid: {},
  };
}

/** A later file's value replaces an earlier one, valid or not; an invalid one stands for no default. */
function apply(s: NriSettings, layer: CrioLayer): void {
  const v = layer.values;
  for (const key of Object.keys(v)) if (SETTING_OF[key]) delete s.invalid[SETTING_OF[key]];
  markInvalid(s, layer.invalid, SETTING_OF);
  if (typeof v.enable_nri === 'boolean') s.enabled = v.enable_nri;
  if (typeof v.nri_listen === 'string') s.socketPath = v.nri_listen;
  if (typeof v.nri_plugin_dir === 'string') s.pluginPath = v.nri_plugin_dir;
  if (typeof v.nri_plugin_config_dir === 'string') s.pluginConfigPath = v.nri_plugin_config_dir;
  if (typeof v.nri_plugin_registration_timeout === 'string')
    s.registrationTimeoutMs = goDurationMs(v.nri_plugin_registration_timeout)!;
  if (typeof v.nri_plugin_request_timeout === 'string')
    s.requestTimeoutMs = goDurationMs(v.nri_plugin_request_timeout)!;
  if (typeof v.nri_disable_connections === 'boolean') s.externalConnections = !v.nri_disable_connections;
  // A later file's keys override an earlier one's, key by key, as for the rest of [crio.nri].
  if (isTable(v.default_validator))
    s.defaultValidator = { ...s.defaultValidator, ...validatorSettings(v.default_validator, true) };
}

/**
 * CRI-O reads crio.conf, then each drop-in in lexical order; a key set in a later file
 * wins. `files` must be in that order (crio.conf first). Findings land on each file;
 * the last report carries the effective settings.
 */
export function lintCrio(files: Array<{ file: string; text: string }>): RuntimeConfigReport[] {
  const settings = defaults();
  const reports: RuntimeConfigReport[] = [];
  const setBy = new Map<string, string>();
  let anyNri = false;
  // A later file's listen wins, as for the rest of CRI-O's settings.
  const api: { listen?: string } = {};
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
            `${LABEL} "${excerpt(key)}" overrides the value from ${earlier}`,
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
