// Docker Engine's NRI settings (experimental NRI, Docker 29.2 and later): the "nri-opts"
// object of daemon.json, or dockerd's --nri-opts flag (moby daemon/pkg/opts/nri_opts.go).
// Docker decodes nri-opts strictly (DisallowUnknownFields), refuses the same directive
// given both as a flag and in the file, and with no socket-path opens no socket at all
// (WithDisabledExternalConnections, daemon/internal/nri/nri.go).
import { excerpt, excerptKey } from '../../units/index.js';
import { typeName } from './keys.js';
import { checkKeys, defaultSettings, parseDocument } from './reader.js';
import {
  Collector,
  isTable,
  markInvalid,
  summaryFinding,
  type NriSettings,
  type RuntimeConfigReport,
} from './schema.js';
import { DOCKER } from './tables.js';

type NriOptsKey = 'enable' | 'plugin-path' | 'plugin-config-path' | 'socket-path';

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
      return { values, problem: `unexpected key '${excerptKey(key)}' in '${excerpt(field)}'` };
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
  const settings = defaultSettings(DOCKER);
  const report = (): RuntimeConfigReport => ({ file, format: 'docker', settings, findings: out.findings });
  // No daemon.json (doctor found dockerd alone) is a file that says nothing.
  const doc = text.trim() === '' ? {} : parseDocument(text, DOCKER, out);
  if (!doc) return report();
  const fromFile = doc['nri-opts'];
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
          `write it as enable,socket-path=/var/run/nri/nri.sock (keys: ${Object.keys(DOCKER.keys).join(', ')})`,
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
  markInvalid(settings, invalid, DOCKER.keys);
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
  if (!isTable(value)) {
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
  const checked = checkKeys(value, DOCKER.keys, DOCKER.label, DOCKER, out);
  Object.assign(good, checked.values);
  Object.assign(invalid, checked.invalid);
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
