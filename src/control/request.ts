// The UpdateContainers requests that update and evict send, and their data form for
// --dry-run -o json (the request's protobuf content, field names as protobufjs has them).
import { nri } from '../api/index.js';
import { toPlain } from '../output/index.js';

export function updateRequest(
  containerId: string,
  resources: nri.ILinuxResources,
  ignoreFailure: boolean,
): nri.IUpdateContainersRequest {
  const update: nri.IContainerUpdate = { containerId, linux: { resources } };
  if (ignoreFailure) update.ignoreFailure = true;
  return { update: [update], evict: [] };
}

export function evictionRequest(containerId: string, reason: string): nri.IUpdateContainersRequest {
  return { update: [], evict: [{ containerId, reason }] };
}

/** The request as JSON data: exactly what goes on the wire, Optional wrappers and all. */
export function requestData(req: nri.IUpdateContainersRequest): unknown {
  // A round trip through the encoding drops anything the schema does not carry.
  const wire = nri.UpdateContainersRequest.decode(nri.UpdateContainersRequest.encode(req).finish());
  return toPlain(wire, nri.UpdateContainersRequest);
}
