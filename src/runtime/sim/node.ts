// The simulated node's process table: what a real node's /proc shows of the sandboxes a
// runtime runs, so that `conformance --sim` looks beyond CRI as it does on a node. Each
// sandbox is a shim, named by the runtime's own command line (containerd-shim-runc-v2
// `-id ID`, CRI-O's conmon `-c ID`, isulad-shim `ID`), and a pause process in the pod's
// cgroup. A sandbox starts before the RunPodSandbox hook (containerd 2.x's StartSandbox
// comes first), its pause process ends at StopPodSandbox, its shim at RemovePodSandbox;
// a refused RunPodSandbox ends both, unless the runtime leaks them (quirk
// leaksRefusedSandbox). The shapes match conformance's NodeSource.

interface SimProcess {
  pid: number;
  argv: string[];
  cgroups: string[];
}

/** The simulated processes stay well clear of the small pids a test's eye would take for real ones. */
const FIRST_PID = 40_000;

export class SimNode {
  /** Under --sim nothing hides the node: every process is in sight. */
  readonly unavailable = undefined;
  private readonly sandboxes = new Map<string, { shim: SimProcess; pause?: SimProcess }>();
  private nextPid = FIRST_PID;

  /** `runtime`: the quirks' runtime name ("containerd", "CRI-O", "iSulad"); another is containerd's shape. */
  constructor(private readonly runtime = 'containerd') {}

  startSandbox(id: string, cgroupParent = ''): void {
    if (this.sandboxes.has(id)) return;
    const shim = { pid: this.nextPid++, argv: this.shimArgv(id), cgroups: ['/'] };
    const pause = { pid: this.nextPid++, argv: ['/pause'], cgroups: [`${cgroupParent}/${id}`] };
    this.sandboxes.set(id, { shim, pause });
  }

  /** StopPodSandbox: the pause process is killed; the shim stays until the sandbox is removed. */
  stopSandbox(id: string): void {
    const s = this.sandboxes.get(id);
    if (s) delete s.pause;
  }

  /** RemovePodSandbox, or a refused RunPodSandbox cleaned up: nothing of the sandbox stays. */
  endSandbox(id: string): void {
    this.sandboxes.delete(id);
  }

  limits(): string[] {
    return [];
  }

  processes(): SimProcess[] {
    return [...this.sandboxes.values()].flatMap((s) => (s.pause ? [s.shim, s.pause] : [s.shim]));
  }

  /** The simulated node has no cgroup directories to list: a pod's cgroup shows in its processes' paths. */
  cgroups(): never[] {
    return [];
  }

  private shimArgv(id: string): string[] {
    if (this.runtime === 'CRI-O')
      return ['/usr/bin/conmon', '-b', `/run/containers/storage/overlay-containers/${id}/userdata`, '-c', id];
    if (this.runtime === 'iSulad') return ['isulad-shim', id, `/var/run/isulad/${id}`, 'runc'];
    return [
      '/usr/local/bin/containerd-shim-runc-v2',
      '-namespace',
      'k8s.io',
      '-id',
      id,
      '-address',
      '/run/containerd/containerd.sock',
    ];
  }
}
