// The unix sockets bound to one path, from /proc/net/unix: the listening socket, and the
// accepted ends of the connections made to it. Checked on Linux 6.x: an accepted
// server-side socket inherits the listener's bound path, so it shows with that path, flags
// 0 and state 03 (SS_CONNECTED); the listening one shows flags 00010000 (__SO_ACCEPTCON)
// and state 01. The client's end is unbound and shows no path. Only the reader's network
// namespace is listed (a runtime in another one is not seen).
import { closeSync, openSync, readSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';

export interface BoundSockets {
  /** Inodes of listening sockets bound to the path. */
  listening: number[];
  /** Inodes of the accepted (connected) sockets bound to the path: one per client connected now. */
  accepted: number[];
}

const ACCEPTCON = 0x10000;
const SS_CONNECTED = '03';
/** A line of /proc/net/unix is at most ~150 bytes (the path is at most 108): longer is not a line of it. */
const MAX_LINE = 4096;
/** Bound on what is kept: more connections than this to one socket are counted no further. */
const MAX_MATCHES = 10_000;

/** Throws the read's error (ENOENT where there is no procfs). `isSocket`: whether a bound path is the socket's. */
export function boundSockets(isSocket: (path: string) => boolean, file = '/proc/net/unix'): BoundSockets {
  const out: BoundSockets = { listening: [], accepted: [] };
  forEachLine(file, (line) => {
    // Num RefCount Protocol Flags Type St Inode Path; the path is the rest of the line.
    const m = /^\s*\S+:\s+\S+\s+\S+\s+([0-9A-Fa-f]+)\s+\S+\s+([0-9A-Fa-f]{2})\s+(\d+)\s(.+)$/.exec(line);
    if (!m || !isSocket(m[4])) return;
    if (out.listening.length + out.accepted.length >= MAX_MATCHES) return;
    const inode = Number(m[3]);
    if (parseInt(m[1], 16) & ACCEPTCON) out.listening.push(inode);
    else if (m[2] === SS_CONNECTED) out.accepted.push(inode);
  });
  return out;
}

/** Reads in chunks, so a node with many sockets costs no more memory than one chunk and one line. */
function forEachLine(file: string, each: (line: string) => void): void {
  const fd = openSync(file, 'r');
  try {
    const chunk = Buffer.alloc(64 * 1024);
    const decoder = new StringDecoder('utf8');
    let carry = '';
    for (;;) {
      const n = readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      const lines = (carry + decoder.write(chunk.subarray(0, n))).split('\n');
      carry = lines.pop() ?? '';
      if (carry.length > MAX_LINE) carry = '';
      for (const l of lines) each(l);
    }
    if (carry) each(carry);
  } finally {
    closeSync(fd);
  }
}
