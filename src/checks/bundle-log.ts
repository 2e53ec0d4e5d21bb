// Where a plugin bundled by `nrictl plugin bundle` logs once the runtime starts it:
// runtimes own (and containerd discards) a pre-started plugin's stdout and stderr, so
// the SDK writes to the journal when this node has one, else to /var/log/nri/NAME.log.
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import {
  BUNDLE_LOG_MARK,
  BUNDLE_MARK,
  DEFAULT_JOURNAL_SOCKET,
  DEFAULT_PLUGIN_LOG_DIR,
  JOURNAL_SOCKET_ENV,
  LOG_FILE_MAX_BYTES,
  PLUGIN_LOG_DIR_ENV,
} from '../api/plugin-log.js';
import { finding, type Finding } from './finding.js';

/** The prelude is the file's first lines; this holds them with room to spare. */
const PRELUDE_BYTES = 1024;

/**
 * A note saying where the plugin in `file` (an entry of the plugin directory named
 * index-name) logs, when nrictl bundled it; undefined for any other file. `env` gives
 * the journal socket and log directory (NRI_PLUGIN_JOURNAL_SOCKET, NRI_PLUGIN_LOG_DIR).
 */
export function bundleLogFinding(
  file: string,
  entry: string,
  plugin: { index: string; name: string },
  env: NodeJS.ProcessEnv = process.env,
): Finding | undefined {
  const lines = preludeLines(file);
  if (lines[1]?.startsWith(BUNDLE_MARK) !== true) return undefined;
  if (!lines.some((l) => l.startsWith(BUNDLE_LOG_MARK))) {
    return finding(
      'warning',
      entry,
      'plugin-log-discarded',
      'bundled by an nrictl that logs to stdout and stderr only, which the runtime owns for a plugin it starts (containerd discards them)',
      `bundle it again with this nrictl (nrictl plugin bundle) so that it logs to the journal or ${DEFAULT_PLUGIN_LOG_DIR}`,
    );
  }
  const socket = env[JOURNAL_SOCKET_ENV] || DEFAULT_JOURNAL_SOCKET;
  const where = isSocket(socket)
    ? `to the journal (${socket}): journalctl -t ${plugin.index}-${plugin.name}`
    : `to ${env[PLUGIN_LOG_DIR_ENV] || DEFAULT_PLUGIN_LOG_DIR}/${plugin.name}.log (no journal at ${socket}; renamed to .log.1 past ${LOG_FILE_MAX_BYTES >> 20} MiB)`;
  return finding(
    'info',
    entry,
    'plugin-log',
    `an nrictl bundle: started by the runtime, it logs ${where}`,
    'nothing to fix; NRI_PLUGIN_LOG=stderr in its environment keeps it on stderr',
  );
}

function preludeLines(file: string): string[] {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const head = Buffer.alloc(PRELUDE_BYTES);
    const n = readSync(fd, head, 0, PRELUDE_BYTES, 0);
    return head.toString('utf8', 0, n).split('\n').slice(0, 6);
  } catch {
    return []; // unreadable: other checks say so
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function isSocket(p: string): boolean {
  try {
    return statSync(p).isSocket();
  } catch {
    return false;
  }
}
