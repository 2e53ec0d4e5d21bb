// The one error type the plugin SDK throws or emits. Each message is one line that
// names the socket (or inherited fd) and says what to do about it, so a command can
// print it as it is.

import type { ErrorKind } from '../errors/index.js';
import { lateAnswerConsequence } from '../api/runtime-identity.js';
import { socketPathTooLongMessage } from '../api/socket-path.js';
import type { LateHandler } from './handler-clock.js';

export type PluginStep = 'connect' | 'register' | 'configure' | 'synchronize' | 'update' | 'closed';

export type PluginErrorReason =
  | 'no-socket'
  | 'permission-denied'
  | 'not-a-socket'
  // The path is longer than a unix socket path can be; nothing was dialled.
  | 'path-too-long'
  | 'refused'
  | 'rejected'
  | 'timeout'
  | 'closed'
  | 'protocol'
  // The plugin handles no event the runtime can deliver; subscribing with 0 would mean "everything".
  | 'no-events';

/** Why the runtime closed the connection, where a handler tells: it answered later than the request timeout. */
export interface LateAnswer extends LateHandler {
  /** The runtime's request timeout: from its Configure, else the 2 s default. */
  requestTimeoutMs: number;
  /** Whether the runtime said it in Configure (NRI v0.7 and later do). */
  timeoutFromRuntime: boolean;
  /** The setting that bounds it, in words that say where (requestTimeoutSetting in src/api). */
  setting: string;
}

export class PluginError extends Error {
  override readonly name = 'PluginError';
  /** Set when the runtime closed the connection during, or right after, a handler that ran past its request timeout. */
  readonly late: LateAnswer | undefined;
  constructor(
    readonly step: PluginStep,
    readonly reason: PluginErrorReason,
    message: string,
    /** The socket dialled; undefined for a pre-connected fd from NRI_PLUGIN_SOCKET. */
    readonly socketPath?: string,
    options?: { cause?: unknown; late?: LateAnswer },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.late = options?.late;
  }

  get kind(): ErrorKind {
    return PLUGIN_ERROR_KIND[this.reason];
  }
}

const PLUGIN_ERROR_KIND: Record<PluginErrorReason, ErrorKind> = {
  'no-socket': 'connect',
  'permission-denied': 'connect',
  'not-a-socket': 'connect',
  'path-too-long': 'usage',
  refused: 'connect',
  rejected: 'registration',
  timeout: 'timeout',
  closed: 'runtime-gone',
  protocol: 'runtime-gone',
  'no-events': 'registration',
};

/** Where the plugin talks to the runtime, as messages name it. */
export interface Endpoint {
  socketPath?: string;
  /** "/var/run/nri/nri.sock" or "fd 3 (NRI_PLUGIN_SOCKET)". */
  label: string;
}

