// What a run left on the node beyond CRI's listings. A runtime can refuse a pod over CRI
// and still keep its sandbox running (containerd 2.0-2.2.5 and 2.3.0-2.3.2 when a plugin
// fails RunPodSandbox: containerd#13609), so "nothing left" is judged on the node too,
// by the ids the run knows: every pod and container id its test plugins saw (a refused
// RunPodSandbox's hook sees the id all the same) and every one CRI answered. A process
// belongs to one of them when its command line names the id as a whole argument (the
// shims: containerd-shim-runc-v2 `-id ID`, CRI-O's conmon `-c ID`, isulad-shim `ID`) or
// its cgroup path has a component holding the id (the pause process, the containers);
// a cgroup directory whose name holds the id is one too, with or without processes.
// Where the node does not let nrictl look, the look says why, and nothing is judged.

/** One process as the node shows it. */
export interface NodeProcess {
  pid: number;
  /** Its command line, at most a bounded part of it. */
  argv: string[];
  /** The cgroup paths in /proc/PID/cgroup (every hierarchy); empty where they could not be read. */
  cgroups: string[];
}

/** A cgroup directory named after one of the ids looked for. */
export interface NodeCgroup {
  /** Its path as the node names it (under /sys/fs/cgroup). */
  path: string;
  id: string;
  /** The processes in it (cgroup.procs). */
  pids: number[];
}

/**
 * Where the node's processes and cgroups come from: /proc and /sys/fs/cgroup on a node
 * (node-proc.ts), the simulated process table under --sim (src/runtime/sim/node.ts).
 */
export interface NodeSource {
  /**
   * Why nothing can be looked at beyond CRI; undefined: it can. Settled once, when the
   * run is prepared, so that a runtime that goes away mid-run leaves the answer standing.
   */
  readonly unavailable: string | undefined;
  /** What it could not see on this look ("cgroups not read: ..."), said beside what it found. */
  limits(): string[];
  /** The node's processes, bounded. */
  processes(): NodeProcess[];
  /** The cgroup directories whose name holds one of `ids`, bounded. */
  cgroups(ids: ReadonlySet<string>): NodeCgroup[];
}

export type ProcessRole = 'shim' | 'pause' | 'process';

/** What one id of the run still has on the node. */
export interface NodeFinding {
  id: string;
  processes: Array<{ pid: number; role: ProcessRole; argv: string[] }>;
  /** Cgroup directories named after it (a process in one is also in `processes`). */
  cgroups: string[];
  /** The containerd namespace its shim names (`-namespace k8s.io`), where one does. */
  containerdNamespace?: string;
}

export type NodeLook = { checked: false; why: string } | { checked: true; found: NodeFinding[]; limits: string[] };

/** Ids shorter than this are not looked for: a short string would match unrelated paths. */
const MIN_ID_LENGTH = 12;

/** Looks for what the node still holds of `ids`. */
export function lookOnNode(source: NodeSource, ids: Iterable<string>): NodeLook {
  if (source.unavailable !== undefined) return { checked: false, why: source.unavailable };
  const wanted = new Set([...ids].filter((id) => id.length >= MIN_ID_LENGTH));
  if (wanted.size === 0) return { checked: true, found: [], limits: source.limits() };
  const byId = new Map<string, NodeFinding>();
  const finding = (id: string): NodeFinding => {
    let f = byId.get(id);
    if (!f) byId.set(id, (f = { id, processes: [], cgroups: [] }));
    return f;
  };
  const procs = source.processes();
  const byPid = new Map(procs.map((p) => [p.pid, p]));
  const add = (id: string, p: NodeProcess): void => {
    const f = finding(id);
    if (f.processes.some((q) => q.pid === p.pid)) return;
    const role = roleOf(p.argv);
    f.processes.push({ pid: p.pid, role, argv: p.argv });
    const ns = role === 'shim' ? flagValue(p.argv, '-namespace') : undefined;
    if (ns !== undefined) f.containerdNamespace = ns;
  };
  for (const p of procs) {
    const named = p.argv.find((a) => wanted.has(a) || wanted.has(a.slice(a.indexOf('=') + 1)));
    if (named !== undefined) add(wanted.has(named) ? named : named.slice(named.indexOf('=') + 1), p);
    for (const path of p.cgroups) {
      const id = idInPath(path, wanted);
      if (id !== undefined) add(id, p);
    }
  }
  for (const c of source.cgroups(wanted)) {
    // An empty cgroup holds nothing that runs, and CRI-O leaves one (crio-conmon-ID) for
    // every container it ever ran, refused or not: counting it would cry wolf on every node.
    if (c.pids.length === 0) continue;
    const f = finding(c.id);
    if (!f.cgroups.includes(c.path)) f.cgroups.push(c.path);
    for (const pid of c.pids) add(c.id, byPid.get(pid) ?? { pid, argv: [], cgroups: [] });
  }
  return { checked: true, found: [...byId.values()], limits: source.limits() };
}

