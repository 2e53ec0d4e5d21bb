// Docker Engine's NRI settings (experimental NRI, Docker 29.2 and later): the "nri-opts"
// object of daemon.json, or dockerd's --nri-opts flag (moby daemon/pkg/opts/nri_opts.go).
// Docker decodes nri-opts strictly (DisallowUnknownFields), refuses the same directive
// given both as a flag and in the file, and with no socket-path opens no socket at all
// (WithDisabledExternalConnections, daemon/internal/nri/nri.go).
import { excerpt } from '../../units/index.js';
import { jsonErrorText } from './isulad.js';
import { nearestKey, typeName } from './keys.js';
import { Collector, markInvalid, summaryFinding, type NriSettings, type RuntimeConfigReport } from './schema.js';

const DOCKER_NRI_DEFAULTS = Object.freeze({
  pluginPath: '/usr/libexec/docker/nri-plugins',
  pluginConfigPath: '/etc/docker/nri/conf.d',
});

/** What NriSettings.socketPath holds when Docker opens no NRI socket (socket-path empty or unset). */
const NO_SOCKET = '(none)';

const NRI_OPTS_KEYS = ['enable', 'plugin-path', 'plugin-config-path', 'socket-path'] as const;
type NriOptsKey = (typeof NRI_OPTS_KEYS)[number];
const SETTING_OF = {
  enable: 'enabled',
  'plugin-path': 'pluginPath',
  'plugin-config-path': 'pluginConfigPath',
  'socket-path': 'socketPath',
} as const;

/** dockerd's command line, as doctor found it in /proc: the values of its --nri-opts flags. */
export interface DockerdCommandLine {
  pid: number;
  nriOpts: string[];
}

/** The values one --nri-opts flag gives: a CSV record of enable[=bool] and key=value (NamedNRIOpts.Set). */
function parseNriOptsFlag(value: string): { values: Partial<Record<NriOptsKey, unknown>>; problem?: string } {
  const values: Partial<Record<NriOptsKey, unknown>> = {};
  for (const field of value.split(',')) {
    const eq = field.indexOf('=');
    const key = (eq < 0 ? field : field.slice(0, eq)).trim();
    const v = eq < 0 ? undefined : field.slice(eq + 1);
    if (key === 'enable') {
      if (v === undefined) values.enable = true;
      else if (/^(1|t|T|TRUE|true|True)$/.test(v)) values.enable = true;
      else if (/^(0|f|F|FALSE|false|False)$/.test(v)) values.enable = false;
      else return { values, problem: `invalid value for NRI enable "${excerpt(v)}"` };
    } else if (key === 'plugin-path' || key === 'plugin-config-path' || key === 'socket-path') {
      values[key] = v ?? '';
    } else {
      return { values, problem: `unexpected key '${excerpt(key)}' in '${excerpt(field)}'` };
    }
  }
  return { values };
}

/**
 * Lints Docker's NRI settings: daemon.json's text (empty when there is none) and, when
 * doctor found dockerd running, its --nri-opts flags.
 */
