import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_PLUGIN_CONFIG_PATH } from './defaults.js';
import { deniedToUs } from './permissions.js';

/** The runtime's default drop-in directory for plugin configuration. */
export { DEFAULT_PLUGIN_CONFIG_PATH };

/** Which configuration a launched plugin NN-name would receive, by each runtime's rules. */
export interface ConfigLookup {
  /** Files the Go adaptation tries, most specific first: NN-name.conf, then name.conf. */
  candidates: [string, string];
  /** The file the Go adaptation passes; undefined when neither exists (the plugin gets ""). */
  path?: string;
  /** A candidate that exists but cannot be read: the Go adaptation fails plugin discovery. */
  error?: { path: string; code: string };
  /** iSulad opens only NN-name.conf and does not start the plugin when that fails. */
  isulad: { path?: string; skipsPlugin: boolean };
}

export function lookupPluginConfig(confDir: string, index: string, name: string): ConfigLookup {
  const candidates: [string, string] = [join(confDir, `${index}-${name}.conf`), join(confDir, `${name}.conf`)];
  const result: ConfigLookup = { candidates, isulad: { skipsPlugin: true } };
  for (const path of candidates) {
    try {
      readFileSync(path);
      result.path = path;
      break;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? 'EIO';
      // Only "does not exist" moves on to the next candidate, as in the runtime.
      if (code !== 'ENOENT') {
        result.error = { path, code };
        break;
      }
    }
  }
  // Denied to us but not to root: whether iSulad can read it is not known here (the
  // caller reports the check as not made), so it is not said to skip the plugin.
  const readable = readableByOpenAndRead(candidates[0]);
  if (readable !== false) result.isulad = { path: candidates[0], skipsPlugin: false };
  return result;
}

function readableByOpenAndRead(path: string): boolean | 'denied-to-us' {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    readSync(fd, Buffer.alloc(1), 0, 1, 0);
    return true;
  } catch (err) {
    return deniedToUs((err as NodeJS.ErrnoException).code) ? 'denied-to-us' : false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
