// Pre-started plugins: what the runtime does with each executable it discovered. It
// spawns the file with the runtime end of a unix socketpair as fd 3 and an environment
// of exactly NRI_PLUGIN_NAME, NRI_PLUGIN_IDX and NRI_PLUGIN_SOCKET=3 (nothing else: no
// PATH, no HOME, as exec.Cmd with an explicit Env), from the runtime's working directory;
// when it shows the plugin's output, also NRI_PLUGIN_LOG=stderr (see src/plugin/log.ts).
import type { ErrorKind } from '../../errors/index.js';
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Duplex } from 'node:stream';
import type { DiscoveredPlugin } from './adaptation-discover.js';

/** How long a launched plugin gets between SIGTERM and SIGKILL, and to exit by itself after it closed its connection. */
export const DEFAULT_KILL_GRACE_MS = 1000;

export interface LaunchedProcess {
  plugin: DiscoveredPlugin;
  child: ChildProcess;
  /** Our end of the socketpair. */
  socket: Duplex;
  /** Resolves once the process is gone. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Lines the plugin writes, so a user sees them (a real runtime discards them). */
  onOutput(fn: (stream: 'stdout' | 'stderr', line: string) => void): void;
}

export class LaunchError extends Error {
  override readonly name = 'LaunchError';
  readonly kind: ErrorKind = 'failed';
  constructor(
    message: string,
    readonly pluginPath: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export async function launchPlugin(
  plugin: DiscoveredPlugin,
  opts: { output?: 'capture' | 'discard' } = {},
): Promise<LaunchedProcess> {
  // Node makes stdio 'pipe' entries unix socketpairs: fd 3 in the child is one end,
  // child.stdio[3] the other, which is what the runtime's net.NewSocketPair gives it.
  const child = spawn(plugin.path, [], {
    stdio: opts.output === 'discard' ? ['ignore', 'ignore', 'ignore', 'pipe'] : ['ignore', 'pipe', 'pipe', 'pipe'],
    env: {
      NRI_PLUGIN_NAME: plugin.name,
      NRI_PLUGIN_IDX: plugin.index,
      NRI_PLUGIN_SOCKET: '3',
      // The simulator shows what a plugin writes (a real runtime discards it): an SDK
      // plugin is told to keep logging to stderr rather than to the journal or /var/log/nri.
      ...(opts.output === 'discard' ? {} : { NRI_PLUGIN_LOG: 'stderr' }),
    },
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('close', (code, signal) => resolve({ code, signal })),
  );
  await new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', (err) =>
      reject(
        new LaunchError(
          `failed to launch plugin "${plugin.index}-${plugin.name}" (${plugin.path}): ${err.message}`,
          plugin.path,
          { cause: err },
        ),
      ),
    );
  });
  const socket = child.stdio[3] as Duplex;
  const listeners: Array<(stream: 'stdout' | 'stderr', line: string) => void> = [];
  for (const stream of ['stdout', 'stderr'] as const) {
    const src = child[stream];
    if (!src) continue;
    createInterface({ input: src, crlfDelay: Infinity }).on('line', (line) => {
      for (const fn of listeners) fn(stream, line);
    });
  }
  return { plugin, child, socket, exited, onOutput: (fn) => listeners.push(fn) };
}

/**
 * Stops a launched plugin. The Go runtime sends no Shutdown and simply kills the process
 * (SIGKILL) after closing its connection; we close the connection and give the process
 * a short grace period after SIGTERM first, so a plugin can flush its own logs.
 */
export async function stopPlugin(p: LaunchedProcess, graceMs = DEFAULT_KILL_GRACE_MS): Promise<void> {
  if (p.child.exitCode !== null || p.child.signalCode !== null) return;
  p.child.kill('SIGTERM');
  const timer = setTimeout(() => p.child.kill('SIGKILL'), graceMs);
  await p.exited;
  clearTimeout(timer);
}
