// The kernel's limit on a unix socket path. sockaddr_un.sun_path holds 108 bytes on
// Linux, the terminating NUL included; Node does not check it and silently cuts a longer
// path, so a listener binds (and a client dials) a different, cut-off path. Every place
// that binds or dials a path checks it first. And why a dial failed, which the plugin SDK
// and the CRI client each say in their own words.
//
// This file imports nothing of this project, so the flag parsers and checks may load it
// directly.
import { stat } from 'node:fs/promises';

/** Where NRI listens when a runtime's configuration says nothing (containerd, CRI-O and iSulad agree). The one place it is written. */
export const DEFAULT_SOCKET_PATH = '/var/run/nri/nri.sock';

/** The longest path, in bytes, a unix socket can be bound to or connected at. */
export const UNIX_SOCKET_PATH_MAX_BYTES = 107;

/** The path's length in bytes when it is too long for a unix socket, else undefined. */
export function socketPathOverLimit(socketPath: string): number | undefined {
  const bytes = Buffer.byteLength(socketPath);
  return bytes > UNIX_SOCKET_PATH_MAX_BYTES ? bytes : undefined;
}

/** "socket path /x/... is 134 bytes long; a unix socket path can have at most 107 bytes". */
export function socketPathTooLongMessage(socketPath: string, bytes: number): string {
  return `socket path ${socketPath} is ${bytes} bytes long; a unix socket path can have at most ${UNIX_SOCKET_PATH_MAX_BYTES} bytes`;
}

/**
 * What is at a path that could not be dialled, for the one line that says so: "socket",
 * "a regular file", "a directory" ...; undefined when nothing is there (or it cannot be
 * looked at). Linux answers a connect to a regular file or a fifo with ECONNREFUSED, as it
 * does a socket nobody listens on, so the error alone cannot tell them apart.
 */
async function socketFileKind(p: string): Promise<string | undefined> {
  try {
    const st = await stat(p);
    if (st.isSocket()) return 'socket';
    if (st.isFile()) return 'a regular file';
    if (st.isDirectory()) return 'a directory';
    if (st.isFIFO()) return 'a fifo';
    return 'a device or other special file';
  } catch {
    return undefined;
  }
}

/** Why a unix socket path could not be dialled. */
export type DialFailure =
  /** ENOENT, ENOTDIR: nothing is at the path. */
  | { reason: 'no-socket' }
  /** EACCES, EPERM: the caller may not open it. */
  | { reason: 'permission-denied' }
  /** ECONNREFUSED or ENOTSOCK at a path that holds something else; `holds` is what ("a regular file"). */
  | { reason: 'not-a-socket'; holds: string }
  /** ECONNREFUSED or ENOTSOCK at a socket nobody listens on (bound and left), or at a path that went meanwhile. */
  | { reason: 'refused' }
  /** Any other error: its own message is all there is to say. */
  | { reason: 'other' };

/**
 * Why dialling socketPath failed with err, for the caller to say in its own words. Where
 * the error cannot tell (ECONNREFUSED is also Linux's answer at a regular file or a fifo),
 * it looks at what the path holds.
 */
export async function dialFailure(socketPath: string, err: NodeJS.ErrnoException): Promise<DialFailure> {
  switch (err.code) {
    case 'ENOENT':
    case 'ENOTDIR':
      return { reason: 'no-socket' };
    case 'EACCES':
    case 'EPERM':
      return { reason: 'permission-denied' };
    case 'ENOTSOCK':
    case 'ECONNREFUSED': {
      const holds = await socketFileKind(socketPath);
      return holds !== 'socket' && holds !== undefined ? { reason: 'not-a-socket', holds } : { reason: 'refused' };
    }
    default:
      return { reason: 'other' };
  }
}
