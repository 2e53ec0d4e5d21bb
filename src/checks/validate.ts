// `nrictl validate` below the command line: which directory, by which rules.
import { DEFAULT_PLUGIN_CONFIG_PATH } from './config-lookup.js';
import { DEFAULT_PLUGIN_PATH } from './defaults.js';
import type { RuntimeKind } from './finding.js';
import { checkPluginDir, type PluginDirReport } from './plugin-dir.js';
import { lintRuntimeConfig } from './runtime-config/index.js';

export interface ValidateOptions {
  /** The plugin directory; default: the runtime config's, else /opt/nri/plugins. */
  dir?: string | undefined;
  /** The plugins' configuration directory; default: the runtime config's, else /etc/nri/conf.d. */
  confDir?: string | undefined;
  /** Judge by this runtime's rules; default: the runtime config's. */
  runtime?: RuntimeKind | undefined;
  /** A containerd, CRI-O or iSulad config file to take the paths and the runtime from. */
  runtimeConfig?: string | undefined;
}

/** The plugin directory the runtime will read, judged by its rules. */
export function validatePluginDir(opts: ValidateOptions): PluginDirReport {
  let { dir, confDir, runtime } = opts;
  if (opts.runtimeConfig !== undefined) {
    const { settings } = lintRuntimeConfig(opts.runtimeConfig);
    dir ??= settings.pluginPath;
    confDir ??= settings.pluginConfigPath;
    runtime ??= settings.runtime;
  }
  return checkPluginDir(dir ?? DEFAULT_PLUGIN_PATH, { confDir: confDir ?? DEFAULT_PLUGIN_CONFIG_PATH, runtime });
}
