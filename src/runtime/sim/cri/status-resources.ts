// ContainerStatus's resources where the runtime reports what the CRI request asked for
// rather than what runs (quirks.statusResourcesAsAsked): containerd copies them from the
// OCI spec as it stood before NRI adjusted a copy of it, iSulad from a host config NRI
// never touches. Plugins' CreateContainer adjustments then show in the OCI spec only.
import type { cri } from '../../../cri/index.js';
import type { CriRecord } from './objects.js';
import { criResources, nriResources } from './resources.js';

/** Replaces `status.resources` with the CRI request's, for a container made through CRI. */
export function showResourcesAsAsked(status: cri.IContainerStatus, rec: CriRecord | undefined): void {
  const asked = (rec?.config as cri.IContainerConfig | undefined)?.linux?.resources;
  if (!rec) return; // from the scenario: nothing was asked over CRI
  const linux = criResources(nriResources(asked), asked?.oomScoreAdj ?? undefined);
  if (linux) status.resources = { linux };
  else delete status.resources;
}
