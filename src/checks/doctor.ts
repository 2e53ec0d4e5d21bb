// `nrictl doctor` below the command line, the offline half: find the runtime's config,
// derive the paths it really uses, and run every offline check against them. The
// command adds the live half (connecting as a transient plugin) through
// connectionFindings and closes with doctorVerdict.
import { isAbsolute, join } from 'node:path';
import { pluginUpdatesUnsafe, type RuntimeIdentity } from '../api/runtime-identity.js';
import { checkConfDir, confDirMissing, type ConfDirReport } from './conf-dir.js';
import { DEFAULT_PLUGIN_CONFIG_PATH, DEFAULT_PLUGIN_PATH, DEFAULT_SOCKET_PATH } from './defaults.js';
import { CheckPathError, isMissing } from './errors.js';
import { countFindings, finding, sortFindings, type Finding, type RuntimeKind } from './finding.js';
import { deniedToUs, notCheckedFinding } from './permissions.js';
import { checkPluginDir, pluginDirMissing, type PluginDirReport } from './plugin-dir.js';
import { lintDocker } from './runtime-config/docker.js';
import {
  findDockerd,
  findRuntimeConfigs,
  lintRuntimeConfigs,
  type NriSettings,
  type RuntimeConfigReport,
} from './runtime-config/index.js';
import { checkSocket } from './socket.js';
import { plural } from '../units/index.js';

export interface DoctorOptions {
  /** The node's root directory (default '/'); paths named in configs are taken under it. */
  root?: string;
  /** Runtime config files to use instead of looking in the usual places under root. */
  runtimeConfigs?: string[];
  /** Judge by this runtime's rules instead of the config's. */
  runtime?: RuntimeKind;
  /** Check owners (default true, as the other checks do: stat tells any user the owner). */
  checkOwner?: boolean;
  /** Connect to this socket instead of the config's. */
  socketPath?: string;
  /** The socket is the embedded simulator's: nrictl made it, so its permissions say nothing about the node. */
  simulated?: boolean;
}

/** The paths the runtime uses: `node` as its config names them, `resolved` under root. */
export interface DoctorPaths {
  pluginPath: string;
  pluginConfigPath: string;
  socketPath: string;
}

export interface OfflineDiagnosis {
  root: string;
  runtimeConfigs: RuntimeConfigReport[];
  /** The config whose settings the node runs with; undefined: none found, defaults apply. */
  settingsFrom: string | undefined;
  settings: NriSettings;
  node: DoctorPaths;
  resolved: DoctorPaths;
  pluginDir: PluginDirReport | undefined;
  confDir: ConfDirReport | undefined;
  findings: Finding[];
  /** Whether a connection attempt can tell anything: the socket is there and is a socket. */
  canConnect: boolean;
}

const DEFAULT_SETTINGS: NriSettings = {
  runtime: 'containerd',
  enabled: undefined,
  socketPath: DEFAULT_SOCKET_PATH,
  pluginPath: DEFAULT_PLUGIN_PATH,
  pluginConfigPath: DEFAULT_PLUGIN_CONFIG_PATH,
  registrationTimeoutMs: 5000,
  requestTimeoutMs: 2000,
  externalConnections: true,
  invalid: {},
};

