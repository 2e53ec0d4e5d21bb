import { statSync, type Stats } from 'node:fs';
import { dirname } from 'node:path';
import { finding, type Finding } from './finding.js';
import { modeString } from './entry.js';

/** Whether nrictl runs as root: only then is "permission denied" the runtime's problem too. */
function runningAsRoot(): boolean {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

/** Permission errors that root, as which the runtime runs, would not meet. */
export function deniedToUs(code: string | undefined): boolean {
  return (code === 'EACCES' || code === 'EPERM') && !runningAsRoot();
}

/**
 * A check nrictl could not make because it does not run as root. A warning, so that
 * neither the summary nor --strict passes a node as clean when part of it was not looked at.
 */
export function notCheckedFinding(path: string, what: string, code: string): Finding {
  const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;
  return finding(
    'warning',
    path,
    'not-checked',
    `not checked: ${what} (${code}: uid ${uid ?? '?'} may not look; the runtime, as root, can)`,
    'run nrictl as root to check it',
  );
}

const S_ISVTX = 0o1000;

/** A file the runtime executes or reads as root: nobody but root may be able to change it. */
export function fileWriteFindings(path: string, st: Stats, what: 'plugin' | 'config', checkOwner: boolean): Finding[] {
  const out: Finding[] = [];
  const mode = st.mode & 0o7777;
  const severity = what === 'plugin' ? 'error' : 'warning';
  const runs = what === 'plugin' ? 'runs this file as root' : 'hands this file to a plugin running as root';
  if (mode & 0o022) {
    const who = [mode & 0o020 ? 'group' : '', mode & 0o002 ? 'others' : ''].filter(Boolean).join(' and ');
    out.push(
      finding(
        severity,
        path,
        `${what}-writable-by-others`,
        `writable by ${who} (mode ${modeString(mode)}); the runtime ${runs}`,
        `chmod go-w ${path}`,
      ),
    );
  }
  if (checkOwner && st.uid !== 0) {
    out.push(
      finding(
        severity,
        path,
        `${what}-not-root-owned`,
        `owned by uid ${st.uid}, not root; that user can change what the runtime ${what === 'plugin' ? 'runs' : 'passes on'} as root`,
        `chown root:root ${path}`,
      ),
    );
  }
  return out;
}

/**
 * The directory holding plugins or configs and every parent up to /: whoever can write
 * to any of them can swap the files. A sticky world-writable parent (/tmp) only lets
 * others add entries, not replace ours, so it passes for parents.
 */
export function directoryChainFindings(dir: string, what: 'plugin' | 'config', checkOwner: boolean): Finding[] {
  const out: Finding[] = [];
  const severity = what === 'plugin' ? 'error' : 'warning';
  let current = dir;
  let first = true;
  for (;;) {
    let st: Stats | undefined;
    try {
      st = statSync(current);
    } catch {
      st = undefined;
    }
    if (st?.isDirectory()) {
      const mode = st.mode & 0o7777;
      const sticky = (mode & S_ISVTX) !== 0;
      if (mode & 0o022 && (first || !sticky)) {
        out.push(
          finding(
            severity,
            current,
            first ? `${what}-dir-writable-by-others` : `${what}-parent-writable-by-others`,
            `${first ? 'directory' : `parent of ${dir}`} is writable by group or others (mode ${modeString(mode)}); they can ${first ? 'add or replace' : 'replace'} what the runtime ${what === 'plugin' ? 'runs' : 'reads'} as root`,
            `chmod go-w ${current}`,
          ),
        );
      }
      if (checkOwner && st.uid !== 0) {
        out.push(
          finding(
            severity,
            current,
            first ? `${what}-dir-not-root-owned` : `${what}-parent-not-root-owned`,
            `${first ? 'directory' : `parent of ${dir}`} is owned by uid ${st.uid}, not root`,
            `chown root:root ${current}`,
          ),
        );
      }
    }
    const parent = dirname(current);
    if (parent === current) break;
    current = parent;
    first = false;
  }
  return out;
}
