// What the simulator reports: one typed object per thing that happened, in the order it
// happened. Commands render these; `-o json` prints them through sim-event-data.ts.
import type { nri } from '../api/index.js';

interface Base {
  /** Milliseconds since the epoch. */
  time: number;
}

export type SimEvent = Base &
  /** A socket the simulator listens on: NRI's for plugins, or (api: 'cri') the CRI face's. */
  (
    | { type: 'listening'; socketPath: string; api?: 'cri' }
    | { type: 'launched'; plugin: string; path: string; pid: number | undefined }
    | { type: 'registered'; plugin: string; external: boolean; events: string; nriVersion?: string }
    | { type: 'synchronized'; plugin: string; pods: number; containers: number; messages: number; rttMs: number }
    | { type: 'dropped'; plugin: string; reason: string }
    /** A plugin that ended its connection between requests, its work done (a launched one exited with 0). */
    | { type: 'stopped'; plugin: string; reason: string }
    | {
        type: 'invoke';
        event: string;
        plugin: string;
        rttMs: number;
        pod?: string;
        container?: string;
        via?: 'StateChange';
      }
    | { type: 'adjusted'; plugin: string; container: string; adjust: nri.IContainerAdjustment }
    | {
        type: 'updated';
        plugin: string;
        container: string;
        update: nri.IContainerUpdate;
        source: UpdateSource;
        failed: boolean;
      }
    | {
        type: 'evicted';
        plugin: string;
        container: string;
        reason: string;
        /** Where the plugin asked: its UpdateContainers request, or its answer to CreateContainer / UpdateContainer. */
        via: 'UpdateContainers' | 'CreateContainer' | 'UpdateContainer';
        /** Always false: the Go adaptation drops every eviction (src/runtime/README.md). */
        applied: false;
      }
    | { type: 'rejected'; plugin: string; container: string; reason: string; message: string }
    /** What the runtime imitated silently leaves out of an answer (a preset's quirk), said out loud. */
    | { type: 'ignored'; plugin?: string; container: string; message: string }
    | { type: 'conflict'; container: string; field: string; key?: string; plugins: [string, string]; message: string }
    | { type: 'error'; plugin?: string; event?: string; container?: string; message: string }
    | { type: 'plugin-output'; plugin: string; stream: 'stdout' | 'stderr'; line: string }
    | { type: 'state-changed'; event: string; pod?: string; container?: string; state?: string }
  );

export type UpdateSource = 'synchronize' | 'create' | 'update' | 'stop' | 'unsolicited';
export type SimEventType = SimEvent['type'];

type Distribute<U> = U extends unknown ? Omit<U, 'time'> : never;
/** A SimEvent before it is stamped. */
export type SimEventInit = Distribute<SimEvent>;

export function stamp(e: SimEventInit): SimEvent {
  return { time: Date.now(), ...e };
}
