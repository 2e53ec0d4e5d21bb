// dockerd's --nri-opts, read from its command line in /proc: Docker takes its NRI
// settings from the flag as well as from daemon.json, and doctor judges what runs.
import { closeSync, openSync, readdirSync, readSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { DockerdCommandLine } from './docker.js';

/** A command line longer than this is not read past it (the kernel's own page limit is 4 KiB per read). */
const CMDLINE_MAX = 64 * 1024;

/** The first running dockerd under `root`/proc and its --nri-opts values, or undefined. */
export function findDockerd(root = '/'): DockerdCommandLine | undefined {
  const proc = join(root, 'proc');
  let entries: string[];
  try {
    entries = readdirSync(proc).filter((e) => /^\d+$/.test(e));
  } catch {
    return undefined; // no /proc (a node image): nothing runs there
  }
  for (const pid of entries.sort((a, b) => Number(a) - Number(b))) {
    const argv = readCmdline(join(proc, pid, 'cmdline'));
    if (!argv || basename(argv[0] ?? '') !== 'dockerd') continue;
    return { pid: Number(pid), nriOpts: nriOptsOf(argv) };
  }
  return undefined;
}

function readCmdline(path: string): string[] | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return undefined; // the process ended, or is not ours to read
  }
  try {
    const buf = Buffer.alloc(CMDLINE_MAX);
    let length = 0;
    for (let n = 1; n > 0 && length < buf.length; length += n) n = readSync(fd, buf, length, buf.length - length, null);
    return buf.subarray(0, length).toString('utf8').split('\0').filter(Boolean);
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** The values of every --nri-opts (as `--nri-opts V` or `--nri-opts=V`), in order. */
function nriOptsOf(argv: string[]): string[] {
  const values: string[] = [];
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--nri-opts' && i + 1 < argv.length) values.push(argv[++i]);
    else if (arg.startsWith('--nri-opts=')) values.push(arg.slice('--nri-opts='.length));
  }
  return values;
}
