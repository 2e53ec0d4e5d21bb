// iSulad's own words for a plugin it does not start. iSulad's NRI is C++ of its own
// (src/daemon/nri, first in commit 343be112 of 2024-08, first tagged in v2.1.6; upstream
// v2.1.5 has none, openEuler's 2.1.5 packages carry it as patches), on the Rust ttrpc
// library libisula_nri. It checks a subscription as the Go adaptation does, against the
// eleven events of NRI v0.6 (nri_utils.h:49 LAST = 12, nri_result.h:34 ValidEvents), but
// logs the extra bits in decimal and, unlike Go v0.3-v0.6, skips the plugin and goes on.
// A call a plugin answers with an error does not fail the container operation either: the
// plugin is shut down and the rest go on.
import { PluginConnectionError } from '../adaptation/index.js';

const INVALID_EVENTS = /^invalid plugin events: 0x([0-9a-f]+)$/;

/**
 * The ERROR lines iSulad logs, in order and joined by "; ", for a subscription it refuses
 * or a Configure that failed (line numbers at v2.1.6):
 * - plugin.cc:241 `Invalid plugin events: %d` (the extra bits, an int32, in decimal);
 * - plugin.cc:227 `Failed to configure plugin %s`, when the Configure call itself failed;
 * - plugin.cc:91 `Failed to configure nri plugin %s` (the base name, without its index);
 * - nri_adaption.cc:888 `Failed to start plugin %s ready` for a pre-started plugin, or
 *   :187 `Failed to start plugin ready for conn fd %d` for an external one, which iSulad
 *   names at random (:176), not as it registered.
 * Anything else: undefined (nrictl's wording).
 */
export function isuladStartFailureText(
  plugin: { name: string; base: string; external: boolean },
  err: Error,
): string | undefined {
  if (!(err instanceof PluginConnectionError)) return undefined;
  const name = plugin.external ? '<random external name>' : plugin.base;
  const lines: string[] = [];
  const extra = INVALID_EVENTS.exec(err.message);
  if (err.reason === 'invalid-events' && extra) lines.push(`Invalid plugin events: ${parseInt(extra[1], 16) | 0}`);
  else if (err.reason === 'configure-failed') lines.push(`Failed to configure plugin ${name}`);
  else return undefined;
  lines.push(`Failed to configure nri plugin ${name}`);
  lines.push(
    plugin.external ? 'Failed to start plugin ready for conn fd <fd>' : `Failed to start plugin ${name} ready`,
  );
  return lines.join('; ');
}

/**
 * A plugin answered a relayed call with an error: iSulad logs it, shuts the plugin down
 * and goes on without it; the container operation succeeds (Go fails it). At d2434895 and
 * v2.1.6: nri_adaption.cc:375-378 (CreateContainer), :607-610 (UpdateContainer), :641-644
 * (StopContainer; the same "create container" text in all three), :811-814 (pod events and
 * post-events, StateChange). A call that times out or fails the connection is dropped by
 * the Go adaptation too.
 */
export function isuladDropOnErrorAnswer(
  plugin: { base: string; external: boolean },
  method: string,
  ids: { container?: string },
): Error {
  const name = plugin.external ? '<random external name>' : plugin.base;
  const log = ['CreateContainer', 'UpdateContainer', 'StopContainer'].includes(method)
    ? `Failed to call create container: ${ids.container ?? '<container id>'} to pliugin: ${name}`
    : `invalid (unset) event in state change notification: ${name}`;
  return new Error(`${log} (iSulad shuts down a plugin that answers ${method} with an error and goes on without it)`);
}
