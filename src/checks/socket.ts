import { lstatSync, realpathSync, statSync, type Stats } from 'node:fs';
import { dirname } from 'node:path';
import { socketPathOverLimit, socketPathTooLongMessage, UNIX_SOCKET_PATH_MAX_BYTES } from '../api/socket-path.js';
import { DEFAULT_SOCKET_PATH } from './defaults.js';
import { modeString } from './entry.js';
import { finding, type Finding } from './finding.js';
import { deniedToUs, notCheckedFinding } from './permissions.js';

export interface SocketCheckOptions {
  /** Require root ownership (default true: the runtime creates it as root). */
  checkOwner?: boolean;
}

/** The codes that say someone besides the socket's owner can connect to it or replace it. */
const SOCKET_EXPOSURE_CODES: ReadonlySet<string> = new Set([
  'socket-writable-by-others',
  'socket-dir-writable-by-others',
  'socket-dir-owned-by-another-user',
]);

/**
 * Whoever can connect to the NRI socket can register as a plugin and adjust every
 * container the runtime creates, as root. It must exist, be a socket, belong to root,
 * and nobody else may be able to connect to it or to replace it.
 */
export function checkSocket(path: string = DEFAULT_SOCKET_PATH, opts: SocketCheckOptions = {}): Finding[] {
  const checkOwner = opts.checkOwner ?? true;
  const out: Finding[] = [];
  // The kernel takes at most 107 bytes: no client (nrictl, a plugin) can connect at a
  // longer path, whatever is there, so that is the one thing to say.
  const tooLong = socketPathOverLimit(path);
  if (tooLong !== undefined) {
    out.push(
      finding(
        'error',
        path,
        'socket-path-too-long',
        `${socketPathTooLongMessage(path, tooLong)}: no client can connect at it`,
        `give a path of at most ${UNIX_SOCKET_PATH_MAX_BYTES} bytes: a symlink to the socket's directory will do`,
      ),
    );
    return out;
  }
  let self: Stats;
  try {
    self = lstatSync(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') {
      out.push(
        finding(
          'error',
          path,
          'socket-missing',
          'no NRI socket: NRI is disabled, the runtime is not running, external connections are disabled, or it listens elsewhere',
          "enable NRI in the runtime's configuration, or pass the socket path it uses",
        ),
      );
    } else if (code && deniedToUs(code)) {
      out.push(notCheckedFinding(path, "the socket's owner and who can connect to it", code));
    } else {
      out.push(
        finding(
          'error',
          path,
          'socket-unreadable',
          `cannot look at the socket (${code ?? String(err)})`,
          'check the path and the permissions of its directories',
        ),
      );
    }
    return out;
  }
  let st = self;
  if (self.isSymbolicLink()) {
    try {
      st = statSync(path);
    } catch {
      out.push(
        finding(
          'error',
          path,
          'socket-missing',
          "a dangling symlink, not the runtime's socket",
          'remove the link; point clients at the real socket',
        ),
      );
      return out;
    }
  }
  if (!st.isSocket()) {
    out.push(
      finding(
        'error',
        path,
        'not-a-socket',
        'exists but is not a unix socket: the runtime cannot listen here and plugins cannot connect',
        `remove ${path} and restart the runtime`,
      ),
    );
    return out;
  }
  if (checkOwner && st.uid !== 0) {
    out.push(
      finding(
        'error',
        path,
        'socket-not-root-owned',
        `owned by uid ${st.uid}, not root: not the runtime's socket, or someone changed it`,
        `chown root:root ${path}`,
      ),
    );
  }
  out.push(...exposure(path, st, checkOwner));
  return out;
}

/**
 * Only what says that someone besides the owner can connect to the socket or replace it:
 * the rule every connecting command warns by. Nothing when the socket is missing or is
 * no socket (the connection's own error says so).
 */
export function socketExposureFindings(path: string): Finding[] {
  return checkSocket(path, { checkOwner: false }).filter((f) => SOCKET_EXPOSURE_CODES.has(f.code));
}

/**
 * Who may act on a path: "others" (any user), or the members of one group. A user who is
 * the owner of a directory on the way is reported by ownership instead. A user in several
 * of the groups met on the way is judged per group (nrictl does not read the group database).
 */
type Who = { kind: 'others' } | { kind: 'group'; gid: number };

/** "others" covers every group too: a group member has at least the others' rights. */
function names(list: Who[]): string {
  if (list.some((w) => w.kind === 'others')) return 'others';
  return list.map((w) => (w.kind === 'group' ? `group ${w.gid}` : 'others')).join(' and ');
}

/** The rwx bits that apply to `who` on a file: group bits for members of its group, else the others bits. */
function bitsFor(who: Who, st: Stats): number {
  return who.kind === 'group' && st.gid === who.gid ? (st.mode >> 3) & 7 : st.mode & 7;
}

const SEARCH = 1;
const WRITE = 2;
const S_ISVTX = 0o1000;

interface Dir {
  path: string;
  st: Stats;
  /** Directories above it, nearest first. */
  above: Dir[];
  /** Holds the socket itself (by its given path or through a symlink). */
  holdsSocket: boolean;
}

