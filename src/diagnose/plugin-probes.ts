// Which plugins run on a node whose runtime does not count them (no NRI metrics): probes
// of the node itself, each saying only what it saw.
// - Pre-started plugins: processes whose environment the runtime set, or, where that
//   cannot be read, whose command line runs a plugin file (prestarted.ts).
// - External plugins: the connections accepted on the runtime's NRI socket, counted from
//   /proc/net/unix (proc-unix.ts), and the process at the other end of each, named by ss
//   (socket-peers.ts). A connection's NRI name is known to the runtime alone: a plugin
//   registers its name inside the connection, and only the runtime's metrics tell it.
//   Transient tools (nrictl logs, trace, doctor) connect the same way and show up too.
import { realpathSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { ListedPlugin } from './listed-plugin.js';
import { prestartedPlugins, type PrestartedScan } from './prestarted.js';
import { boundSockets } from './proc-unix.js';
import { socketPeers, type PeerProcess } from './socket-peers.js';

export type { PeerProcess } from './socket-peers.js';

/** A client connected to the runtime's NRI socket now: an external plugin or a transient tool. */
export interface ExternalConnection {
  /** The inode of the runtime's end (the accepted socket). */
  inode: number;
  /** The processes at the other end, as ss names them; empty when it could not. */
  peers: PeerProcess[];
}

export interface ProbeReport {
  socketPath: string;
  /** Whether a socket listens at socketPath; undefined when /proc/net/unix could not be read. */
  listening: boolean | undefined;
  connections: ExternalConnection[];
  /** What the probes could not see, one sentence each. */
  limits: string[];
}

const isRoot = (): boolean => process.getuid?.() === 0;
const reason = (err: unknown): string => (err as NodeJS.ErrnoException).code ?? String(err);

/** `installed`: the plugin directory's NN-names. The rows it gives back replace the directory's. */
export async function probePlugins(
  socketPath: string,
  installed: readonly string[],
  pluginDir: string,
  signal?: AbortSignal,
  root = '/',
): Promise<{ plugins: ListedPlugin[]; probes: ProbeReport }> {
  const limits: string[] = [];
  // Processes and sockets are this machine's: a node's tree mounted elsewhere (--root) has none of its own.
  if (resolve(root) !== '/') {
    limits.push(
      `--root ${root}: the probes see this machine's processes and sockets, not that tree's: whether a plugin runs, and which connect, is not known`,
    );
    const rows = installed.map((name): ListedPlugin => ({
      name,
      state: 'installed',
      origin: 'plugin-dir',
      file: join(pluginDir, name),
    }));
    return { plugins: rows, probes: { socketPath, listening: undefined, connections: [], limits } };
  }
  const plugins = prestartedRows(installed, pluginDir, limits);
  const probes: ProbeReport = { socketPath, listening: undefined, connections: [], limits };
  if (socketPath === '') {
    limits.push('the runtime has no NRI socket configured: no external plugin can connect');
    return { plugins, probes };
  }
  let bound;
  try {
    bound = boundSockets(samePath(socketPath));
  } catch (err) {
    limits.push(`external plugins not looked for: /proc/net/unix: ${reason(err)}`);
    return { plugins, probes };
  }
  probes.listening = bound.listening.length > 0;
  if (!probes.listening)
    limits.push(
      `nothing listens on ${socketPath} in this network namespace: the runtime has NRI off or uses another socket (--socket), or runs in another namespace`,
    );
  probes.connections = bound.accepted.map((inode) => ({ inode, peers: [] }));
  if (!bound.accepted.length) return { plugins, probes };
  const answer = await socketPeers(bound.accepted, signal);
  if ('cannot' in answer) {
    limits.push(`${answer.cannot}: the processes at the other end of the connections are not named`);
    return { plugins, probes };
  }
  for (const c of probes.connections) c.peers = answer.peers.get(c.inode)?.processes ?? [];
  if (probes.connections.some((c) => !c.peers.length))
    limits.push(
      isRoot()
        ? 'a connection whose process is not named ended meanwhile, or its process is in another namespace'
        : "not root: ss names only this user's processes (it reads other users' /proc/PID/fd only as root)",
    );
  return { plugins, probes };
}

function prestartedRows(installed: readonly string[], pluginDir: string, limits: string[]): ListedPlugin[] {
  let scan: PrestartedScan;
  try {
    scan = prestartedPlugins();
  } catch (err) {
    limits.push(`pre-started plugins not looked for: /proc: ${reason(err)}`);
    return installed.map((name) => ({ name, state: 'installed', origin: 'plugin-dir', file: join(pluginDir, name) }));
  }
  if (scan.hidden)
    limits.push(
      "not root, and /proc hides other users' processes (hidepid): whether an installed plugin runs is not known",
    );
  else if (scan.unreadable)
    limits.push(
      `${isRoot() ? '' : 'not root: '}the environment of ${scan.unreadable} ${scan.unreadable === 1 ? 'process' : 'processes'} could not be read: a plugin among them is seen by its command line only, not known to be started by the runtime`,
    );
  const rows: ListedPlugin[] = installed.map((name) => ({
    name,
    state: scan.hidden ? 'installed' : 'not-running',
    origin: 'plugin-dir',
    file: join(pluginDir, name),
  }));
  const place = (name: string, fields: Partial<ListedPlugin>): void => {
    const row = rows.find((r) => r.name === name && !r.process);
    if (row) Object.assign(row, fields);
    else rows.push({ name, state: 'installed', origin: 'plugin-dir', ...fields });
  };
  for (const p of scan.processes) place(p.name, { state: 'running', process: { pid: p.pid, command: p.command } });
  // Its command line runs the file, but nothing says the runtime started it.
  for (const p of scan.byCommandLine)
    place(p.name, { state: 'installed', process: { pid: p.pid, command: p.command }, byCommandLine: true });
  return rows.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * Whether a path in /proc/net/unix is the socket's: the runtime binds the path as its
 * config spells it (/var/run/nri/nri.sock), which may go through a symlink (/var/run ->
 * /run), so the directories are compared resolved.
 */
function samePath(socketPath: string): (bound: string) => boolean {
  const base = basename(socketPath);
  const dirs = new Map<string, string>();
  const real = (dir: string): string => {
    let r = dirs.get(dir);
    if (r === undefined) {
      try {
        r = realpathSync(dir);
      } catch {
        r = resolve(dir);
      }
      dirs.set(dir, r);
    }
    return r;
  };
  const want = real(dirname(resolve(socketPath)));
  return (bound) => bound.startsWith('/') && basename(bound) === base && real(dirname(bound)) === want;
}
