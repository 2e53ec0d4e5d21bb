// What update and evict share once their own flags are checked: connect (or start the
// embedded simulator), find or pick the container, preview, confirm, send one
// UpdateContainers request, then look again on a new connection. The commands supply
// the request and their words; this module writes only through the callbacks given.
import { pluginUpdatesUnsafe, type nri } from '../api/index.js';
import { containerStateName } from '../render/index.js';
import { ControlError } from './errors.js';
import { canPrompt, confirmSend } from './prompts.js';
import { requestData } from './request.js';
import { containerLabel } from './resolve.js';
import { asCancelled, openTarget, type Target, type TargetOptions } from './target.js';
import type { Reconnect } from './verify.js';

/** What a command sends to the container it was given, and how it asks and reports. */
export interface ContainerRequest<R> {
  request: nri.IUpdateContainersRequest;
  /** The confirmation question on a terminal. */
  question: string;
  /** The error message when the runtime reports the request as failed (exit 7). */
  refusal: string;
  /** Once the runtime accepted the request: a second look, on a new connection. */
  afterwards: (connect: Reconnect) => Promise<R>;
}

export interface SendOptions<R> extends TargetOptions {
  dryRun: boolean;
  /** --yes: send without asking. Without a terminal it is required. */
  yes: boolean;
  /** --force: send even to a runtime known to crash on it (iSulad). */
  force: boolean;
  /** People's text (stderr when a data document owns stdout). */
  say: (text: string) => void;
  /** Set for -o json/yaml: writes a data document to stdout. */
  document: ((data: unknown) => void) | undefined;
  /** Shows the preview for the container found and returns what to send it. */
  prepare: (t: Target) => ContainerRequest<R>;
}

export interface Sent<R> {
  target: Target['target'];
  request: nri.IUpdateContainersRequest;
  after: R;
}

const NO_CONTAINER =
  'no container given, and no terminal to pick one on: name it as an id, an id prefix, pod/container or namespace/pod/container';
const NEEDS_YES =
  'no terminal to confirm on (stdin or stdout is not a terminal, or CI is set): add --yes to send without asking, or --dry-run to only look';

/** "Update shop/redis-0/redis (c2c3d4e5f6a7), running on containerd 2.0.0 (NRI v0.8)". */
export function targetHeading(verb: string, t: Target): string {
  const runtime = t.session.runtime;
  const on = runtime ? ` on ${runtime.label} (${runtime.vintage})` : '';
  return `${verb} ${containerLabel(t.target)}, ${containerStateName(t.target.container.state).toLowerCase()}${on}`;
}

/**
 * Runs the flow; resolves with what was sent and the second look, or undefined for a
 * dry run. Refuses before connecting when it could neither pick nor confirm.
 */
export async function sendToContainer<R>(opts: SendOptions<R>): Promise<Sent<R> | undefined> {
  const interactive = canPrompt();
  if (opts.query === undefined && !interactive) throw new ControlError('no-container', NO_CONTAINER);
  if (!interactive && !opts.yes && !opts.dryRun) throw new ControlError('needs-yes', NEEDS_YES);

  const t = await openTarget(opts);
  try {
    const { request, question, refusal, afterwards } = opts.prepare(t);
    const unsafe = t.session.runtime ? pluginUpdatesUnsafe(t.session.runtime) : undefined;
    if (unsafe && opts.dryRun) opts.say(`Warning: ${unsafe}; only --force would send it.\n`);
    else if (unsafe && !opts.force)
      throw new ControlError('unsafe-runtime', `not sent: ${unsafe} (--force sends it anyway)`);
    else if (unsafe) opts.say(`Warning: ${unsafe}; sending anyway (--force).\n`);
    if (opts.dryRun) {
      opts.document?.(requestData(request));
      opts.say('Dry run: nothing was sent.\n');
      return undefined;
    }
    if (!opts.yes && !(await confirmSend(question)))
      throw new ControlError('not-confirmed', 'not confirmed: nothing was sent');
    const failed = await t.session.send(request);
    await t.session.disconnect();
    if (failed.length > 0) throw new ControlError('refused', refusal);
    const after = await afterwards({
      target: { socketPath: t.session.socketPath },
      name: opts.name,
      index: opts.index,
      timeoutMs: opts.timeoutMs,
    });
    return { target: t.target, request, after };
  } catch (err) {
    throw asCancelled(err);
  } finally {
    await t.session.close();
  }
}
