// Who the plugin says it is when it registers: explicit options, else what a launching
// runtime put in the environment, else the executable's name ("10-logger"), as the Go stub does.
import path from 'node:path';
import { checkPluginIndex, NRI_SCHEMA_VERSION, parsePluginName } from '../api/index.js';
import { PLUGIN_IDX_ENV, PLUGIN_NAME_ENV } from './connect.js';

export interface PluginIdentity {
  name: string;
  index: string;
}

/** The NRI release whose schema this SDK speaks; sent at registration (older runtimes ignore it). */
export const SDK_NRI_VERSION = NRI_SCHEMA_VERSION;

/**
 * Throws PluginNameError when nothing names the plugin properly, before any connection
 * is made: the runtime would refuse the registration anyway.
 */
export function pluginIdentity(
  opts: { name?: string | undefined; index?: string | undefined },
  env: NodeJS.ProcessEnv = process.env,
  argv: readonly string[] = process.argv,
): PluginIdentity {
  let name = opts.name || env[PLUGIN_NAME_ENV] || '';
  let index = opts.index || env[PLUGIN_IDX_ENV] || '';
  if (index === '' || name === '') {
    const exe = executableName(argv);
    if (index !== '') name = exe;
    else {
      const parsed = parsePluginName(exe);
      index = parsed.index;
      name = name || parsed.name;
    }
  }
  checkPluginIndex(index);
  return { name, index };
}

// For `node 10-logger.js` the plugin's own name is the script, not node; a source
// extension is not part of a plugin name.
function executableName(argv: readonly string[]): string {
  const script = argv[1] ?? argv[0] ?? '';
  return path.basename(script).replace(/\.(?:[cm]?js|[cm]?ts)$/, '');
}
