// The running plugins that a runtime started from its plugin directory. The NRI library
// (containerd/nri pkg/adaptation/plugin.go, newLaunchedPlugin, every version) starts each
// with an environment of exactly NRI_PLUGIN_NAME (the base name; the full NN-name in
// v0.3.0), NRI_PLUGIN_IDX (the two digits) and NRI_PLUGIN_SOCKET=3, so a process whose
// /proc/PID/environ carries the first two is one, by its full name and pid. The runtime's
// processes run as root: reading their environment takes root (or the same user). A WASM
// plugin runs inside the runtime and has no process to find.
// Where the environment cannot be read (not root), the command line still can: the
// runtime runs the file itself (exec.Command(path)), so argv[0], or argv[1] after a
// script's interpreter, is DIR/NN-name. Such a process runs the plugin's file, but
// whether the runtime started it the command line does not say.
import { closeSync, openSync, readdirSync, readFileSync, readSync } from 'node:fs';

export interface PrestartedProcess {
  /** "10-resource-policy". */
  name: string;
  pid: number;
  /** Its comm (at most 15 characters). */
  command: string;
}

export interface PrestartedScan {
  processes: PrestartedProcess[];
  /** Processes whose environment could not be read but whose command line runs an NN-name file. */
  byCommandLine: PrestartedProcess[];
  /** Processes whose environment could not be read (not root). */
  unreadable: number;
  /** Processes of other users are hidden from us (/proc mounted with hidepid, and not root). */
  hidden: boolean;
}

/** The launched plugin's environment is three short variables: more than this is read no further. */
const ENVIRON_READ_BYTES = 64 * 1024;

export function prestartedPlugins(proc = '/proc'): PrestartedScan {
  const found = new Map<number, PrestartedProcess & { ppid: number }>();
  const byCommandLine: PrestartedProcess[] = [];
  let unreadable = 0;
  const buf = Buffer.alloc(ENVIRON_READ_BYTES);
  for (const entry of readdirSync(proc)) {
    // pid 1 is the namespace's init, never a plugin a runtime started (and root may be
    // refused its environment, as in some sandboxes): it would only make the scan look partial.
    if (!/^\d+$/.test(entry) || entry === '1') continue;
    let env: string;
    try {
      env = readHead(`${proc}/${entry}/environ`, buf);
    } catch (err) {
      // ENOENT/ESRCH: the process ended while we looked, or is a kernel thread (no environment).
      if ((err as NodeJS.ErrnoException).code !== 'EACCES') continue;
      unreadable++;
      const name = fileInCommandLine(`${proc}/${entry}`, buf);
      const status = name ? stat(`${proc}/${entry}`) : undefined;
      if (name && status) byCommandLine.push({ name, pid: Number(entry), command: status.command });
      continue;
    }
    const name = pluginName(env.split('\0'));
    if (!name) continue;
    const pid = Number(entry);
    const status = stat(`${proc}/${entry}`);
    if (status) found.set(pid, { name, pid, ...status });
  }
  // A plugin's children inherit its environment: the plugin is the one whose parent is not one too.
  const processes = [...found.values()]
    .filter((p) => found.get(p.ppid)?.name !== p.name)
    .map(({ name, pid, command }) => ({ name, pid, command }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.pid - b.pid));
  return { processes, byCommandLine, unreadable, hidden: hidesPids(proc) };
}

/** The NN-name file that argv[0] or argv[1] runs, if any. */
function fileInCommandLine(dir: string, buf: Buffer): string | undefined {
  try {
    const args = readHead(`${dir}/cmdline`, buf).split('\0').slice(0, 2);
    return args.map((a) => a.slice(a.lastIndexOf('/') + 1)).find((b) => /^\d\d-./.test(b));
  } catch {
    return undefined;
  }
}

/** hidepid=1/2 (or invisible/noaccess) leaves other users' processes out of /proc for whoever is not root. */
function hidesPids(proc: string): boolean {
  if (process.getuid?.() === 0) return false;
  try {
    const line = readFileSync('/proc/self/mountinfo', 'utf8')
      .split('\n')
      .find((l) => l.split(' ')[4] === proc);
    return /\bhidepid=(1|2|invisible|noaccess)\b/.test(line ?? '');
  } catch {
    return false;
  }
}

function pluginName(vars: string[]): string | undefined {
  const get = (key: string) => vars.find((v) => v.startsWith(`${key}=`))?.slice(key.length + 1);
  const idx = get('NRI_PLUGIN_IDX');
  const base = get('NRI_PLUGIN_NAME');
  if (!idx || !base || !/^\d\d$/.test(idx)) return undefined;
  return base.startsWith(`${idx}-`) ? base : `${idx}-${base}`;
}

/** comm and the parent's pid from /proc/PID/stat: "pid (comm) state ppid ..."; comm may hold spaces and parentheses. */
function stat(dir: string): { command: string; ppid: number } | undefined {
  try {
    const text = readFileSync(`${dir}/stat`, 'utf8');
    const open = text.indexOf('(');
    const close = text.lastIndexOf(')');
    const ppid = Number(text.slice(close + 2).split(' ')[1]);
    return { command: text.slice(open + 1, close), ppid };
  } catch {
    return undefined;
  }
}

function readHead(file: string, buf: Buffer): string {
  const fd = openSync(file, 'r');
  const max = buf.length;
  try {
    let n = 0;
    for (let got = -1; got !== 0 && n < max; n += got) got = readSync(fd, buf, n, max - n, null);
    return buf.toString('utf8', 0, n);
  } finally {
    closeSync(fd);
  }
}
