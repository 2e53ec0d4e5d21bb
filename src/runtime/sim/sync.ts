// Which containers a runtime hands a plugin in Synchronize, and how much of each.
//
// containerd and CRI-O hand over no container that exited or whose state they do not
// know: containerd's ListContainers (internal/cri/nri/nri_api_linux.go, and pkg/cri's
// before 2.0) skips CONTAINER_EXITED and CONTAINER_UNKNOWN; CRI-O's (server/nri-api.go)
// keeps created, running and paused ones. Their CRI lists those too, so a plugin that
// compares sees them only on one side (doctor says why).
//
// iSulad builds the Synchronize from its own CRI's lists, every container of them
// (NRIAdaptation::NewExternalPlugin, nri_adaption.cc, ListContainers with no filter), and
// fills each through ContainerToNRIByID (nri_convert.cc, at 177157ac), which sets the id,
// name, labels, annotations, args, env, mounts, linux, pid and pod id, and no state: every
// container reaches plugins as CONTAINER_UNKNOWN, without times or exit status.
import { nri } from '../../api/index.js';
import type { Container } from './state.js';

/**
 * The containers containerd and CRI-O synchronize: not exited, state known. A container
 * given with no state at all (a test's bare state) is taken as one a runtime knows.
 */
export function handedOverByGoRuntimes(c: Container): boolean {
  return c.state !== nri.ContainerState.CONTAINER_STOPPED && c.state !== nri.ContainerState.CONTAINER_UNKNOWN;
}

/** The containers as iSulad synchronizes them: without state, times or exit status. */
export function sparseSyncContainers(containers: Container[]): Container[] {
  for (const c of containers) {
    delete c.state;
    delete c.createdAt;
    delete c.startedAt;
    delete c.finishedAt;
    delete c.exitCode;
    delete c.statusReason;
    delete c.statusMessage;
  }
  return containers;
}
