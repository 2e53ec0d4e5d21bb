// The socket external plugins dial. By default a fresh 0700 directory with a 0600
// socket in it; for a given path we refuse directories others can write to, and remove
// an old socket only when nothing answers on it (the Go runtime removes it blindly,
// which would cut a running runtime off from its plugins).
import type { ErrorKind } from '../../errors/index.js';
import { rmSync } from 'node:fs';
import { chmod, lstat, mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { socketPathOverLimit, socketPathTooLongMessage } from '../../api/socket-path.js';

export class ListenError extends Error {
  override readonly name = 'ListenError';
  constructor(
    message: string,
    readonly socketPath: string,
    readonly reason: 'unsafe-dir' | 'in-use' | 'not-a-socket' | 'path-too-long' | 'listen',
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  get kind(): ErrorKind {
    return LISTEN_ERROR_KIND[this.reason];
  }
}

const LISTEN_ERROR_KIND: Record<ListenError['reason'], ErrorKind> = {
  'unsafe-dir': 'usage',
  'in-use': 'conflict',
  'not-a-socket': 'conflict',
  'path-too-long': 'usage',
  listen: 'failed',
};

export interface Listening {
  server: net.Server;
  socketPath: string;
  /** Set when we made the directory ourselves; removed again on close. */
  ownDir?: string;
  /** Removes the socket (and our directory) synchronously if the process ends before closeListener(). */
  removeAtExit: () => void;
}

/**
 * Listens on socketPath, or in a fresh 0700 directory of our own. `flag` is how messages
 * name the option that gave the path: the simulator's NRI socket is --socket, its CRI
 * socket --cri-socket.
 */
export async function listenForPlugins(
  socketPath: string | undefined,
  onConnection: (socket: net.Socket) => void,
  opts: { flag?: string } = {},
): Promise<Listening> {
  const flag = opts.flag ?? '--socket';
  let ownDir: string | undefined;
  if (socketPath === undefined) {
    ownDir = await mkdtemp(path.join(os.tmpdir(), 'nrisim-'));
    await chmod(ownDir, 0o700);
    socketPath = path.join(ownDir, 'nri.sock');
    // A long TMPDIR can make even our own path too long.
    if (socketPathOverLimit(socketPath) !== undefined) await rm(ownDir, { recursive: true, force: true });
    refuseTooLong(socketPath);
  } else {
    refuseTooLong(socketPath);
    await prepareGivenPath(socketPath, flag);
  }
  const server = net.createServer({ pauseOnConnect: false }, onConnection);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', (err) =>
        reject(new ListenError(`cannot listen on ${socketPath}: ${err.message}`, socketPath, 'listen', { cause: err })),
      );
      server.listen(socketPath, () => resolve());
    });
    await chmod(socketPath, 0o600);
  } catch (err) {
    // Nothing listens: the directory we made for it goes (a given path's directory is the caller's).
    server.close();
    if (ownDir) await rm(ownDir, { recursive: true, force: true });
    throw err;
  }
  // Whatever way the process ends (a second Ctrl-C, an exit in the middle of a write), the
  // socket and the directory we made go with it; only SIGKILL can leave them behind.
  const made = socketPath;
  const removeAtExit = (): void => {
    rmSync(made, { force: true });
    if (ownDir) rmSync(ownDir, { recursive: true, force: true });
  };
  process.once('exit', removeAtExit);
  return { server, socketPath, removeAtExit, ...(ownDir ? { ownDir } : {}) };
}

// Checked before anything is made or bound: Node would bind the cut-off path instead.
function refuseTooLong(socketPath: string): void {
  const bytes = socketPathOverLimit(socketPath);
  if (bytes !== undefined) {
    throw new ListenError(
      `refusing to listen: ${socketPathTooLongMessage(socketPath, bytes)}; pick a shorter path`,
      socketPath,
      'path-too-long',
    );
  }
}

async function prepareGivenPath(socketPath: string, flag: string): Promise<void> {
  const dir = path.dirname(socketPath);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const d = await stat(dir);
  if ((d.mode & 0o022) !== 0 && (d.mode & 0o1000) === 0) {
    throw new ListenError(
      `refusing to listen on ${socketPath}: its directory ${dir} is writable by group or others (mode ${(d.mode & 0o7777).toString(8)}); ` +
        `anyone could replace the socket. Use a 0700 directory or leave out ${flag}`,
      socketPath,
      'unsafe-dir',
    );
  }
  if ((d.mode & 0o022) !== 0) {
    // Sticky, world-writable (like /tmp): others cannot remove our socket, but could pre-create the name.
    throw new ListenError(
      `refusing to listen on ${socketPath}: ${dir} is shared with other users (mode ${(d.mode & 0o7777).toString(8)}); use a directory of your own or leave out ${flag}`,
      socketPath,
      'unsafe-dir',
    );
  }
  let existing;
  try {
    existing = await lstat(socketPath);
  } catch {
    return;
  }
  if (!existing.isSocket()) {
    throw new ListenError(
      `refusing to listen on ${socketPath}: a file that is not a socket is in the way; remove it or pick another path`,
      socketPath,
      'not-a-socket',
    );
  }
  if (await answers(socketPath)) {
    throw new ListenError(
      `${socketPath} is in use: something (a runtime or another simulator) answers on it; pick another ${flag}`,
      socketPath,
      'in-use',
    );
  }
  await rm(socketPath, { force: true });
}

function answers(socketPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect(socketPath);
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

export async function closeListener(l: Listening): Promise<void> {
  process.off('exit', l.removeAtExit);
  await new Promise<void>((resolve) => l.server.close(() => resolve()));
  await rm(l.socketPath, { force: true });
  if (l.ownDir) await rm(l.ownDir, { recursive: true, force: true });
}
