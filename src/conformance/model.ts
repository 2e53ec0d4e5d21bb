// The contract's terms: the test plugins a check registers and their reactions, what they
// saw, what a check requires of the runtime, and the verdicts a run gives back. What a
// check itself is (its steps act on a CheckRun) is in check.ts.
import type { nri } from '../api/index.js';
import type { EventName } from '../api/event-names.js';
import type { CrashingCall } from './crashing.js';

/** The NRI events a test plugin can see, Synchronize included, by their method names (validation is not its business). */
export type NriEventName = 'Synchronize' | Exclude<EventName, 'Unknown' | 'ValidateContainerAdjustment'>;

/** One event a test plugin received, in the order the check's plugins received them all. */
export interface Seen {
  /** Strictly increasing across every plugin of one check: the order of arrival. */
  seq: number;
  /** The plugin's index ("00"). */
  plugin: string;
  event: NriEventName;
  podId: string;
  podName: string;
  podNamespace: string;
  podUid: string;
  containerId?: string;
  containerName?: string;
  /** The container as the event carried it (CreateContainer: before any adjustment). */
  container?: nri.IContainer;
  /** UpdateContainer and UpdatePodSandbox: the resources asked for; UpdatePodSandbox also the overhead. */
  resources?: nri.ILinuxResources | null;
  overhead?: nri.ILinuxResources | null;
  /** Synchronize: the run's own pods and containers in it (the node's others are not kept). */
  syncPodIds?: string[];
  syncContainerIds?: string[];
  syncPods?: nri.IPodSandbox[];
}

/** What a test plugin does when an event it has a rule for arrives. */
export type Reaction =
  /** Hold the answer until the check releases it; a hard timer releases it well under the runtime's request timeout. */
  | { block: true }
  /** Answer with an error carrying this text. */
  | { fail: string }
  /** CreateContainer: answer with this adjustment. */
  | { adjust: nri.IContainerAdjustment };

export interface Rule {
  on: NriEventName;
  /** Only for this pod (alias): its events are recognised by the pod's name or uid, known before its id is. */
  pod?: string;
  /** Only for this container (alias), by the container's name. */
  container?: string;
  /** 'once' (the default): the first matching event only, so that cleanup's calls pass. */
  times?: 'once' | 'always';
  react: Reaction;
}

export interface PluginSpec {
  /** Two digits; the order the runtime must call the check's plugins in. */
  index: string;
  rules?: Rule[];
  /**
   * When it registers: 'start' (before the steps, in the order of the check's list: a
   * higher index may register first) or 'step' (a connect step registers it later).
   */
  joins?: 'start' | 'step';
}

/** Where nri-contract.md says a runtime is known to fail this, and who tracks it. */
export interface KnownGap {
  /** "containerd#13599". */
  ref: string;
  /** Lower-case runtime names (CRI Version's) it is known of; absent: any runtime. */
  runtimes?: readonly string[];
  /** Only runtime versions before this one ("1.7.26"). */
  before?: string;
  note: string;
}

export type Requirement =
  /** The runtime's NRI must deliver these events (the test plugin's accepted subscription says). */
  | { events: NriEventName[] }
  /** The runtime's CRI must have this call (probed once: Unimplemented means it has not). */
  | { criCall: 'UpdatePodSandboxResources' }
  /** The check sends this call, which is known to crash some runtimes (crashing.ts): not sent to them unless included. */
  | { survives: CrashingCall };

export type VerdictStatus = 'pass' | 'fail' | 'skip' | 'error';

/** Where a check's time went: CRI calls, waiting for NRI (registration, events), deliberate waits (holds, windows). */
export interface TimeSplit {
  criMs: number;
  nriMs: number;
  waitMs: number;
}

export interface CheckVerdict {
  name: string;
  critest?: number;
  clause: string;
  status: VerdictStatus;
  /** fail: "expected X, saw Y"; skip: why it did not apply; error: why it could not be judged. */
  reason?: string;
  /** A failure nri-contract.md knows this runtime for (critest reports it as a SKIP). */
  known?: { ref: string; note: string };
  /** What was tolerated or not checked, one line each. */
  notes: string[];
  durationMs: number;
  split: TimeSplit;
}

/**
 * Something the run made and could not remove, with the command that removes it: a pod
 * or container CRI still lists, or (`node`) what the node still runs of one of the run's
 * ids that CRI no longer lists: its shim, pause process, cgroups (`name` says which).
 */
export interface Leftover {
  kind: 'pod' | 'container' | 'node';
  id: string;
  name: string;
  command: string;
}

/** The look beyond CRI's listings: what it could not see, or why it could not look at all. */
export type NodeLookSummary = { checked: true; limits: string[] } | { checked: false; why: string };

export interface TargetInfo {
  /** "containerd v2.3.4", from CRI Version. */
  runtime: string;
  runtimeName: string;
  runtimeVersion: string;
  criSocket: string;
  nriSocket: string;
  /** "NRI v0.12.0", "NRI v0.7 to v0.11", ... from Configure. */
  nri: string;
  requestTimeoutMs: number;
  /** Where the request timeout came from. */
  requestTimeoutFrom: 'configure' | 'config-file' | 'default';
  image: string;
  /** Where the image came from: the --image flag, or the runtime's own pause image (and how it was found). */
  imageFrom: string;
  /** --sim: the preset and scenario the simulator ran. */
  sim?: { preset: string; scenario?: string; faults?: string[] };
}

export interface ConformanceSummary {
  total: number;
  passed: number;
  /** Failures, known gaps included. */
  failed: number;
  /** Of the failures, those nri-contract.md knows this runtime for. */
  knownGaps: number;
  skipped: number;
  errors: number;
  durationMs: number;
}

export interface ConformanceReport {
  runId: string;
  namespace: string;
  target: TargetInfo;
  verdicts: CheckVerdict[];
  summary: ConformanceSummary;
  leftovers: Leftover[];
  /**
   * The last sweep could not list the run's pods (the runtime did not answer): `leftovers`
   * is then only what the run knows it made, and this says why, with the command that lists them.
   */
  leftoversUnchecked?: { reason: string; command: string };
  /**
   * Whether "nothing left" was also judged on the node (processes, cgroups), beyond CRI's
   * listings: when it was not, why; a report that could not look never calls the node clean.
   */
  beyondCri: NodeLookSummary;
  /** Ctrl-C, SIGTERM or SIGHUP ended the run: the checks not run are not reported. */
  interrupted: boolean;
  /** 0: every check that ran passed and the run left nothing, as listed; 1 otherwise. */
  exitCode: 0 | 1;
}
