// After an update: a new connection and a second Synchronize, to see whether the
// runtime's own view of the container now shows the requested values.
import type { nri } from '../api/index.js';
import { fetchSyncState } from '../observe/sync-state.js';
import { verifyResources, type Verification } from './diff.js';

export type VerifyResult =
  | ({ kind: 'checked' } & Verification)
  | { kind: 'gone' }
  | { kind: 'unavailable'; error: Error };

export async function verifyUpdate(
  opts: { socketPath?: string | undefined; name: string; index: string },
  containerId: string,
  requested: nri.ILinuxResources,
): Promise<VerifyResult> {
  try {
    const state = await fetchSyncState(opts);
    const ctr = state.containers.find((c) => c.id === containerId);
    if (!ctr) return { kind: 'gone' };
    return { kind: 'checked', ...verifyResources(requested, ctr.linux?.resources) };
  } catch (err) {
    return { kind: 'unavailable', error: err as Error };
  }
}

/** After an eviction: is the container still listed, and in which state. */
export async function containerStillListed(
  opts: { socketPath?: string | undefined; name: string; index: string },
  containerId: string,
): Promise<nri.IContainer | undefined | Error> {
  try {
    const state = await fetchSyncState(opts);
    return state.containers.find((c) => c.id === containerId);
  } catch (err) {
    return err as Error;
  }
}
