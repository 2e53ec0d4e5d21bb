// What a Go NRI runtime (containerd/nri pkg/adaptation, embedded by containerd and
// CRI-O) does with its plugin directory on start, before launching anything.
import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import { parsePluginName } from '../../api/index.js';
import {
  CONFIG_SIZE_MAX,
  InputFileError,
  lookupPluginConfig,
  readInputFile,
  specialFileProblem,
} from '../../checks/index.js';
import { DiscoveryError } from './errors.js';

export interface DiscoveredPlugin {
  /** Two-digit invocation index, kept as the string the runtime sorts on. */
  index: string;
  name: string;
  /** The executable to launch. */
  path: string;
  /** Configuration text handed over in Configure, when a drop-in file exists. */
  config?: string;
  configPath?: string;
}

export interface Discovery {
  plugins: DiscoveredPlugin[];
}

/** Go compares names byte-wise, not by locale. */
const byBytes = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

function errnoCode(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException | undefined)?.code;
}

export async function discoverPlugins(pluginPath: string, pluginConfigPath?: string): Promise<Discovery> {
  let entries;
  try {
    // Like Go's os.ReadDir: entries come back sorted by name, which fixes the order of equal indices.
    entries = (await readdir(pluginPath, { withFileTypes: true })).sort((a, b) => byBytes(a.name, b.name));
  } catch (err) {
    // A missing plugin directory is not an error for the runtime: there is simply nothing to launch.
    if (errnoCode(err) === 'ENOENT') return { plugins: [] };
    throw new DiscoveryError(
      `failed to discover plugins in ${pluginPath}: ${(err as Error).message}`,
      pluginPath,
      pluginPath,
      'read-dir',
      { cause: err },
    );
  }

  const plugins: DiscoveredPlugin[] = [];
  for (const entry of entries) {
    // The runtime looks at the entry itself, never through a symlink: a symlink is not a
    // directory and its own mode (0777) has execute bits, so it is taken as a plugin.
    if (entry.isDirectory()) continue;
    const file = path.join(pluginPath, entry.name);
    let mode: number;
    try {
      mode = (await lstat(file)).mode;
    } catch {
      continue; // vanished between readdir and lstat: the runtime skips it too
    }
    if ((mode & 0o111) === 0) continue;

    let parsed: { index: string; name: string };
    try {
      parsed = parsePluginName(entry.name);
    } catch (err) {
      // One misnamed executable fails discovery as a whole: no pre-installed plugin starts.
      throw new DiscoveryError(
        `failed to discover plugins in ${pluginPath}: ${file}: ${(err as Error).message} ` +
          `(name pre-installed plugins NN-name, e.g. 10-${entry.name.replace(/^[0-9]*-?/, '') || 'plugin'}, or remove the execute bits)`,
        pluginPath,
        file,
        'bad-name',
        { cause: err },
      );
    }

    const plugin: DiscoveredPlugin = { index: parsed.index, name: parsed.name, path: file };
    if (pluginConfigPath !== undefined && pluginConfigPath !== '') {
      const found = await readPluginConfig(pluginPath, pluginConfigPath, parsed.index, parsed.name);
      if (found) {
        plugin.config = found.config;
        plugin.configPath = found.configPath;
      }
    }
    plugins.push(plugin);
  }

  // Invocation order is the index compared as a string; Array.prototype.sort is stable,
  // so equal indices keep the directory order.
  plugins.sort((a, b) => byBytes(a.index, b.index));
  return { plugins };
}

/**
 * The drop-in lookup (NN-name.conf, then name.conf; only "does not exist" moves on), by
 * the rules src/checks already implements for `nrictl lint`, so that the two agree. The
 * file is read as every input is (readInputFile): a FIFO, socket or device, where the Go
 * runtime would block or fail, fails discovery here with a message, and nothing larger
 * than one Configure request can carry is read.
 */
async function readPluginConfig(
  pluginPath: string,
  pluginConfigPath: string,
  index: string,
  name: string,
): Promise<{ config: string; configPath: string } | undefined> {
  const lookup = lookupPluginConfig(pluginConfigPath, index, name);
  const failed = (configPath: string, reason: string, cause?: unknown): DiscoveryError =>
    new DiscoveryError(
      `failed to discover plugins in ${pluginPath}: cannot read configuration ${configPath} of plugin ` +
        `"${index}-${name}": ${reason} (make it a readable regular file, or remove it)`,
      pluginPath,
      configPath,
      'read-config',
      { cause },
    );
  if (lookup.error) {
    const e = lookup.error;
    throw failed(e.path, e.kind ? `it ${specialFileProblem(e.kind)}` : e.code);
  }
  if (!lookup.path) return undefined;
  try {
    const config = readInputFile(lookup.path, { what: 'plugin configuration', maxBytes: CONFIG_SIZE_MAX });
    return Promise.resolve({ config, configPath: lookup.path });
  } catch (err) {
    throw failed(lookup.path, err instanceof InputFileError ? `it ${err.problem}` : (err as Error).message, err);
  }
}
