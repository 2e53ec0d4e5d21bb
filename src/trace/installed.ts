// Where the installed plugins are, and the request timeout, as far as the node says:
// the plugin directory as `validate` reads it and the runtime's configuration as
// `doctor` finds it (src/checks). External plugins are not in any file: --index names them.
import { diagnoseNode, listDiscoverable } from '../checks/index.js';
import type { InstalledPlugin } from './placement.js';

export interface NodeFacts {
  pluginPath: string;
  plugins: InstalledPlugin[];
  /** The runtime config's request timeout; undefined when no config was found. */
  configTimeout: { ms: number; from: string } | undefined;
}

/** With pluginDir given the runtime config is not read (the runtime's Configure request or --request-timeout tell the timeout). */
export function readNodeFacts(opts: { pluginDir?: string | undefined; root?: string } = {}): NodeFacts {
  if (opts.pluginDir !== undefined) {
    return { pluginPath: opts.pluginDir, plugins: fromDir(opts.pluginDir), configTimeout: undefined };
  }
  const d = diagnoseNode({ root: opts.root ?? '/', checkOwner: false });
  const pluginPath = d.resolved.pluginPath;
  return {
    pluginPath,
    plugins: fromDir(pluginPath),
    // An invalid value in the file (null) leaves the runtime's Configure request or the default to tell.
    configTimeout:
      d.settingsFrom && d.settings.requestTimeoutMs !== null
        ? { ms: d.settings.requestTimeoutMs, from: d.settingsFrom }
        : undefined,
  };
}

function fromDir(dir: string): InstalledPlugin[] {
  return listDiscoverable(dir).map((p): InstalledPlugin => ({ index: p.index, name: p.name, source: 'plugin-dir' }));
}

/** Merges sources, one entry per index+name. */
export function mergeInstalled(...lists: InstalledPlugin[][]): InstalledPlugin[] {
  const seen = new Map<string, InstalledPlugin>();
  for (const list of lists) {
    for (const p of list) {
      const known = [...seen.values()].some((q) => q.index === p.index && q.name !== undefined);
      if (p.name === undefined && known) continue;
      seen.set(`${p.index}-${p.name ?? '?'}`, p);
    }
  }
  return [...seen.values()];
}