/** Runs the offline checks. Throws CheckPathError / UnknownConfigFormatError for an explicit config it cannot use. */
export function diagnoseNode(opts: DoctorOptions = {}): OfflineDiagnosis {
  const root = opts.root ?? '/';
  const checkOwner = opts.checkOwner ?? true;
  const dockerd = findDockerd(root);
  const findings: Finding[] = [];
  const add = (f: Finding) => findings.push(f);

  const files = opts.runtimeConfigs ?? findRuntimeConfigs(root);
  const runtimeConfigs = lintRuntimeConfigs(files, dockerd);
  // dockerd given --nri-opts and no daemon.json: its command line is its NRI configuration.
  if (dockerd && dockerd.nriOpts.length > 0 && !runtimeConfigs.some((r) => r.format === 'docker'))
    runtimeConfigs.push(lintDocker(`dockerd (pid ${dockerd.pid})`, '', dockerd));
  const chosen = chooseConfig(runtimeConfigs);
  const settings = chosen?.settings ?? { ...DEFAULT_SETTINGS, invalid: {} };
  for (const report of runtimeConfigs) {
    for (const f of report.findings) {
      // Lint warns that NRI is off, since a config file alone may be meant that way; on a
      // node whose runtime runs with this file, it means no plugin runs at all.
      add(report === chosen && f.code === 'nri-disabled' ? { ...f, severity: 'error' } : f);
    }
  }
  if (!chosen) {
    add(
      finding(
        'warning',
        root,
        'no-runtime-config',
        'no containerd, CRI-O, iSulad or Docker configuration found: assuming the default paths, and NRI may well be off',
        "pass the runtime's config with --runtime-config",
      ),
    );
  } else if (effectiveReports(runtimeConfigs).length > 1) {
    add(
      finding(
        'info',
        chosen.file,
        'several-runtime-configs',
        `configurations of several runtimes are present; judging the node by this one (${chosen.format}, NRI ${settings.enabled ? 'enabled' : 'not enabled'})`,
        'pass the one you mean with --runtime-config',
      ),
    );
  }
  const runtime = opts.runtime ?? (chosen ? settings.runtime : undefined);

  const node: DoctorPaths = {
    pluginPath: settings.pluginPath,
    pluginConfigPath: settings.pluginConfigPath,
    socketPath: opts.socketPath ?? settings.socketPath,
  };
  const under = (p: string) => (root === '/' || !isAbsolute(p) ? p : join(root, p));
  const resolved: DoctorPaths = {
    pluginPath: under(node.pluginPath),
    pluginConfigPath: under(node.pluginConfigPath),
    socketPath: opts.socketPath ?? under(node.socketPath),
  };

  const pluginDir = existingDir(
    resolved.pluginPath,
    'plugin-dir',
    add,
    () => checkPluginDir(resolved.pluginPath, { confDir: resolved.pluginConfigPath, runtime, checkOwner }),
    pluginDirMissing,
  );
  const confDir = existingDir(
    resolved.pluginConfigPath,
    'conf-dir',
    add,
    () => checkConfDir(resolved.pluginConfigPath, resolved.pluginPath, { runtime, checkOwner }),
    confDirMissing,
  );
  // Both checks report a configuration file that cannot be read (by the runtime, or by
  // us), one on the plugin, one on the file; the conf.d check names the file, which is
  // what needs fixing. Both say that the plugin directory is missing, too.
  const saidByConfDir = (f: Finding) =>
    confDir !== undefined &&
    (f.code === 'config-unreadable' || (f.code === 'not-checked' && f.path.startsWith(`${confDir.dir}/`)));
  if (pluginDir) for (const f of pluginDir.findings) if (!saidByConfDir(f)) add(f);
  if (confDir)
    for (const f of confDir.findings) if (!(pluginDir === undefined && f.code === 'plugin-dir-missing')) add(f);

  let canConnect = false;
  if (opts.simulated) {
    canConnect = true;
  } else if (!settings.externalConnections && opts.socketPath === undefined) {
    add(
      finding(
        'info',
        resolved.socketPath,
        'socket-not-expected',
        'external connections are disabled: the runtime opens no socket, so nrictl cannot connect to confirm it answers',
        settings.runtime === 'docker'
          ? 'set "socket-path" in nri-opts to use nrictl logs, sync dump and doctor'
          : "set the runtime's disable-connections option to false to use nrictl logs, sync dump and doctor",
      ),
    );
  } else {
    const socket = checkSocket(resolved.socketPath, { checkOwner: opts.socketPath === undefined ? true : checkOwner });
    for (const f of socket) add(f);
    canConnect = !socket.some((f) =>
      ['socket-missing', 'socket-unreadable', 'not-a-socket', 'not-checked', 'socket-path-too-long'].includes(f.code),
    );
  }

  return {
    root,
    runtimeConfigs,
    settingsFrom: chosen?.file,
    settings,
    node,
    resolved,
    pluginDir,
    confDir,
    findings,
    canConnect,
  };
}

// One report per runtime: CRI-O's last file carries its merged settings.
function effectiveReports(reports: RuntimeConfigReport[]): RuntimeConfigReport[] {
  const lastCrio = reports.filter((r) => r.format === 'crio').at(-1);
  return reports.filter((r) => r.format !== 'crio' || r === lastCrio);
}

