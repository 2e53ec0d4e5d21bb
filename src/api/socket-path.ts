// The kernel's limit on a unix socket path. sockaddr_un.sun_path holds 108 bytes on
// Linux, the terminating NUL included; Node does not check it and silently cuts a longer
// path, so a listener binds (and a client dials) a different, cut-off path. Every place
// that binds or dials a path checks it first.
//
// This file imports nothing, so the flag parsers and checks may load it directly.

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
