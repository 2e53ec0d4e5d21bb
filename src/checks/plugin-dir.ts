import { readdirSync } from 'node:fs';
import { join } from 'node:path';
// Straight from the leaf module, not the api index: the index loads the protobuf
// bindings (~45 ms CPU) that an offline directory check never uses.
import { parsePluginName } from '../api/plugin-name.js';
import { DEFAULT_PLUGIN_CONFIG_PATH, lookupPluginConfig } from './config-lookup.js';
import { specialFileProblem } from './input-file.js';
import { DEFAULT_PLUGIN_PATH } from './defaults.js';
import { KIND_LABEL, modeString, probeEntry, type EntryFacts, type EntryKind } from './entry.js';
import { pathErrorFrom } from './errors.js';
import { finding, type Finding, type RuntimeKind, type Severity } from './finding.js';
import { deniedToUs, directoryChainFindings, fileWriteFindings, notCheckedFinding } from './permissions.js';
import { findOnDefaultPath, sniffRunnable } from './runnable.js';
import { bundleLogFinding } from './bundle-log.js';

/** The runtime's default directory of pre-installed plugins. */
export { DEFAULT_PLUGIN_PATH };

export interface PluginDirOptions {
  /** Where the runtime looks up plugin configuration (default /etc/nri/conf.d). */
  confDir?: string;
  /** Judge for this runtime; without it the Go adaptation decides and iSulad differences are notes. */
  runtime?: RuntimeKind;
  /** Flag files and directories not owned by root (default true: stat tells any user the owner). */
  checkOwner?: boolean;
}

/** A plugin the runtime will try to launch, in the order it will invoke it. */
export interface PlannedPlugin {
  file: string;
  path: string;
  index: string;
  name: string;
  kind: EntryKind;
  linkTarget?: string;
  /** The configuration file the runtime passes, or null for none (an empty string). */
  config: string | null;
  /** False when exec will fail or the entry is otherwise broken. */
  launches: boolean;
}

export interface PluginDirReport {
  dir: string;
  confDir: string;
  runtime?: RuntimeKind;
  findings: Finding[];
  /** Invocation order of the Go adaptation (index as a string sort). */
  order: PlannedPlugin[];
  /** iSulad keys plugins by name: it runs them in name order, one per name. */
  isuladOrder: PlannedPlugin[];
  /** A misnamed executable or an unreadable config: the Go adaptation starts no pre-installed plugin. */
  discoveryFails: boolean;
}

// NRI v0.3.0-v0.6.1's startPlugins returns the launch error from Start, and containerd
// 1.7.0-1.7.25 exit on it (pkg/cri/cri.go:117 Fatal "Failed to run CRI service").
const LAUNCH_FAILS =
  'exec fails: with NRI before v0.7 (containerd 1.7.0-1.7.25) the runtime does not come up at all (containerd exits: "Failed to run CRI service"); newer NRI logs a warning and skips it';

/** No plugin directory: not a fault, the runtime then launches no pre-installed plugin. */
export function pluginDirMissing(dir: string): Finding {
  return finding(
    'info',
    dir,
    'plugin-dir-missing',
    'the plugin directory does not exist: the runtime launches no pre-installed plugin',
    'nothing to do, unless plugins should be installed there',
  );
}

/** Reads a directory the way the runtime does: sorted by name. Throws CheckPathError. */
function readPluginDir(dir: string): string[] {
  try {
    return readdirSync(dir).sort(byBytes);
  } catch (err) {
    throw pathErrorFrom(dir, err, 'plugin directory');
  }
}

