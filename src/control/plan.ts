// What update and evict share: a plan. Planning connects (or starts the embedded
// simulator), finds the container (or lets the operator pick it on a terminal) and says
// what would be sent, to which container, on which runtime, and whether that runtime is
// one that crashes on it. The command shows the plan, has it confirmed, then sends it:
// send() sends the one UpdateContainers request and takes a second look on a new
// connection. Nothing here prints; the plan is data and the outcome is data.
import { pluginUpdatesUnsafe, type nri } from '../api/index.js';
import { containerStateName } from '../output/index.js';
import type { RuntimeInfo, SessionOptions } from '../session/index.js';
import { ControlError } from './errors.js';
import { confirmSend } from './prompts.js';
import { requestData } from './request.js';
import { containerLabel } from './resolve.js';
import { asCancelled, openTarget, type Target } from './target.js';
import type { Reconnect } from './verify.js';

export type ControlAction = 'update' | 'evict';

/** Where the container is and how to treat the operator. */
export interface ControlTarget extends SessionOptions {
  /** An id, a unique id prefix, pod/container or namespace/pod/container; undefined: pick on the terminal. */
  container: string | undefined;
  /** There is a terminal to pick and confirm on (the command line decides: both ends a TTY, no CI). */
  terminal: boolean;
  /** The operator is to confirm before anything is sent (not with --yes, nor for a dry run). */
  ask: boolean;
  /** Send even to a runtime known to crash on it (iSulad) or to refuse it (Docker). */
  force: boolean;
  /** Called once connecting is over, before the picker (a spinner stops here). */
  onConnected?: (() => void) | undefined;
}

/** The container a plan is for. */
export interface PlannedContainer {
  id: string;
  /** "namespace/pod/container". */
  name: string;
  /** "Running", "Created", ... */
  state: string;
}

const NO_CONTAINER =
  'no container given, and no terminal to pick one on: name it as an id, an id prefix, pod/container or namespace/pod/container';
const NEEDS_YES =
  'no terminal to confirm on (stdin or stdout is not a terminal, or CI is set): add --yes to send without asking, or --dry-run to only look';

/** Refuses before connecting what could neither be picked nor confirmed; then connects and finds the container. */
export async function openPlanTarget(target: ControlTarget, action: ControlAction): Promise<Target> {
  if (target.container === undefined && !target.terminal) throw new ControlError('no-container', NO_CONTAINER);
  if (target.ask && !target.terminal) throw new ControlError('needs-yes', NEEDS_YES);
  return openTarget({
    ...target,
    query: target.container,
    pickMessage: action === 'update' ? 'Container to update' : 'Container to evict',
  });
}

/** A request for one container, ready to be shown, confirmed and sent once. */
export abstract class ControlPlan<O> {
  abstract readonly action: ControlAction;
  readonly container: PlannedContainer;
  readonly runtime: RuntimeInfo | undefined;
  /** The request as it goes on the wire (protobuf JSON): what a dry run prints. */
  readonly requestData: unknown;
  /** Why this runtime must not be sent the request (iSulad crashes on it, Docker cannot apply it), or undefined. */
  readonly unsafe: string | undefined;
  readonly force: boolean;
  private state: 'planned' | 'sent' | 'closed' = 'planned';

  protected constructor(
    private readonly opened: Target,
    private readonly target: ControlTarget,
    readonly request: nri.IUpdateContainersRequest,
  ) {
    const { container, name } = opened.target;
    this.container = { id: container.id ?? '', name, state: containerStateName(container.state) };
    this.runtime = opened.session.runtime;
    this.requestData = requestData(request);
    this.unsafe = this.runtime ? pluginUpdatesUnsafe(this.runtime) : undefined;
    this.force = target.force;
  }

  /** False when send() would refuse: the runtime crashes on it and --force was not given. */
  get sendable(): boolean {
    return this.unsafe === undefined || this.force;
  }

  /** "shop/redis-0/redis (c2c3d4e5f6a7)", for messages. */
  protected get label(): string {
    return containerLabel(this.opened.target);
  }

  /** The question asked on the terminal. */
  protected abstract get question(): string;
  /** The error when the runtime reports the request as failed (exit 7). */
  protected abstract get refusal(): string;
  /** Once the runtime accepted the request: a second look, on a new connection. */
  protected abstract afterwards(connect: Reconnect): Promise<O>;

  /**
   * Asks the operator on the terminal, when the target says to and there is something to
   * send; resolves when sending may go ahead, rejects when it was declined or cancelled.
   */
  async confirm(): Promise<void> {
    if (!this.target.ask || !this.sendable) return;
    let yes: boolean;
    try {
      yes = await confirmSend(this.question, this.target.signal);
    } catch (err) {
      throw asCancelled(err);
    }
    if (!yes) throw new ControlError('not-confirmed', 'not confirmed: nothing was sent');
  }

  /** Sends the request, then looks again; the outcome is what that second look saw. Closes the plan. */
  async send(): Promise<O> {
    if (this.state !== 'planned') throw new Error(`this ${this.action} plan was already ${this.state}`);
    if (!this.sendable) throw new ControlError('unsafe-runtime', `not sent: ${this.unsafe} (--force sends it anyway)`);
    if (this.target.signal?.aborted) throw new ControlError('cancelled', 'cancelled: nothing was sent');
    this.state = 'sent';
    const { session } = this.opened;
    try {
      const failed = await session.send(this.request);
      await session.disconnect();
      if (failed.length > 0) throw new ControlError('refused', this.refusal);
      return await this.afterwards({
        target: { socketPath: session.socketPath },
        name: this.target.name,
        index: this.target.index,
        timeoutMs: this.target.timeoutMs,
      });
    } finally {
      await session.close();
    }
  }

  /** Leaves the runtime (and stops an embedded simulator) without sending. Safe to call after send(). */
  async close(): Promise<void> {
    if (this.state === 'planned') this.state = 'closed';
    await this.opened.session.close();
  }
}
