// The node's processes and cgroups as /proc and /sys/fs/cgroup show them, read with
// bounds (so many processes, so many bytes of a command line, so many cgroup
// directories). Whether nrictl can look at all is settled once, when the run is
// prepared: it must see the runtime's own process, or the shims the runtime starts are
// out of its sight too (a pid namespace other than the runtime's, or /proc mounted with
// hidepid and nrictl not root).
import { closeSync, existsSync, openSync, readdirSync, readFileSync, readSync } from 'node:fs';
import { join } from 'node:path';
import type { NodeCgroup, NodeProcess, NodeSource } from './node-view.js';

/** The runtime's own process, by its executable's name, for CRI Version's runtime names. */
const RUNTIME_BINARIES: Readonly<Record<string, readonly string[]>> = {
  containerd: ['containerd'],
  'cri-o': ['crio'],
  isulad: ['isulad'],
};

/** Beyond these the look reads no further, and says so. */
const MAX_PROCESSES = 65_536;
const MAX_CMDLINE_BYTES = 8 * 1024;
const MAX_CGROUP_FILE_BYTES = 8 * 1024;
const MAX_CGROUP_DIRS = 50_000;
const MAX_CGROUP_DEPTH = 12;
const MAX_PROCS_FILE_BYTES = 64 * 1024;

export interface ProcNodeOptions {
  /** CRI Version's runtime name, lower-case. */
  runtimeName: string;
  /** Where procfs is (tests). */
  proc?: string;
  /** Where the cgroup hierarchies are (tests). */
  cgroupRoot?: string;
  /** Whether nrictl runs as root (tests). */
  root?: boolean;
}

export function openProcNode(opts: ProcNodeOptions): NodeSource {
  return new ProcNode(opts.proc ?? '/proc', opts.cgroupRoot ?? '/sys/fs/cgroup', opts);
}

class ProcNode implements NodeSource {
  readonly unavailable: string | undefined;
  private readonly found: string[] = [];

  constructor(
    private readonly proc: string,
    private readonly cgroupRoot: string,
    opts: ProcNodeOptions,
  ) {
    this.unavailable = this.whyNot(opts);
  }

  private whyNot(opts: ProcNodeOptions): string | undefined {
    let entries: string[];
    try {
      entries = readdirSync(this.proc);
    } catch (err) {
      return `${this.proc} cannot be read (${code(err)})`;
    }
    if (!entries.some((e) => /^\d+$/.test(e))) return `${this.proc} lists no process (procfs is not mounted there)`;
    const names = RUNTIME_BINARIES[opts.runtimeName];
    if (names === undefined) return undefined; // no process to look for: the shims are looked for all the same
    const seen = this.processes().some((p) => names.includes(basename(p.argv[0] ?? '')));
    if (seen) return undefined;
    const root = opts.root ?? process.getuid?.() === 0;
    if (!root && this.hidepid())
      return `${this.proc} hides other users' processes (mounted with hidepid) and nrictl is not root: run it as root to look`;
    return `no ${names.join(' or ')} process is in sight in ${this.proc}: nrictl runs in another pid namespace than the runtime's (a container without the host's pid namespace?), so neither are its shims`;
  }

  private hidepid(): boolean {
    try {
      return readFileSync(join(this.proc, 'self/mountinfo'), 'utf8')
        .split('\n')
        .some((l) => l.split(' ')[4] === '/proc' && /hidepid=(?!0\b|off\b)/.test(l));
    } catch {
      return false;
    }
  }

  limits(): string[] {
    const limits: string[] = [];
    if (!existsSync(this.cgroupRoot)) limits.push(`cgroup directories not looked at: ${this.cgroupRoot} is not there`);
    else
      try {
        readdirSync(this.cgroupRoot);
      } catch (err) {
        limits.push(`cgroup directories not looked at: ${this.cgroupRoot} cannot be read (${code(err)})`);
      }
    return [...limits, ...this.found.splice(0)];
  }