export function lintDocker(file: string, text: string, dockerd?: DockerdCommandLine): RuntimeConfigReport {
  const out = new Collector(file);
  const settings: NriSettings = {
    runtime: 'docker',
    enabled: false,
    socketPath: NO_SOCKET,
    ...DOCKER_NRI_DEFAULTS,
    registrationTimeoutMs: 5000,
    requestTimeoutMs: 2000,
    externalConnections: false,
    invalid: {},
  };
  const report = (): RuntimeConfigReport => ({ file, format: 'docker', settings, findings: out.findings });
  let doc: unknown = {};
  if (text.trim() !== '') {
    try {
      doc = JSON.parse(text);
    } catch (err) {
      const why = jsonErrorText(text, err as Error);
      out.add('error', 'json-syntax', `not valid JSON (${why}): dockerd does not start`, 'fix the JSON syntax');
      return report();
    }
  }
  if (typeName(doc) !== 'table') {
    out.add('error', 'json-syntax', 'not a JSON object: dockerd does not start', 'make daemon.json one JSON object');
    return report();
  }
  const fromFile = (doc as Record<string, unknown>)['nri-opts'];
  const flags = dockerd?.nriOpts ?? [];
  if (fromFile !== undefined && flags.length > 0) {
    out.add(
      'error',
      'nri-opts-twice',
      `nri-opts is given both in daemon.json and on dockerd's command line (pid ${dockerd!.pid}, --nri-opts ${excerpt(flags.join(' '))}): dockerd refuses to start`,
      'keep one of the two',
    );
  }
  const good: Partial<Record<NriOptsKey, unknown>> = {};
  const invalid: Record<string, unknown> = {};
  if (flags.length > 0) {
    // Repeated flags are merged field by field.
    for (const flag of flags) {
      const parsed = parseNriOptsFlag(flag);
      Object.assign(good, parsed.values);
      if (parsed.problem)
        out.add(
          'error',
          'wrong-type',
          `dockerd --nri-opts ${excerpt(flag)}: ${parsed.problem}: dockerd refuses to start`,
          `write it as enable,socket-path=/var/run/nri/nri.sock (keys: ${NRI_OPTS_KEYS.join(', ')})`,
        );
    }
  } else if (fromFile !== undefined) {
    readFileOpts(fromFile, out, good, invalid);
  }
  if (good.enable !== undefined) settings.enabled = good.enable === true;
  if (typeof good['plugin-path'] === 'string' && good['plugin-path'] !== '') settings.pluginPath = good['plugin-path'];
  if (typeof good['plugin-config-path'] === 'string' && good['plugin-config-path'] !== '')
    settings.pluginConfigPath = good['plugin-config-path'];
  if (typeof good['socket-path'] === 'string' && good['socket-path'] !== '') {
    settings.socketPath = good['socket-path'];
    settings.externalConnections = true;
  }
  markInvalid(settings, invalid, SETTING_OF);
  conclusions(out, settings, fromFile !== undefined || flags.length > 0);
  summaryFinding(out, settings);
  return report();
}

function readFileOpts(
  value: unknown,
  out: Collector,
  good: Partial<Record<NriOptsKey, unknown>>,
  invalid: Record<string, unknown>,
): void {
  if (typeName(value) !== 'table') {
    const fix = 'write "nri-opts": {"enable": true, "socket-path": "/var/run/nri/nri.sock"}';
    out.add(
      'error',
      'wrong-type',
      `"nri-opts" is a ${typeName(value)}, not an object: dockerd refuses daemon.json`,
      fix,
    );
    invalid.enable = value;
    return;
  }
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    const shown = excerpt(key);
    if (!(NRI_OPTS_KEYS as readonly string[]).includes(key)) {
      const near = nearestKey(key, NRI_OPTS_KEYS);
      out.add(
        'error',
        'unknown-key',
        `"nri-opts": unknown key "${shown}"${near ? ` (did you mean "${near}"?)` : ''}: dockerd refuses unknown keys here and does not start`,
        near ? `rename "${shown}" to "${near}"` : `remove "${shown}"`,
      );
      continue;
    }
    const want = key === 'enable' ? 'boolean' : 'string';
    if (typeof v !== want) {
      out.add(
        'error',
        'wrong-type',
        `"nri-opts": "${shown}" is a ${typeName(v)}, not a ${want}: dockerd refuses daemon.json`,
        `write "${shown}" as ${want === 'boolean' ? 'true or false' : 'a quoted string'}`,
      );
      invalid[key] = v;
      continue;
    }
    good[key as NriOptsKey] = v;
  }
}

function conclusions(out: Collector, s: NriSettings, configured: boolean): void {
  if (s.invalid.enabled !== undefined) return;
  if (!s.enabled) {
    // A daemon.json without nri-opts is an ordinary Docker set-up, not a mistake.
    out.add(
      configured ? 'warning' : 'info',
      'nri-disabled',
      `${configured ? '"nri-opts" does not set "enable": true' : 'no "nri-opts"'}: Docker runs no NRI plugin (its NRI is off by default)`,
      'set "nri-opts": {"enable": true} and restart dockerd, if Docker is to run NRI plugins',
    );
    return;
  }
  if (!s.externalConnections) {
    out.add(
      'info',
      'external-connections-disabled',
      'no "socket-path" in nri-opts: Docker opens no NRI socket, so no external plugin (nor nrictl logs, trace or doctor) can connect; only plugins from the plugin directory run',
      'set "socket-path" (e.g. /var/run/nri/nri.sock) to allow external plugins',
    );
  } else {
    out.add(
      'info',
      'socket-mode-0777',
      `dockerd runs with umask 0 and creates ${s.socketPath} with mode 0777: anyone who can reach it can adjust containers as root`,
      'keep the socket in a directory only root can enter (dockerd creates a missing one 0700)',
    );
  }
}