const seconds = (ms: number): string => (ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`);

export const pluginErrors = {
  noSocket: (at: Endpoint, cause?: unknown) =>
    new PluginError(
      'connect',
      'no-socket',
      `no NRI socket at ${at.label}: is NRI enabled in the runtime?`,
      at.socketPath,
      { cause },
    ),
  permissionDenied: (at: Endpoint, cause?: unknown) =>
    new PluginError(
      'connect',
      'permission-denied',
      `permission denied on ${at.label}: run as root or as the socket's owner`,
      at.socketPath,
      { cause },
    ),
  notASocket: (at: Endpoint, what: string, cause?: unknown) =>
    new PluginError(
      'connect',
      'not-a-socket',
      `${at.label} is not a socket (${what}): point --socket at the runtime's NRI socket`,
      at.socketPath,
      {
        cause,
      },
    ),
  pathTooLong: (at: Endpoint, bytes: number) =>
    new PluginError(
      'connect',
      'path-too-long',
      `${socketPathTooLongMessage(at.label, bytes)}: point --socket at a shorter path (a symlink to the directory will do)`,
      at.socketPath,
    ),
  refused: (at: Endpoint, cause?: unknown) =>
    new PluginError(
      'connect',
      'refused',
      `connection refused at ${at.label}: the runtime is not listening (stale socket?)`,
      at.socketPath,
      { cause },
    ),
  cannotConnect: (at: Endpoint, cause: Error) =>
    new PluginError('connect', 'refused', `cannot connect to ${at.label}: ${cause.message}`, at.socketPath, { cause }),
  rejected: (at: Endpoint, plugin: string, reason: string, cause?: unknown) =>
    new PluginError(
      'register',
      'rejected',
      `registration of plugin ${plugin} rejected by the runtime at ${at.label}: ${reason}`,
      at.socketPath,
      {
        cause,
      },
    ),
  timeout: (at: Endpoint, plugin: string, step: PluginStep, ms: number) =>
    new PluginError(
      step,
      'timeout',
      `registration of plugin ${plugin} not completed within ${seconds(ms)}: no ${waitingFor(step)} from the runtime at ${at.label}`,
      at.socketPath,
    ),
  updateTimeout: (at: Endpoint, plugin: string, ms: number, cause: unknown) =>
    new PluginError(
      'update',
      'timeout',
      `UpdateContainers of plugin ${plugin} got no answer from the runtime at ${at.label} within ${seconds(ms)}`,
      at.socketPath,
      { cause },
    ),
  /** We, not the runtime, ended the connection: what it sent does not follow the protocol. */
  malformed: (at: Endpoint, step: PluginStep, cause: Error) =>
    new PluginError(
      step,
      'protocol',
      `nrictl rejected a malformed message from ${at.label}${step === 'closed' ? '' : ` during ${step}`} and closed the connection: ${cause.message}`,
      at.socketPath,
      { cause },
    ),
  closed: (at: Endpoint, step: PluginStep, cause?: Error) =>
    new PluginError(
      step,
      'closed',
      step === 'closed'
        ? `runtime closed the connection (${at.label})${cause ? `: ${cause.message}` : ''}`
        : `runtime closed the connection during ${step} (${at.label})${cause ? `: ${cause.message}` : ''}: see the runtime's log for why it dropped the plugin`,
      at.socketPath,
      { cause },
    ),
  /**
   * The runtime closed the connection during, or right after, a handler that ran past its
   * request timeout: that is why (a runtime closes a plugin whose answer is late), where
   * the connection alone would say only "write EPIPE" or nothing.
   */
  closedLate: (at: Endpoint, step: PluginStep, late: LateAnswer, cause?: Error) =>
    new PluginError(
      step,
      'closed',
      `runtime closed the connection${step === 'closed' ? '' : ` during ${step}`} (${at.label})${cause ? `: ${cause.message}` : ''}: ${lateAnswerText(late)}`,
      at.socketPath,
      { cause, late },
    ),
  noEvents: (at: Endpoint, plugin: string, handled: string, runtime: string) =>
    new PluginError(
      'configure',
      'no-events',
      `plugin ${plugin} handles no event that ${runtime} at ${at.label} can deliver (handles: ${handled || 'none'}): add a handler for an older event`,
      at.socketPath,
    ),
};

/**
 * "the synchronize handler ran 2.50 s, and the runtime's request timeout is 2s: ...":
 * which handler, how long, the timeout and the setting that bounds it.
 */
function lateAnswerText(late: LateAnswer): string {
  const took = `${(late.ms / 1000).toFixed(2)} s`;
  const ran = late.running ? `had run ${took} without answering` : `ran ${took}`;
  const timeout = `${seconds(late.requestTimeoutMs)}${late.timeoutFromRuntime ? '' : " (NRI's default: this runtime does not say its own)"}`;
  return `the ${late.handler} handler ${ran}, and the runtime's request timeout is ${timeout}: ${lateAnswerConsequence(late.setting)}`;
}

function waitingFor(step: PluginStep): string {
  switch (step) {
    case 'register':
      return 'answer to RegisterPlugin';
    case 'configure':
      return 'Configure request';
    case 'synchronize':
      return 'final Synchronize request';
    default:
      return 'answer';
  }
}
