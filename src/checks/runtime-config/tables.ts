// What nrictl knows of each runtime's configuration, as data: where NRI's keys sit, what
// each key holds and which setting it gives, what the runtime does with a key it does
// not know, and the settings before the file says anything. One reader (reader.ts) reads
// every runtime's file through its table; what is a runtime's own (containerd's stray
// keys, CRI-O's drop-ins, iSulad's misspelled timeout) stays in that runtime's file.
import type { RuntimeKind } from '../finding.js';
import { DEFAULT_SOCKET_PATH } from '../defaults.js';
import type { KeySpec, NriSettings } from './schema.js';
import { crioValidatorKey, VALIDATOR_FIELDS } from './validator.js';

export interface RuntimeTable {
  format: RuntimeKind;
  /** The runtime as its findings name it. */
  name: string;
  syntax: 'toml' | 'json';
  /** Where NRI's keys sit in the file: the path of tables down to them; [] for top-level keys. */
  section: readonly string[];
  /** The NRI table as messages name it; undefined for top-level keys. */
  label: string | undefined;
  /** What the runtime refuses over a value of the wrong type: "the configuration", "daemon.json". */
  refuses: string;
  keys: Record<string, KeySpec>;
  /** The default_validator table's keys; none where the runtime has no default validator. */
  validatorKeys: Record<string, KeySpec>;
  /**
   * A key that is not in `keys`: ignored by the runtime (a warning for each); ignored, and
   * judged only when it looks meant for NRI, in a file that holds much more than NRI; or
   * refused, the runtime not starting (an error).
   */
  unknownKeys: 'ignored' | 'ignored, judged if NRI-like' | 'refused';
  /** Its keys are hyphenated, and an underscore spelling of one is an old name it ignores. */
  underscoreSpellingIgnored?: true;
  /** The settings before the file says anything. */
  defaults: Omit<NriSettings, 'invalid' | 'runtime'>;
}

/** NRI's own defaults (pkg/adaptation), which every runtime but Docker keeps. */
const NRI_DEFAULTS = {
  enabled: undefined,
  socketPath: DEFAULT_SOCKET_PATH,
  pluginPath: '/opt/nri/plugins',
  pluginConfigPath: '/etc/nri/conf.d',
  registrationTimeoutMs: 5000,
  requestTimeoutMs: 2000,
  externalConnections: true,
} as const;

/** containerd's default_validator table, as it spells it, and CRI-O's with its nri_ names. */
function validatorKeys(crio: boolean): Record<string, KeySpec> {
  const keys: Record<string, KeySpec> = {};
  for (const [key, [, type]] of Object.entries(VALIDATOR_FIELDS)) {
    const name = crio ? crioValidatorKey(key as keyof typeof VALIDATOR_FIELDS) : key;
    if (name !== undefined) keys[name] = { type };
  }
  return keys;
}

export const CONTAINERD_NRI_PLUGIN = 'io.containerd.nri.v1.nri';
export const CONTAINERD_LABEL = `[plugins."${CONTAINERD_NRI_PLUGIN}"]`;

/** containerd's config.toml, versions 1 to 3 (the NRI plugin's config, pkg/nri/config.go). */
export const CONTAINERD: RuntimeTable = {
  format: 'containerd',
  name: 'containerd',
  syntax: 'toml',
  section: ['plugins', CONTAINERD_NRI_PLUGIN],
  label: CONTAINERD_LABEL,
  refuses: 'the configuration',
  keys: {
    disable: { type: 'bool', setting: 'enabled', negated: true },
    disable_connections: { type: 'bool', setting: 'externalConnections', negated: true },
    plugin_path: { type: 'string', setting: 'pluginPath' },
    plugin_config_path: { type: 'string', setting: 'pluginConfigPath' },
    socket_path: { type: 'string', setting: 'socketPath' },
    plugin_registration_timeout: { type: 'duration', setting: 'registrationTimeoutMs' },
    plugin_request_timeout: { type: 'duration', setting: 'requestTimeoutMs' },
    default_validator: { type: 'table' },
    config_file: { type: 'string', obsolete: 'belonged to NRI v0.2 (/etc/nri/nri.conf); containerd ignores it now' },
  },
  validatorKeys: validatorKeys(false),
  unknownKeys: 'ignored',
  defaults: NRI_DEFAULTS,
};