/**
 * Connecting needs write permission on the socket and search permission on every
 * directory on the way to it; replacing it needs write and search permission on a
 * directory on the way (and search on those above). The runtime's own 0755 socket in a
 * root-owned directory passes: nobody but root may write to it.
 */
function exposure(path: string, sock: Stats, checkOwner: boolean): Finding[] {
  const out: Finding[] = [];
  const dirs = directoriesOnTheWay(path);
  const groups = new Set<number>([sock.gid, ...dirs.map((d) => d.st.gid)]);
  const everyone: Who[] = [{ kind: 'others' }, ...[...groups].map((gid): Who => ({ kind: 'group', gid }))];
  const canSearchAll = (who: Who, list: Dir[]) => list.every((d) => (bitsFor(who, d.st) & SEARCH) !== 0);

  const mode = sock.mode & 0o777;
  const writers = everyone.filter((who) => (bitsFor(who, sock) & WRITE) !== 0);
  const connect = writers.filter((who) => canSearchAll(who, dirs));
  if (connect.length > 0) {
    out.push(
      finding(
        'error',
        path,
        'socket-writable-by-others',
        `mode ${modeString(mode)}: ${names(connect)} can reach and connect to it, register a plugin and adjust containers as root`,
        `chmod 0600 ${path}`,
      ),
    );
  } else if (writers.length > 0) {
    // Name the directory that stops them all, when one does.
    const guard = dirs.find((d) => writers.every((who) => (bitsFor(who, d.st) & SEARCH) === 0));
    out.push(
      finding(
        'info',
        path,
        'socket-mode-loose',
        `mode ${modeString(mode)} lets ${names(writers)} write to it, but they cannot reach it${guard ? ` (${guard.path} is ${modeString(guard.st.mode)})` : ''}: only root can connect today`,
        `chmod 0600 ${path}, so that it stays closed if a directory above is opened`,
      ),
    );
  }

  for (const d of dirs) {
    const mayChange = everyone.filter(
      (who) => (bitsFor(who, d.st) & (WRITE | SEARCH)) === (WRITE | SEARCH) && canSearchAll(who, d.above),
    );
    const sticky = (d.st.mode & S_ISVTX) !== 0;
    if (mayChange.length > 0 && !(sticky && !d.holdsSocket)) {
      // In a sticky directory (/tmp) others cannot remove the socket, but can take its
      // name while the runtime is down and answer the plugins that dial it.
      out.push(
        sticky
          ? finding(
              'warning',
              d.path,
              'socket-dir-writable-by-others',
              `the socket's directory is shared (mode ${modeString(d.st.mode)}): ${names(mayChange)} cannot remove the socket, but can take its name while the runtime is down`,
              `let the runtime listen in a directory of its own (0700, owned by root)`,
            )
          : finding(
              'error',
              d.path,
              'socket-dir-writable-by-others',
              `${d.holdsSocket ? "the socket's directory" : `a directory above ${path}`} is writable by ${names(mayChange)} (mode ${modeString(d.st.mode)}): they can replace the socket with their own`,
              `chmod go-w ${d.path}`,
            ),
      );
    }
    if (d.st.uid !== 0 && (checkOwner || d.st.uid !== sock.uid)) {
      out.push(
        finding(
          'error',
          d.path,
          checkOwner ? 'socket-dir-not-root-owned' : 'socket-dir-owned-by-another-user',
          `${d.holdsSocket ? "the socket's directory" : `a directory above ${path}`} is owned by uid ${d.st.uid}, not root${checkOwner ? '' : " nor the socket's owner"}: that user can replace the socket`,
          `chown root:root ${d.path}`,
        ),
      );
    }
  }
  return out;
}

/**
 * Every directory the kernel walks to reach the socket: those of the path as given and,
 * when a link is on the way, those of the path it resolves to. Nearest first.
 */
function directoriesOnTheWay(path: string): Dir[] {
  const byPath = new Map<string, Dir>();
  const walk = (start: string, holder: boolean): void => {
    const chain: Array<{ path: string; st: Stats }> = [];
    for (let current = start; ; current = dirname(current)) {
      try {
        chain.push({ path: current, st: statSync(current) });
      } catch {
        // Reached the socket, so each of these was searched; a failure here is a race.
      }
      if (dirname(current) === current) break;
    }
    chain.forEach((c, i) => {
      const known = byPath.get(c.path);
      if (known) {
        known.holdsSocket ||= holder && i === 0;
        return;
      }
      byPath.set(c.path, { ...c, above: [], holdsSocket: holder && i === 0 });
    });
    chain.forEach((c, i) => {
      const d = byPath.get(c.path)!;
      if (d.above.length === 0) d.above = chain.slice(i + 1).map((a) => byPath.get(a.path)!);
    });
  };
  walk(dirname(path), true);
  try {
    const real = dirname(realpathSync(path));
    if (real !== dirname(path)) walk(real, true);
  } catch {
    // checkSocket already stat'ed the socket through any links
  }
  return [...byPath.values()];
}
