// What is at a CRI socket path, asked of the socket itself: whether it can be dialled at
// all (and if not, why, in one line), and, when a gRPC call failed in a way gRPC cannot
// explain, what the peer is. A CRI socket answers an HTTP/2 client preface with a SETTINGS
// frame; an NRI socket, an HTTP/1 server or a hung process do not.
import net from 'node:net';
import { dialFailure, socketPathOverLimit, socketPathTooLongMessage } from '../api/socket-path.js';
import { CriError } from './errors.js';

/** Dials the path once and hangs up: resolves when something listens there, else throws a CriError. */
export async function checkDialable(socketPath: string, timeoutMs: number): Promise<void> {
  const bytes = socketPathOverLimit(socketPath);
  if (bytes !== undefined)
    throw new CriError('path-too-long', `${socketPathTooLongMessage(socketPath, bytes)}: give a shorter path`, {
      socketPath,
    });
  const sock = await dial(socketPath, timeoutMs);
  sock.destroy();
}

function dial(socketPath: string, timeoutMs: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const sock = net.connect(socketPath);
    const timer = setTimeout(() => {
      sock.destroy();
      reject(
        new CriError(
          'no-answer',
          `${socketPath} did not accept a connection within ${timeoutMs}ms: the runtime is overloaded or hung`,
          { socketPath },
        ),
      );
    }, timeoutMs);
    sock.once('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      sock.destroy();
      dialError(socketPath, err).then(reject, reject);
    });
    sock.once('connect', () => {
      clearTimeout(timer);
      sock.removeAllListeners('error');
      resolve(sock);
    });
  });
}

const SOCKET_HINT = "give the runtime's CRI socket with --cri-socket";

async function dialError(socketPath: string, err: NodeJS.ErrnoException): Promise<CriError> {
  const details = { socketPath, cause: err };
  const why = await dialFailure(socketPath, err);
  switch (why.reason) {
    case 'no-socket':
      return new CriError(
        'no-socket',
        `no CRI socket at ${socketPath}: is the runtime running? (${SOCKET_HINT})`,
        details,
      );
    case 'permission-denied':
      return new CriError(
        'permission-denied',
        `permission denied on ${socketPath}: run as root or as the socket's owner`,
        details,
      );
    case 'not-a-socket':
      return new CriError(
        'not-a-socket',
        `${socketPath} is not a socket (it is ${why.holds}): ${SOCKET_HINT}`,
        details,
      );
    case 'refused':
      return new CriError(
        'connection-refused',
        `connection refused at ${socketPath}: no runtime listens there (a socket left by one that stopped?)`,
        details,
      );
    case 'other':
      return new CriError('connection-refused', `cannot connect to ${socketPath}: ${err.message}`, details);
  }
}

/** What answered an HTTP/2 client preface. */
export type Peer =
  /** A SETTINGS frame: an HTTP/2 server, as gRPC is. */
  | 'http2'
  /** "HTTP/1.x ...": a web server. */
  | 'http1'
  /** The connection was closed without a word (an NRI socket does that to bytes it cannot frame). */
  | 'closed'
  /** Bytes of something else. */
  | 'other'
  /** Nothing at all within the wait. */
  | 'silent';

// The client connection preface (RFC 9113 3.4), then an empty SETTINGS frame.
const PREFACE = Buffer.concat([
  Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1'),
  Buffer.from([0, 0, 0, 0x04, 0, 0, 0, 0, 0]),
]);
const SETTINGS = 0x04;

/** Says what is at the socket by how it answers an HTTP/2 preface within waitMs; dial errors throw as checkDialable's. */
export async function identifyPeer(socketPath: string, waitMs: number): Promise<Peer> {
  const sock = await dial(socketPath, waitMs);
  return new Promise<Peer>((resolve) => {
    let got = Buffer.alloc(0);
    const done = (peer: Peer): void => {
      clearTimeout(timer);
      sock.removeAllListeners();
      sock.on('error', () => {});
      sock.destroy();
      resolve(peer);
    };
    const timer = setTimeout(() => done(got.length > 0 ? judge(got) : 'silent'), waitMs);
    sock.on('data', (chunk: Buffer) => {
      got = Buffer.concat([got, chunk]);
      if (got.length >= 9) done(judge(got));
    });
    sock.once('end', () => done(got.length > 0 ? judge(got) : 'closed'));
    sock.once('close', () => done(got.length > 0 ? judge(got) : 'closed'));
    sock.once('error', () => done(got.length > 0 ? judge(got) : 'closed'));
    sock.write(PREFACE);
  });
}

function judge(bytes: Buffer): Peer {
  if (bytes.subarray(0, 5).toString('latin1') === 'HTTP/') return 'http1';
  if (bytes.length >= 9 && bytes[3] === SETTINGS) return 'http2';
  return 'other';
}
