// Reaching the runtime: dial its socket, or adopt the connection it handed us as an fd.
import net from 'node:net';
import { DEFAULT_SOCKET_PATH, dialFailure, socketPathOverLimit } from '../api/socket-path.js';
import { pluginErrors, type Endpoint } from './errors.js';

export { DEFAULT_SOCKET_PATH };
export const PLUGIN_SOCKET_ENV = 'NRI_PLUGIN_SOCKET';
export const PLUGIN_NAME_ENV = 'NRI_PLUGIN_NAME';
export const PLUGIN_IDX_ENV = 'NRI_PLUGIN_IDX';

export type ConnectTarget = { kind: 'path'; socketPath: string } | { kind: 'fd'; fd: number; raw: string };

/** An explicit path wins; else the fd a launching runtime passed; else the default socket. */
export function resolveTarget(socketPath: string | undefined, env: NodeJS.ProcessEnv = process.env): ConnectTarget {
  if (socketPath !== undefined && socketPath !== '') return { kind: 'path', socketPath };
  const raw = env[PLUGIN_SOCKET_ENV];
  if (raw !== undefined && raw !== '') return { kind: 'fd', fd: /^\d+$/.test(raw) ? Number(raw) : NaN, raw };
  return { kind: 'path', socketPath: DEFAULT_SOCKET_PATH };
}

/**
 * The path after `--socket` (or `--socket=PATH`) on a plugin's command line, else undefined:
 * how an external plugin is told where the runtime listens, while a plugin the runtime
 * launched (no such argument) falls through to the fd in NRI_PLUGIN_SOCKET. Opt-in, so
 * that a plugin with its own argument parsing is not second-guessed.
 */
export function socketPathFromArgs(argv: readonly string[] = process.argv.slice(2)): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') return undefined;
    if (a === '--socket') return argv[i + 1] || undefined;
    if (a.startsWith('--socket=')) return a.slice('--socket='.length) || undefined;
  }
  return undefined;
}

export function endpointOf(target: ConnectTarget): Endpoint {
  return target.kind === 'path'
    ? { socketPath: target.socketPath, label: target.socketPath }
    : { label: `fd ${target.raw} (${PLUGIN_SOCKET_ENV})` };
}

/** Resolves with a connected socket, or rejects with a PluginError of step 'connect'. */
export async function connectTo(target: ConnectTarget): Promise<net.Socket> {
  return target.kind === 'fd' ? adoptFd(target) : dial(target.socketPath);
}

function adoptFd(target: Extract<ConnectTarget, { kind: 'fd' }>): net.Socket {
  const at = endpointOf(target);
  if (!Number.isInteger(target.fd)) {
    throw pluginErrors.notASocket(
      at,
      `${PLUGIN_SOCKET_ENV}=${JSON.stringify(target.raw)} is not a file descriptor number`,
    );
  }
  try {
    return new net.Socket({ fd: target.fd, readable: true, writable: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    throw pluginErrors.notASocket(at, `the runtime did not pass a usable socket: ${code}`, err);
  }
}

function dial(socketPath: string): Promise<net.Socket> {
  const at: Endpoint = { socketPath, label: socketPath };
  // Node would dial the cut-off path, which may be another socket altogether.
  const bytes = socketPathOverLimit(socketPath);
  if (bytes !== undefined) return Promise.reject(pluginErrors.pathTooLong(at, bytes));
  return new Promise((resolve, reject) => {
    const sock = net.connect(socketPath);
    const onError = (err: NodeJS.ErrnoException) => {
      sock.destroy();
      classify(at, err).then(reject, reject);
    };
    sock.once('error', onError);
    sock.once('connect', () => {
      sock.off('error', onError);
      resolve(sock);
    });
  });
}

async function classify(at: Endpoint, err: NodeJS.ErrnoException): Promise<Error> {
  // The SDK says connect's own ENOTSOCK as such, without looking at what the path holds.
  if (err.code === 'ENOTSOCK') return pluginErrors.notASocket(at, 'connect said ENOTSOCK', err);
  const why = await dialFailure(at.socketPath!, err);
  switch (why.reason) {
    case 'no-socket':
      return pluginErrors.noSocket(at, err);
    case 'permission-denied':
      return pluginErrors.permissionDenied(at, err);
    case 'not-a-socket':
      return pluginErrors.notASocket(at, `it is ${why.holds}`, err);
    case 'refused':
      return pluginErrors.refused(at, err);
    case 'other':
      return pluginErrors.cannotConnect(at, err);
  }
}
