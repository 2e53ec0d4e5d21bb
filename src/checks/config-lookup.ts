import { closeSync, constants, fstatSync, openSync, readSync, statSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_PLUGIN_CONFIG_PATH } from './defaults.js';
import { kindOf, type EntryKind } from './entry.js';
import { deniedToUs } from './permissions.js';

/** The runtime's default drop-in directory for plugin configuration. */
export { DEFAULT_PLUGIN_CONFIG_PATH };

/** Which configuration a launched plugin NN-name would receive, by each runtime's rules. */
export interface ConfigLookup {
  /** Files the Go adaptation tries, most specific first: NN-name.conf, then name.conf. */
  candidates: [string, string];
  /** The file the Go adaptation passes; undefined when neither exists (the plugin gets ""). */
  path?: string;
  /**
   * A candidate that exists but cannot be read: the Go adaptation fails plugin discovery.
   * `code` is the errno (EACCES, EISDIR), or 'not-a-regular-file' with `kind` for a FIFO,
   * socket or device, which the Go adaptation would block on or fail to read, and nrictl
   * never opens.
   */
  error?: { path: string; code: string; kind?: EntryKind };
  /** iSulad opens only NN-name.conf and does not start the plugin when that fails. */
  isulad: { path?: string; skipsPlugin: boolean };
}

export function lookupPluginConfig(confDir: string, index: string, name: string): ConfigLookup {
  const candidates: [string, string] = [join(confDir, `${index}-${name}.conf`), join(confDir, `${name}.conf`)];
  const result: ConfigLookup = { candidates, isulad: { skipsPlugin: true } };
  for (const path of candidates) {
    const seen = tryToRead(path);
    // Only "does not exist" moves on to the next candidate, as in the runtime.
    if (seen.code === 'ENOENT') continue;
    if (seen.code === undefined) result.path = path;
    else result.error = { path, code: seen.code, ...(seen.kind ? { kind: seen.kind } : {}) };
    break;
  }
  // Denied to us but not to root: whether iSulad can read it is not known here (the
  // caller reports the check as not made), so it is not said to skip the plugin.
  const first = tryToRead(candidates[0]);
  if (first.code === undefined || deniedToUs(first.code)) result.isulad = { path: candidates[0], skipsPlugin: false };
  return result;
}

/**
 * Whether the runtime could read the file, by opening it and reading a byte, without
 * ever blocking: a special file is judged by stat and not opened; the open is
 * non-blocking and checked again through the descriptor, should the path have become a
 * FIFO in between. code undefined: readable; 'ENOENT': absent (a dangling link too).
 */
function tryToRead(path: string): { code?: string; kind?: EntryKind } {
  const special = (st: Stats) =>
    !st.isFile() && !st.isDirectory() ? { code: 'not-a-regular-file', kind: kindOf(st) } : undefined;
  let fd: number | undefined;
  try {
    const notRegular = special(statSync(path));
    if (notRegular) return notRegular;
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
    const raced = special(fstatSync(fd));
    if (raced) return raced;
    readSync(fd, Buffer.alloc(1), 0, 1, 0);
    return {};
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'EIO';
    return { code };
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
