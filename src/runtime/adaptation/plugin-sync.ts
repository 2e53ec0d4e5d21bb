// How many pods and containers go into each Synchronize message. The Go runtime sends
// everything in one message and splits only when its ttrpc client refuses the request as
// oversized: it then scales both counts by max/rejected (at most 0.9) and retries, never
// below 8 objects per message (pkg/adaptation plugin.go, recalcObjsPerSyncMsg).
// `syncChunkSize` lets a test or a user force the split on a small state.

const MIN_OBJECTS_PER_SYNC_MESSAGE = 8;

export interface SyncChunk {
  pods: number;
  containers: number;
}

export function initialSyncChunk(podCount: number, containerCount: number, chunkSize?: number): SyncChunk {
  const total = podCount + containerCount;
  if (chunkSize === undefined || chunkSize <= 0 || chunkSize >= total)
    return { pods: podCount, containers: containerCount };
  // Keep the Go shape (every message carries a slice of both lists) with the same proportions.
  let pods = Math.round((chunkSize * podCount) / total);
  if (podCount > 0 && pods === 0) pods = 1;
  let containers = chunkSize - pods;
  if (containerCount > 0 && containers === 0) {
    containers = 1;
    pods = Math.max(podCount > 0 ? 1 : 0, chunkSize - 1);
  }
  return { pods: Math.min(pods, podCount), containers: Math.min(containers, containerCount) };
}

/** The next chunk after an oversize refusal, or undefined when the runtime gives up. */
export function shrinkSyncChunk(chunk: SyncChunk, rejectedLength: number, maxLength: number): SyncChunk | undefined {
  if (chunk.pods + chunk.containers <= MIN_OBJECTS_PER_SYNC_MESSAGE) return undefined;
  if (rejectedLength === 0 || maxLength === 0 || rejectedLength <= maxLength) return undefined;
  const factor = Math.min(maxLength / rejectedLength, 0.9);
  let pods = Math.trunc(chunk.pods * factor);
  let containers = Math.trunc(chunk.containers * factor);
  if (pods + containers < MIN_OBJECTS_PER_SYNC_MESSAGE) {
    pods = MIN_OBJECTS_PER_SYNC_MESSAGE / 2;
    containers = MIN_OBJECTS_PER_SYNC_MESSAGE / 2;
  }
  return { pods, containers };
}