  processes(): NodeProcess[] {
    const out: NodeProcess[] = [];
    let entries: string[];
    try {
      entries = readdirSync(this.proc).filter((e) => /^\d+$/.test(e));
    } catch {
      return out;
    }
    if (entries.length > MAX_PROCESSES) this.note(`only ${MAX_PROCESSES} of ${entries.length} processes looked at`);
    let cgroupsUnread = 0;
    const self = String(process.pid);
    for (const e of entries.slice(0, MAX_PROCESSES)) {
      // nrictl itself is no leftover, though a caller may name ids on its command line.
      if (e === self) continue;
      const dir = join(this.proc, e);
      const cmdline = readBounded(join(dir, 'cmdline'), MAX_CMDLINE_BYTES);
      if (cmdline === undefined) continue; // ended while we looked, or hidden
      const argv = cmdline.split('\0');
      if (argv.at(-1) === '') argv.pop();
      const cgroupFile = readBounded(join(dir, 'cgroup'), MAX_CGROUP_FILE_BYTES);
      if (cgroupFile === undefined) cgroupsUnread++;
      // "ID:controllers:/path" for v1, "0::/path" for v2.
      const cgroups = (cgroupFile ?? '')
        .split('\n')
        .filter(Boolean)
        .map((l) => l.split(':').slice(2).join(':'));
      out.push({ pid: Number(e), argv, cgroups });
    }
    if (cgroupsUnread > 0)
      this.note(
        `/proc/PID/cgroup of ${cgroupsUnread} processes could not be read: processes named by no shim not all looked for`,
      );
    return out;
  }

  cgroups(ids: ReadonlySet<string>): NodeCgroup[] {
    let roots: string[];
    try {
      roots = existsSync(join(this.cgroupRoot, 'cgroup.controllers'))
        ? [this.cgroupRoot] // v2: one hierarchy
        : readdirSync(this.cgroupRoot, { withFileTypes: true })
            .filter((d) => d.isDirectory()) // v1: one per mounted controller (their aliases are symlinks)
            .map((d) => join(this.cgroupRoot, d.name));
    } catch {
      return []; // said by limits()
    }
    const out: NodeCgroup[] = [];
    let budget = MAX_CGROUP_DIRS;
    for (const root of roots) {
      let level = [root];
      for (let depth = 0; depth < MAX_CGROUP_DEPTH && level.length > 0 && budget > 0; depth++) {
        const next: string[] = [];
        for (const dir of level) {
          let subs;
          try {
            subs = readdirSync(dir, { withFileTypes: true }).filter((d) => d.isDirectory());
          } catch {
            continue;
          }
          for (const d of subs) {
            if (--budget < 0) break;
            const path = join(dir, d.name);
            next.push(path);
            const id = [...ids].find((i) => d.name.includes(i));
            if (id !== undefined) out.push({ path, id, pids: pidsIn(path) });
          }
        }
        level = next;
      }
    }
    if (budget < 0) this.note(`only ${MAX_CGROUP_DIRS} cgroup directories looked at`);
    return out;
  }

  private note(text: string): void {
    if (!this.found.includes(text)) this.found.push(text);
  }
}

function pidsIn(dir: string): number[] {
  const text = readBounded(join(dir, 'cgroup.procs'), MAX_PROCS_FILE_BYTES) ?? '';
  return text
    .split('\n')
    .filter((l) => /^\d+$/.test(l))
    .map(Number);
}

/** At most `max` bytes of a file (procfs reports no size: read until the end or the bound); undefined when it cannot be read. */
function readBounded(path: string, max: number): string | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return undefined;
  }
  try {
    const buf = Buffer.alloc(max);
    let n = 0;
    for (;;) {
      const got = readSync(fd, buf, n, max - n, null);
      if (got === 0 || (n += got) >= max) break;
    }
    return buf.toString('utf8', 0, n);
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

function basename(path: string): string {
  return path.split('/').pop() ?? '';
}

function code(err: unknown): string {
  return (err as NodeJS.ErrnoException).code ?? (err as Error).message;
}
