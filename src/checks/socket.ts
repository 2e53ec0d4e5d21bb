import { lstatSync, statSync, type Stats } from 'node:fs';
import { dirname } from 'node:path';
import { DEFAULT_SOCKET_PATH } from './defaults.js';
import { modeString } from './entry.js';
import { finding, type Finding } from './finding.js';

export { DEFAULT_SOCKET_PATH };

export interface SocketCheckOptions {
  /** Require root ownership (default true: the runtime creates it as root). */
  checkOwner?: boolean;
}

/**
 * Whoever can connect to the NRI socket can register as a plugin and adjust every
 * container the runtime creates, as root. It must exist, be a socket, belong to root,
 * allow nobody but its owner, and sit in a directory only root can change.
 */
export function checkSocket(path: string = DEFAULT_SOCKET_PATH, opts: SocketCheckOptions = {}): Finding[] {
  const checkOwner = opts.checkOwner ?? true;
  const out: Finding[] = [];
  let self: Stats;
  try {
    self = lstatSync(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') {
      out.push(finding('error', path, 'socket-missing', 'no NRI socket: NRI is disabled, the runtime is not running, external connections are disabled, or it listens elsewhere', 'enable NRI in the runtime\'s configuration, or pass the socket path it uses'));
    } else {
      out.push(finding('error', path, 'socket-unreadable', `cannot look at the socket (${code ?? String(err)})`, 'run as root'));
    }
    return out;
  }
  let st = self;
  if (self.isSymbolicLink()) {
    try {
      st = statSync(path);
    } catch {
      out.push(finding('error', path, 'socket-missing', 'a dangling symlink, not the runtime\'s socket', 'remove the link; point clients at the real socket'));
      return out;
    }
  }
  if (!st.isSocket()) {
    out.push(finding('error', path, 'not-a-socket', 'exists but is not a unix socket: the runtime cannot listen here and plugins cannot connect', `remove ${path} and restart the runtime`));
    return out;
  }
  if (checkOwner && st.uid !== 0) {
    out.push(finding('error', path, 'socket-not-root-owned', `owned by uid ${st.uid}, not root: not the runtime's socket, or someone changed it`, `chown root:root ${path}`));
  }
  const mode = st.mode & 0o777;
  if (mode & 0o022) {
    out.push(finding('error', path, 'socket-writable-by-others', `mode ${modeString(mode)}: group or others can connect, register a plugin and adjust containers as root`, `chmod 0600 ${path}`));
  } else if (mode & ~0o600) {
    out.push(finding('warning', path, 'socket-too-permissive', `mode ${modeString(mode)} is looser than 0600`, `chmod 0600 ${path}`));
  }
  const dir = dirname(path);
  try {
    const d = statSync(dir);
    if (d.mode & 0o022) {
      // A sticky directory (/tmp) stops others from replacing the socket, not from crowding it.
      out.push(finding(d.mode & 0o1000 ? 'warning' : 'error', dir, 'socket-dir-writable-by-others', `the socket's directory is writable by group or others (mode ${modeString(d.mode)}): they can replace the socket with their own`, `chmod go-w ${dir}`));
    }
    if (checkOwner && d.uid !== 0) {
      out.push(finding('error', dir, 'socket-dir-not-root-owned', `the socket's directory is owned by uid ${d.uid}, not root`, `chown root:root ${dir}`));
    }
  } catch {
    // the socket exists, so its directory does; a failure here is a race we ignore
  }
  return out;
}