/** Go sorts names byte-wise, not by locale. */
export function byBytes(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function tryParse(file: string): { index: string; name: string } | { error: string } {
  try {
    return parsePluginName(file);
  } catch (err) {
    return { error: (err as Error).message };
  }
}

/**
 * The entries the Go adaptation would try to launch: not a directory (as an entry), some
 * execute bit on the entry itself (lstat, so every symlink qualifies), a valid name.
 * A missing directory yields none, as in the runtime.
 */
export function listDiscoverable(dir: string): Array<{ file: string; index: string; name: string }> {
  let files: string[];
  try {
    files = readdirSync(dir).sort(byBytes);
  } catch {
    return [];
  }
  const out: Array<{ file: string; index: string; name: string }> = [];
  for (const file of files) {
    let facts: EntryFacts;
    try {
      facts = probeEntry(join(dir, file));
    } catch {
      continue;
    }
    if (facts.self.isDirectory() || (facts.self.mode & 0o111) === 0) continue;
    const parsed = tryParse(file);
    if ('error' in parsed) continue;
    out.push({ file, ...parsed });
  }
  return out;
}

export function checkPluginDir(dir: string, opts: PluginDirOptions = {}): PluginDirReport {
  const confDir = opts.confDir ?? DEFAULT_PLUGIN_CONFIG_PATH;
  const checkOwner = opts.checkOwner ?? true;
  const isulad = opts.runtime === 'isulad';
  const sev = (go: Severity, isu: Severity): Severity => (isulad ? isu : go);
  const files = readPluginDir(dir);
  const findings: Finding[] = [...directoryChainFindings(dir, 'plugin', checkOwner)];
  const planned: PlannedPlugin[] = [];
  let discoveryFails = false;

  for (const file of files) {
    const path = join(dir, file);
    let facts: EntryFacts;
    try {
      facts = probeEntry(path);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (deniedToUs(code)) findings.push(notCheckedFinding(path, 'what this entry is, its mode and owner', code!));
      continue; // otherwise it vanished while we looked; the runtime skips it too
    }
    const add = (severity: Severity, code: string, message: string, fix: string) =>
      findings.push(finding(severity, path, code, message, fix));

    // DirEntry.IsDir() looks at the entry itself; a symlink to a directory is not skipped here.
    if (facts.self.isDirectory()) {
      add(
        'info',
        'directory-skipped',
        'directory: every runtime skips it',
        'move it out of the plugin directory if it is not meant to be here',
      );
      continue;
    }

    const parsed = tryParse(file);
    const goSeesExec = (facts.self.mode & 0o111) !== 0;
    const target = facts.target;

    if (!goSeesExec) {
      if (!('error' in parsed) && facts.kind === 'file') {
        add(
          'warning',
          'not-executable',
          `named like a plugin but has no execute bit (mode ${modeString(facts.self.mode)}): every runtime skips it silently`,
          `chmod 0755 ${path}`,
        );
      } else {
        add(
          'info',
          'ignored-entry',
          `${KIND_LABEL[facts.kind]} without execute bits: every runtime skips it silently`,
          'nothing to do, or move it out of the plugin directory',
        );
      }
      continue;
    }

    if ('error' in parsed) {
      discoveryFails = discoveryFails || !isulad;
      const linkNote = facts.isSymlink ? ' (a symlink always carries execute bits for the Go runtime)' : '';
      add(
        sev('error', 'warning'),
        'misnamed-executable',
        `${parsed.error}${linkNote}: containerd and CRI-O fail plugin discovery and start no pre-installed plugin; iSulad logs an error and skips this entry`,
        `rename it to NN-name (two digits, '-', a name) or remove its execute bits (chmod a-x)`,
      );
      continue;
    }

    const { index, name } = parsed;
    const lookup = lookupPluginConfig(confDir, index, name);
    // Denied to us, not to root: the runtime passes that file, as far as anyone here can tell.
    const configDeniedToUs = lookup.error !== undefined && deniedToUs(lookup.error.code);
    if (lookup.error && configDeniedToUs) {
      findings.push(
        notCheckedFinding(lookup.error.path, `whether ${file} can be given its configuration`, lookup.error.code),
      );
    } else if (lookup.error) {
      discoveryFails = discoveryFails || !isulad;
      const special = lookup.error.kind;
      add(
        sev('error', 'warning'),
        'config-unreadable',
        special
          ? `its configuration ${lookup.error.path} ${specialFileProblem(special)}: the runtime blocks or fails reading it in plugin discovery, and no pre-installed plugin starts`
          : lookup.error.code === 'ELOOP'
            ? `its configuration ${lookup.error.path} is a loop of symlinks that never reaches a file (ELOOP): containerd and CRI-O fail plugin discovery; iSulad skips the plugin`
            : `its configuration ${lookup.error.path} cannot be read (${lookup.error.code}): containerd and CRI-O fail plugin discovery; iSulad skips the plugin`,
        `make ${lookup.error.path} a readable regular file, or remove it`,
      );
    }
    // Without a runtime, only say so when the Go runtime would pass a file that iSulad never reads.
    if (lookup.isulad.skipsPlugin && (isulad || (opts.runtime === undefined && lookup.path))) {
      const has = lookup.path ? `only ${lookup.path}` : 'no configuration file';
      add(
        sev('info', 'warning'),
        'isulad-config-missing',
        `iSulad opens only ${lookup.candidates[0]} and does not start the plugin without it (there is ${has})`,
        `create ${lookup.candidates[0]} (it may be empty) when the runtime is iSulad`,
      );
    }

    let launches = !lookup.error || configDeniedToUs;
    // Broken links get their own finding naming the target; a working one is worth a note.
    if (facts.isSymlink && target?.isFile() && (target.mode & 0o111) !== 0) {
      add(
        'info',
        'symlink',
        `symlink to ${facts.linkTarget ?? facts.linkText ?? '?'} (${KIND_LABEL[facts.kind]}); the runtime runs the target`,
        'nothing to do',
      );
    }
    if (!target && facts.targetError === 'ELOOP') {
      launches = false;
      add(
        sev('error', 'warning'),
        'symlink-loop',
        `symlink to ${facts.linkTarget ?? facts.linkText ?? '?'}, a loop of links that never reaches a file (ELOOP); ${LAUNCH_FAILS}; iSulad skips it`,
        `point the link at the plugin binary, or remove it: ln -sf <plugin binary> ${path}`,
      );
    } else if (!target) {
      launches = false;
      add(
        sev('error', 'warning'),
        'dangling-symlink',
        `symlink to ${facts.linkTarget ?? facts.linkText ?? '?'}, which does not exist; ${LAUNCH_FAILS}; iSulad skips it`,
        `fix the link or remove it: ln -sf <plugin binary> ${path}`,
      );
    } else if (target.isDirectory()) {
      launches = false;
      add(
        sev('error', 'info'),
        'symlink-to-directory',
        `symlink to the directory ${facts.linkTarget ?? '?'}; ${LAUNCH_FAILS}; iSulad skips it`,
        `point the link at the plugin binary or remove it`,
      );
    } else if (!target.isFile()) {
      launches = false;
      add(
        sev('error', 'error'),
        'not-a-regular-file',
        `${KIND_LABEL[facts.kind]} with execute bits; ${LAUNCH_FAILS}`,
        `remove it, or replace it with the plugin binary`,
      );
    } else {
      if ((target.mode & 0o111) === 0) {
        launches = false;
        add(
          sev('error', 'info'),
          'target-not-executable',
          `symlink to ${facts.linkTarget ?? '?'}, which has no execute bit; ${LAUNCH_FAILS}; iSulad skips it`,
          `chmod 0755 ${facts.linkTarget ?? path}`,
        );
      } else if ((target.mode & 0o100) === 0) {
        add(
          sev('info', 'warning'),
          'isulad-needs-owner-execute',
          `executable by group or others but not by its owner (mode ${modeString(target.mode)}): containerd and CRI-O run it, iSulad skips it with an error in its log`,
          `chmod u+x ${facts.linkTarget ?? path}`,
        );
      }
      if (launches) launches = runnableFindings(facts.linkTarget ?? path, path, add);
      if (launches) {
        const logNote = bundleLogFinding(facts.linkTarget ?? path, path, { index, name });
        if (logNote) findings.push(logNote);
      }
      findings.push(...fileWriteFindings(facts.linkTarget ?? path, target, 'plugin', checkOwner));
    }

    planned.push({
      file,
      path,
      index,
      name,
      kind: facts.kind,
      ...(facts.isSymlink ? { linkTarget: facts.linkTarget } : {}),
      config: lookup.path ?? (configDeniedToUs ? lookup.error!.path : null),
      launches,
    });
  }

  findings.push(...duplicateFindings(planned));
  // os.ReadDir already sorted by name; the runtime then sorts by index (ties keep no defined order).
  const order = [...planned].sort((a, b) => byBytes(a.index, b.index));
  const isuladOrder = [...new Map(planned.map((p) => [p.name, p])).values()].sort((a, b) => byBytes(a.name, b.name));
  return {
    dir,
    confDir,
    ...(opts.runtime ? { runtime: opts.runtime } : {}),
    findings,
    order,
    isuladOrder,
    discoveryFails,
  };
}

/** Looks at the first bytes the way exec() will; returns whether it can start. */
function runnableFindings(
  file: string,
  entry: string,
  add: (s: Severity, code: string, m: string, f: string) => void,
): boolean {
  const r = sniffRunnable(file);
  switch (r.kind) {
    case 'elf':
      return true;
    case 'wasm':
      add(
        'warning',
        'wasm-plugin',
        'a WebAssembly module: the newest NRI loads it in-process when built with WASM support; NRI v0.6.1 and iSulad cannot exec it',
        'make sure the runtime vendors an NRI with WASM support',
      );
      return true;
    case 'script': {
      const interp = r.interpreter;
      if (!interp || !findOnDefaultPath(interp)) {
        add(
          'error',
          'missing-interpreter',
          `script for ${interp || '(nothing)'}, which does not exist; ${LAUNCH_FAILS}`,
          `install ${interp || 'an interpreter'} or fix the #! line of ${file}`,
        );
        return false;
      }
      if (/\/env$/.test(interp) && r.argument) {
        const cmd = r.argument.split(/\s+/).find((w) => !w.startsWith('-'));
        if (cmd && !findOnDefaultPath(cmd)) {
          add(
            'warning',
            'interpreter-not-on-default-path',
            `runs "${cmd}" through env, but the runtime starts plugins without PATH and ${cmd} is not in /bin or /usr/bin`,
            `use an absolute interpreter path in the #! line of ${file}`,
          );
        }
      }
      return true;
    }
    case 'empty':
    case 'unknown':
      add(
        'error',
        'not-runnable',
        `${r.kind === 'empty' ? 'empty file' : 'neither an ELF binary nor a #! script'}; ${LAUNCH_FAILS}`,
        `replace ${entry} with the plugin binary`,
      );
      return false;
    case 'unreadable':
      if (deniedToUs(r.reason)) {
        add(
          'warning',
          'not-checked',
          `not checked: whether it can run (${r.reason}: uid ${process.getuid?.() ?? '?'} may not read it; the runtime, as root, can)`,
          'run nrictl as root to check it',
        );
        return true;
      }
      add(
        'warning',
        'unreadable',
        `cannot read its first bytes (${r.reason}) to tell whether it runs`,
        `check the permissions of ${file}`,
      );
      return true;
  }
}

function duplicateFindings(planned: PlannedPlugin[]): Finding[] {
  const out: Finding[] = [];
  const byIndex = groupBy(planned, (p) => p.index);
  for (const [index, group] of byIndex) {
    if (group.length < 2) continue;
    for (const p of group) {
      out.push(
        finding(
          'warning',
          p.path,
          'duplicate-index',
          `index ${index} is shared with ${group
            .filter((q) => q !== p)
            .map((q) => q.file)
            .join(', ')}: the runtime runs them in no defined order`,
          'give each plugin its own index',
        ),
      );
    }
  }
  const byName = groupBy(planned, (p) => p.name);
  for (const [name, group] of byName) {
    if (group.length < 2) continue;
    for (const p of group) {
      out.push(
        finding(
          'warning',
          p.path,
          'duplicate-name',
          `name "${name}" is also used by ${group
            .filter((q) => q !== p)
            .map((q) => q.file)
            .join(
              ', ',
            )}: containerd and CRI-O run both (and both may read ${name}.conf); iSulad keeps only one of them`,
          'give each plugin its own name',
        ),
      );
    }
  }
  return out;
}

function groupBy<T>(items: T[], key: (t: T) => string): Map<string, T[]> {
  const m = new Map<string, T[]>();
  for (const it of items) {
    const k = key(it);
    const list = m.get(k);
    if (list) list.push(it);
    else m.set(k, [it]);
  }
  return m;
}