export const CRIO_LABEL = '[crio.nri]';

/** CRI-O's crio.conf and its drop-ins (internal/config/nri/nri.go). */
export const CRIO: RuntimeTable = {
  format: 'crio',
  name: 'CRI-O',
  syntax: 'toml',
  section: ['crio', 'nri'],
  label: CRIO_LABEL,
  refuses: 'the configuration',
  keys: {
    enable_nri: { type: 'bool', setting: 'enabled' },
    nri_listen: { type: 'string', setting: 'socketPath' },
    nri_plugin_dir: { type: 'string', setting: 'pluginPath' },
    nri_plugin_config_dir: { type: 'string', setting: 'pluginConfigPath' },
    nri_plugin_registration_timeout: { type: 'duration', setting: 'registrationTimeoutMs' },
    nri_plugin_request_timeout: { type: 'duration', setting: 'requestTimeoutMs' },
    nri_disable_connections: { type: 'bool', setting: 'externalConnections', negated: true },
    default_validator: { type: 'table' },
    nri_config_file: { type: 'string', obsolete: 'belonged to NRI v0.2; CRI-O ignores it now' },
    nri_socket_path: { type: 'string', obsolete: 'is an old name; CRI-O reads nri_listen' },
  },
  validatorKeys: validatorKeys(true),
  unknownKeys: 'ignored',
  defaults: NRI_DEFAULTS,
};

/** The key iSulad reads its plugin request timeout from: lcr's daemon.json schema misspells it. */
export const ISULAD_REQUEST_TIMEOUT_KEY = 'plugin-requst-timeout';

/**
 * iSulad's daemon.json (lcr's schema). "plugin-request-timeout", "nri-socket-path" and
 * "enable-cri-v1" give no setting: the first two are never read for NRI (isulad.ts says
 * so), the last is a condition of NRI, not one of its settings.
 */
export const ISULAD: RuntimeTable = {
  format: 'isulad',
  name: 'iSulad',
  syntax: 'json',
  section: [],
  label: undefined,
  refuses: 'daemon.json',
  keys: {
    'nri-support': { type: 'bool', setting: 'enabled' },
    'disable-connections': { type: 'bool', setting: 'externalConnections', negated: true },
    'plugin-config-path': { type: 'string', setting: 'pluginConfigPath' },
    'plugin-path': { type: 'string', setting: 'pluginPath' },
    'plugin-registration-timeout': { type: 'seconds', setting: 'registrationTimeoutMs' },
    'plugin-request-timeout': { type: 'seconds' },
    [ISULAD_REQUEST_TIMEOUT_KEY]: { type: 'seconds', setting: 'requestTimeoutMs' },
    'enable-cri-v1': { type: 'bool' },
    'nri-socket-path': { type: 'string' },
  },
  validatorKeys: {},
  unknownKeys: 'ignored, judged if NRI-like',
  underscoreSpellingIgnored: true,
  defaults: { ...NRI_DEFAULTS, enabled: false },
};

/** What NriSettings.socketPath holds when Docker opens no NRI socket (socket-path empty or unset). */
const DOCKER_NO_SOCKET = '(none)';

/**
 * Docker Engine's "nri-opts" in daemon.json (moby daemon/pkg/opts/nri_opts.go), decoded
 * strictly. An empty path keeps Docker's default, and an empty socket-path opens no
 * socket: docker.ts applies the values itself.
 */
export const DOCKER: RuntimeTable = {
  format: 'docker',
  name: 'dockerd',
  syntax: 'json',
  section: ['nri-opts'],
  label: '"nri-opts"',
  refuses: 'daemon.json',
  keys: {
    enable: { type: 'bool', setting: 'enabled' },
    'plugin-path': { type: 'string', setting: 'pluginPath' },
    'plugin-config-path': { type: 'string', setting: 'pluginConfigPath' },
    'socket-path': { type: 'string', setting: 'socketPath' },
  },
  validatorKeys: {},
  unknownKeys: 'refused',
  defaults: {
    ...NRI_DEFAULTS,
    enabled: false,
    socketPath: DOCKER_NO_SOCKET,
    pluginPath: '/usr/libexec/docker/nri-plugins',
    pluginConfigPath: '/etc/docker/nri/conf.d',
    externalConnections: false,
  },
};
