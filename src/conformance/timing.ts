// How long a check may hold a hook, watch, and wait. Every hold ends well under the
// runtime's request timeout: past it the runtime drops the plugin and carries on, which is
// how critest's 2 s Synchronize holds manufacture "lost containers" (nri-contract.md,
// the pitfall). Windows and waits are shorter against the simulator, whose calls take a
// millisecond, than on a node, whose calls start processes.

export type Pace = 'node' | 'sim';

export interface Timing {
  requestTimeoutMs: number;
  /** The hard release of every hold: half the request timeout, at most 1.5 s. */
  holdBoundMs: number;
  /** How long a check watches while a hook is held (that a call has not returned, ...). */
  windowMs: number;
  /** How long a call issued during a hold is given to reach the runtime before the hold ends. */
  settleMs: number;
  /**
   * How long an event that must come is waited for (a hook to be called, a canary to
   * arrive). On a node critest's 30 s: a RunPodSandbox reaches its hook only after the
   * pod's network is set up, which a loaded CNI can take seconds for.
   */
  eventWaitMs: number;
  /** How long a container that exits by itself is waited for. */
  exitWaitMs: number;
  /**
   * How long its StopContainer is waited for once CRI reports the exit: critest's 10 s
   * (spec 3). containerd relays it before its status says exited; iSulad never does,
   * and a minute's wait for it cost a run on iSulad as much as everything else together.
   */
  exitEventWaitMs: number;
  /** Each CRI call's deadline. */
  callMs: number;
  /**
   * How long what a refused call made may take to vanish from the node (a shim exits just
   * after the runtime shuts its sandbox down) before it counts as left; looked at again
   * every tenth of it.
   */
  nodeSettleMs: number;
}

export function timing(requestTimeoutMs: number, pace: Pace): Timing {
  const holdBoundMs = Math.max(50, Math.min(1500, Math.floor(requestTimeoutMs / 2)));
  // A window and a settle must both fit inside one hold, with room to release.
  const third = Math.floor(holdBoundMs / 3);
  return pace === 'node'
    ? {
        requestTimeoutMs,
        holdBoundMs,
        windowMs: Math.min(300, third),
        settleMs: Math.min(250, third),
        eventWaitMs: 30_000,
        exitWaitMs: 60_000,
        exitEventWaitMs: 10_000,
        callMs: 30_000,
        nodeSettleMs: 2_000,
      }
    : {
        requestTimeoutMs,
        holdBoundMs,
        windowMs: Math.min(30, third),
        settleMs: Math.min(40, third),
        eventWaitMs: 3_000,
        exitWaitMs: 1_000,
        exitEventWaitMs: 1_000,
        callMs: 5_000,
        nodeSettleMs: 50,
      };
}
