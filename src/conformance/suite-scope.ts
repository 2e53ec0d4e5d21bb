// What every check of one run shares: the runtime's CRI client and NRI socket, the run's
// namespace and label, the image, the timing, and the record of everything the run made
// (so that it is removed on every way out, and what could not be is listed).
import type { CriClient } from '../cri/index.js';
import type { NodeSource } from './node-view.js';
import type { Timing } from './timing.js';

/** The label every pod of a run carries, its value the run's id. */
export const RUN_LABEL = 'nrictl.io/conformance-run';
/**
 * The label each test container carries, its value the container's alias: a rule finds
 * its container by it where the runtime sends no name with the event (CRI-O without the
 * kubelet's label, cri-o#10011).
 */
export const CONTAINER_LABEL = 'nrictl.io/conformance-container';

/** How a test container is made to run, and to exit by itself, in the image the run uses. */
export type ImageKind = 'pause' | 'shell';

export interface SuiteScope {
  cri: CriClient;
  nriSocket: string;
  runId: string;
  namespace: string;
  image: string;
  /** The image's id, which CreateContainer names with `image` as user_specified_image (kubelet.ts); "" when the runtime gave none. */
  imageId: string;
  imageKind: ImageKind;
  /** The cgroup parent pods are made under: "" for the cgroupfs driver, critest's slice for systemd. */
  cgroupParent: string;
  timing: Timing;
  /** CRI Version's runtime name, lower-case ("containerd", "cri-o"), and version ("v2.3.4"). */
  runtimeName: string;
  runtimeVersion: string;
  /** Run the checks that send a call known to crash this runtime (crashing.ts) rather than skip them. */
  includeCrashing: boolean;
  /** The events the runtime accepted of a test plugin's subscription (Configure tells its vintage). */
  acceptedEvents: number;
  /** "NRI v0.12.0", "NRI v0.7 to v0.11": for skip reasons. */
  nriLabel: string;
  registry: Registry;
  /** Where the run looks beyond CRI for what it left: /proc and cgroups, or the simulator's process table. */
  node: NodeSource;
  /** Whether the runtime's CRI has UpdatePodSandboxResources (probed once, on first need). */
  podUpdates(): Promise<{ has: true } | { has: false; why: string }>;
  /** Ctrl-C, SIGTERM, SIGHUP: the current check stops and cleans up; no other starts. */
  signal: AbortSignal;
}

/** Every pod the run made, as long as it may still exist; and every id of the run, for the look on the node. */
export class Registry {
  readonly pods = new Map<string, { name: string }>();
  /**
   * Every pod and container id of the run: those CRI answered, and those its plugins saw,
   * which include a pod whose RunPodSandbox CRI refused (its hook saw the id all the same).
   * Never forgotten: a removed pod's id is what its leftovers on the node are found by.
   */
  readonly ids = new Set<string>();

  addPod(id: string, name: string): void {
    if (id) this.pods.set(id, { name });
    this.saw(id);
  }

  /** Bounded: far more ids than a run makes are not kept. */
  saw(...ids: Array<string | undefined>): void {
    for (const id of ids) if (id && this.ids.size < 100_000) this.ids.add(id);
  }

  forgetPod(id: string): void {
    this.pods.delete(id);
  }
}
