// `nrictl lint` below the command line: which paths to lint, by which rules. A directory
// is a plugin configuration directory; files are runtime configs; no path at all means
// this node: its runtime configs and the configuration directory they name.
import { readdirSync, statSync } from 'node:fs';
import { checkConfDir, confDirMissing, type ConfDirReport } from './conf-dir.js';
import { DEFAULT_PLUGIN_CONFIG_PATH, DEFAULT_PLUGIN_PATH } from './defaults.js';
import { isMissing, pathErrorFrom } from './errors.js';
import type { Finding, RuntimeKind } from './finding.js';
import { findRuntimeConfigs, lintRuntimeConfigs, type RuntimeConfigReport } from './runtime-config/index.js';
import { validatorFindings } from './runtime-config/validator.js';

export interface LintOptions {
  /** The plugin directory configuration files are checked against; default: the runtime config's, else /opt/nri/plugins. */
  pluginDir?: string | undefined;
  /** Judge the configuration directory by this runtime's rules; default: the runtime config's. */
  runtime?: RuntimeKind | undefined;
}

export interface LintReport {
  /** The configuration directory linted, if any. */
  confDir: ConfDirReport | undefined;
  /** Without a path, on a node that has no configuration directory: that note, not a fault (doctor agrees). */
  confDirMissing: Finding | undefined;
  runtimeConfigs: RuntimeConfigReport[];
  /** Every finding of the three, unsorted. */
  findings: Finding[];
}

/**
 * Lints `paths`: one directory (a conf.d), or runtime config files, or, with none, the
 * node's runtime configs and its conf.d. Throws CheckPathError for a path that does not
 * exist or cannot be read, UnknownConfigFormatError for a file that is no runtime config.
 */
export function lintPaths(paths: readonly string[], opts: LintOptions = {}): LintReport {
  let confDir: ConfDirReport | undefined;
  let missing: Finding | undefined;
  let runtimeConfigs: RuntimeConfigReport[] = [];
  if (paths.length === 1 && isDirectory(paths[0])) {
    confDir = checkConfDir(paths[0], opts.pluginDir ?? DEFAULT_PLUGIN_PATH, { runtime: opts.runtime });
  } else if (paths.length > 0) {
    runtimeConfigs = lintRuntimeConfigs([...paths]);
  } else {
    runtimeConfigs = lintRuntimeConfigs(findRuntimeConfigs());
    const settings = runtimeConfigs.at(-1)?.settings;
    const dir = settings?.pluginConfigPath ?? DEFAULT_PLUGIN_CONFIG_PATH;
    if (isMissing(dir)) missing = confDirMissing(dir);
    else if (isDirectory(dir))
      confDir = checkConfDir(dir, opts.pluginDir ?? settings?.pluginPath ?? DEFAULT_PLUGIN_PATH, {
        runtime: opts.runtime ?? settings?.runtime,
      });
  }
  for (const report of runtimeConfigs) {
    const v = report.settings.defaultValidator;
    if (!v) continue;
    const dir = opts.pluginDir ?? report.settings.pluginPath;
    const label = report.format === 'crio' ? '[crio.nri.default_validator]' : 'default_validator';
    report.findings.push(...validatorFindings(report.file, label, v, installedPlugins(dir), dir));
  }
  const findings = [
    ...(missing ? [missing] : []),
    ...(confDir?.findings ?? []),
    ...runtimeConfigs.flatMap((c) => c.findings),
  ];
  return { confDir, confDirMissing: missing, runtimeConfigs, findings };
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch (err) {
    throw pathErrorFrom(path, err);
  }
}

/** The entries of a plugin directory (none when it does not exist); undefined when it cannot be listed. */
function installedPlugins(dir: string): string[] | undefined {
  try {
    return readdirSync(dir);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? [] : undefined;
  }
}
