// After an update: a new connection and a second Synchronize, to see whether the
// runtime's own view of the container now shows the requested values.
import type { nri } from '../api/index.js';
import { fetchState, type SessionOptions } from '../session/index.js';
import { verifyResources, type Verification } from './diff.js';

export type VerifyResult =
  ({ kind: 'checked' } & Verification) | { kind: 'gone' } | { kind: 'unavailable'; error: Error };

/** How to reach the runtime again: the socket the first session used (the simulator's under --sim). */
export type Reconnect = Pick<SessionOptions, 'target' | 'name' | 'index' | 'timeoutMs'>;

export async function verifyUpdate(
  connect: Reconnect,
  containerId: string,
  requested: nri.ILinuxResources,
): Promise<VerifyResult> {
  try {
    const state = await fetchState(connect);
    const ctr = state.containers.find((c) => c.id === containerId);
    if (!ctr) return { kind: 'gone' };
    return { kind: 'checked', ...verifyResources(requested, ctr.linux?.resources) };
  } catch (err) {
    return { kind: 'unavailable', error: err as Error };
  }
}

/** After an eviction: is the container still listed, and in which state. */
export async function containerStillListed(
  connect: Reconnect,
  containerId: string,
): Promise<nri.IContainer | undefined | Error> {
  try {
    const state = await fetchState(connect);
    return state.containers.find((c) => c.id === containerId);
  } catch (err) {
    return err as Error;
  }
}