/**
 * Looks until nothing is found or `settleMs` is over, again every tenth of it: a shim
 * exits a moment after the runtime shut its sandbox down, and is no leftover for that.
 */
export async function settledLook(
  source: NodeSource,
  ids: Iterable<string>,
  settleMs: number,
  wait: (ms: number) => Promise<void>,
): Promise<NodeLook> {
  const wanted = [...ids];
  const until = performance.now() + settleMs;
  for (;;) {
    const look = lookOnNode(source, wanted);
    if (!look.checked || look.found.length === 0 || performance.now() >= until) return look;
    await wait(settleMs / 10);
  }
}

/** The id one of a cgroup path's components holds (`/kubepods/ID`, `/test.slice/cri-containerd-ID.scope`, `crio-ID`). */
function idInPath(path: string, wanted: ReadonlySet<string>): string | undefined {
  for (const part of path.split('/')) {
    if (part.length < MIN_ID_LENGTH) continue;
    for (const id of wanted) if (part.includes(id)) return id;
  }
  return undefined;
}

function roleOf(argv: readonly string[]): ProcessRole {
  const base = (argv[0] ?? '').split('/').pop() ?? '';
  if (/^containerd-shim/.test(base) || base === 'conmon' || base === 'isulad-shim') return 'shim';
  if (base === 'pause') return 'pause';
  return 'process';
}

function flagValue(argv: readonly string[], flag: string): string | undefined {
  const i = argv.indexOf(flag);
  return i >= 0 ? argv[i + 1] : undefined;
}

/** "containerd-shim-runc-v2 pid 812, /pause pid 830; cgroups /sys/fs/cgroup/pids/ID": what a finding is, for people. */
export function describeFinding(f: NodeFinding): string {
  const procs = f.processes.map((p) => `${p.argv[0] ?? '(command line unreadable)'} pid ${p.pid}`);
  return [procs.join(', '), f.cgroups.length > 0 ? `cgroups ${f.cgroups.join(' ')}` : ''].filter(Boolean).join('; ');
}

/**
 * The command that removes a finding. With containerd answering and a shim that names
 * its namespace: its own task and container (`ctr -n NS task rm -f ID`, which kills the
 * task and ends the shim, then `ctr -n NS container rm ID`). Otherwise (another runtime,
 * none answering, no shim): the processes, pause and workload before their shim, then
 * the cgroups named after it.
 */
export function removalCommand(f: NodeFinding, runtime: { name: string; answering: boolean }): string {
  if (runtime.name === 'containerd' && runtime.answering && f.containerdNamespace !== undefined)
    return `ctr -n ${f.containerdNamespace} task rm -f ${f.id} && ctr -n ${f.containerdNamespace} container rm ${f.id}`;
  const order: ProcessRole[] = ['process', 'pause', 'shim'];
  const pids = [...f.processes].sort((a, b) => order.indexOf(a.role) - order.indexOf(b.role)).map((p) => p.pid);
  // A cgroup can be removed once its processes are gone: killed ones are, a moment later.
  const parts = [
    ...(pids.length > 0 ? [`kill -KILL ${pids.join(' ')}`] : []),
    ...(pids.length > 0 && f.cgroups.length > 0 ? ['sleep 1'] : []),
    ...(f.cgroups.length > 0 ? [`rmdir ${f.cgroups.join(' ')}`] : []),
  ];
  return parts.join('; ');
}
