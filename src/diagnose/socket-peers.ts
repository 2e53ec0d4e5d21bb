// Who is at the other end of a connected unix socket. /proc gives no peer for unix
// sockets (/proc/net/unix has no peer column, and /proc/PID/fd only maps a process's own
// sockets to inodes), so this asks ss (iproute2), which reads the peer's inode from the
// kernel's sock_diag netlink and, with -p, the processes holding each inode from
// /proc/PID/fd: only those of our own user unless we are root. ss is a tool of the node,
// not of nrictl: where it is missing or fails, the caller says so.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

export interface PeerProcess {
  pid: number;
  /** The process's command name as ss shows it (its comm: at most 15 characters). */
  command: string;
}

export interface SocketPeer {
  /** The peer socket's inode; undefined when ss does not list the socket (it closed meanwhile). */
  peerInode?: number | undefined;
  /** The processes holding the peer socket; empty when ss could not see them. */
  processes: PeerProcess[];
}

export type PeersAnswer = { peers: Map<number, SocketPeer> } | { cannot: string };

const SS_DEADLINE_MS = 2000;
/** ss -xpn prints one line (~150 bytes) per connected unix socket of the node. */
const SS_MAX_BYTES = 32 * 1024 * 1024;

interface SsLine {
  peerInode: number;
  processes: PeerProcess[];
}

/** The peers of these socket inodes; `cannot` when ss is missing, fails or does not answer in time. */
export async function socketPeers(inodes: readonly number[], signal?: AbortSignal): Promise<PeersAnswer> {
  let text: string;
  try {
    text = await runSs(signal);
  } catch (err) {
    return { cannot: ssFailure(err) };
  }
  const byInode = parseSs(text);
  const peers = new Map<number, SocketPeer>();
  for (const inode of inodes) {
    const line = byInode.get(inode);
    const peer = line ? byInode.get(line.peerInode) : undefined;
    peers.set(inode, { peerInode: line?.peerInode, processes: peer?.processes ?? [] });
  }
  return { peers };
}

async function runSs(signal?: AbortSignal): Promise<string> {
  const { stdout } = await execFileAsync('ss', ['-x', '-p', '-n'], {
    timeout: SS_DEADLINE_MS,
    maxBuffer: SS_MAX_BYTES,
    env: { ...process.env, LC_ALL: 'C' },
    encoding: 'utf8',
    ...(signal ? { signal } : {}),
  });
  return stdout;
}

function ssFailure(err: unknown): string {
  const e = err as NodeJS.ErrnoException & { killed?: boolean; stderr?: string };
  if (e.code === 'ENOENT') return 'ss (iproute2) is not installed';
  if (e.killed) return `ss did not answer within ${SS_DEADLINE_MS / 1000} s`;
  if (e.code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER') return `ss printed more than ${SS_MAX_BYTES >> 20} MiB`;
  const said = (typeof e.stderr === 'string' ? e.stderr : '').trim().split('\n')[0];
  return `ss failed${said ? `: ${said}` : e.code ? `: ${e.code}` : ''}`;
}

/**
 * `u_str ESTAB 0 0 /run/nri/nri.sock 1811424 * 1811423 users:(("node",pid=4424,fd=23))`:
 * netid, state, queues, local address and inode, peer address and inode, processes.
 */
function parseSs(text: string): Map<number, SsLine> {
  const out = new Map<number, SsLine>();
  for (const line of text.split('\n')) {
    const m = /^u_\S+\s+\S+\s+\d+\s+\d+\s+.*?\s(\d+)\s+\S+\s+(\d+)(?:\s+users:\((.*)\))?\s*$/.exec(line);
    if (!m) continue;
    const processes = [...(m[3] ?? '').matchAll(/\("((?:[^"\\]|\\.)*)",pid=(\d+),fd=\d+\)/g)].map((u): PeerProcess => ({
      pid: Number(u[2]),
      command: u[1],
    }));
    out.set(Number(m[1]), { peerInode: Number(m[2]), processes: uniqueByPid(processes) });
  }
  return out;
}

/** One process holding the socket on several descriptors is still one process. */
function uniqueByPid(list: PeerProcess[]): PeerProcess[] {
  return list.filter((p, i) => list.findIndex((q) => q.pid === p.pid) === i);
}