// With several runtimes installed, the one with NRI on is the one plugins meet.
function chooseConfig(reports: RuntimeConfigReport[]): RuntimeConfigReport | undefined {
  const candidates = effectiveReports(reports);
  return (
    candidates.find((r) => r.settings.enabled === true) ??
    candidates.find((r) => r.settings.enabled === undefined) ??
    candidates[0]
  );
}

function existingDir<T>(
  dir: string,
  what: string,
  add: (f: Finding) => void,
  check: () => T,
  missing: (dir: string) => Finding,
): T | undefined {
  if (isMissing(dir)) {
    add(missing(dir));
    return undefined;
  }
  try {
    return check();
  } catch (err) {
    if (!(err instanceof CheckPathError)) throw err;
    if (deniedToUs(err.code)) {
      add(notCheckedFinding(dir, `the ${what === 'plugin-dir' ? 'plugins' : 'configuration files'} in it`, err.code!));
      return undefined;
    }
    add(
      finding(
        'error',
        dir,
        `${what}-unreadable`,
        `${err.message}: the runtime cannot read it either and fails plugin start-up`,
        `make ${dir} a directory root can read`,
      ),
    );
    return undefined;
  }
}

/** What connecting as a transient plugin showed. */
export type ConnectionOutcome =
  | {
      status: 'answered';
      socketPath: string;
      /** As the session names it: its own name and version, which runtime that is (kind, label), its NRI generation. */
      runtime: (RuntimeIdentity & { name: string; version: string; vintage: string }) | undefined;
      pods: number;
      containers: number;
    }
  | { status: 'failed'; socketPath: string; message: string }
  | { status: 'skipped'; socketPath: string };

export function connectionFindings(c: ConnectionOutcome): Finding[] {
  switch (c.status) {
    case 'answered': {
      const answers = finding(
        'info',
        c.socketPath,
        'runtime-answers',
        `${c.runtime ? `${c.runtime.label} (${c.runtime.vintage})` : 'the runtime'} registered a transient plugin and synchronized ${c.pods} pods and ${c.containers} containers`,
        'nothing to do',
      );
      const unsafe = c.runtime ? pluginUpdatesUnsafe(c.runtime) : undefined;
      if (!unsafe) return [answers];
      if (c.runtime?.kind === 'docker') {
        const fix = 'change resources with docker update; keep plugins that need UpdateContainers off Docker';
        const message = `${unsafe}; nrictl update and evict refuse to send them here`;
        return [answers, finding('info', c.socketPath, 'plugin-updates-not-implemented', message, fix)];
      }
      return [
        answers,
        finding(
          'info',
          c.socketPath,
          'plugin-updates-crash-runtime',
          `${unsafe}; nrictl update and evict refuse to send them here, and a plugin that calls UpdateContainers takes the daemon down`,
          'change resources with isula update or crictl update; keep plugins that send UpdateContainers off this node',
        ),
      ];
    }
    case 'failed':
      return [
        finding(
          'error',
          c.socketPath,
          'runtime-not-answering',
          c.message,
          'check that the runtime runs with NRI enabled and look at its log for the refusal',
        ),
      ];
    case 'skipped':
      return [];
  }
}

export type VerdictStatus = 'healthy' | 'warnings' | 'broken';

export interface Verdict {
  status: VerdictStatus;
  /** Why, in one line. */
  reason: string;
}

/** The closing line: the worst severity decides, and the first findings of it say why. */
export function doctorVerdict(findings: readonly Finding[], connection: ConnectionOutcome): Verdict {
  const c = countFindings(findings);
  const sorted = sortFindings([...findings]);
  const why = (severity: 'error' | 'warning', n: number) => {
    const first = sorted
      .filter((f) => f.severity === severity)
      .slice(0, 3)
      .map((f) => f.code);
    return `${plural(n, severity)}: ${first.join(', ')}${n > first.length ? ', ...' : ''}`;
  };
  if (c.error) return { status: 'broken', reason: why('error', c.error) };
  const answered =
    connection.status === 'answered'
      ? `the runtime answers on ${connection.socketPath} (${connection.pods} pods, ${connection.containers} containers)`
      : 'the runtime was not asked (no socket to connect to)';
  if (c.warning) return { status: 'warnings', reason: `${answered}; ${why('warning', c.warning)}` };
  return { status: 'healthy', reason: answered };
}
