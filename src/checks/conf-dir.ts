import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { lookupPluginConfig } from './config-lookup.js';
import { configSyntaxError } from './config-syntax.js';
import { kindOf, probeEntry, type EntryFacts, type EntryKind } from './entry.js';
import { InputFileError, notText, readInputBytes, specialFileProblem } from './input-file.js';
import { isMissing, pathErrorFrom } from './errors.js';
import { finding, type Finding, type RuntimeKind, type Severity } from './finding.js';
import { deniedToUs, directoryChainFindings, fileWriteFindings, notCheckedFinding } from './permissions.js';
import { byBytes, DEFAULT_PLUGIN_PATH, listDiscoverable } from './plugin-dir.js';

/** containerd/ttrpc's messageLengthMax: the largest message either side sends or accepts. */
export const TTRPC_MESSAGE_LIMIT = 4 << 20;
/**
 * The largest configuration that fits: the Configure request also carries the ttrpc
 * service and method names, protobuf tags and lengths, the runtime's name and version
 * and two timeouts, well under this margin.
 */
export const CONFIG_SIZE_MAX = TTRPC_MESSAGE_LIMIT - 512;

/** No configuration directory: not a fault (doctor and lint without a path both say so). */
export function confDirMissing(dir: string): Finding {
  return finding(
    'info',
    dir,
    'conf-dir-missing',
    'the plugin configuration directory does not exist: every pre-installed plugin gets an empty configuration',
    'nothing to do, unless plugins should be given a configuration',
  );
}

export interface ConfDirOptions {
  runtime?: RuntimeKind;
  checkOwner?: boolean;
}

export interface ConfFileUse {
  file: string;
  path: string;
  /** Plugins (NN-name) the Go adaptation hands this file to. */
  usedBy: string[];
  /** Plugins for which a more specific NN-name.conf wins over this file. */
  shadowedFor: string[];
}

export interface ConfDirReport {
  dir: string;
  pluginDir: string;
  findings: Finding[];
  files: ConfFileUse[];
}

export function checkConfDir(
  dir: string,
  pluginDir: string = DEFAULT_PLUGIN_PATH,
  opts: ConfDirOptions = {},
): ConfDirReport {
  const checkOwner = opts.checkOwner ?? true;
  const isulad = opts.runtime === 'isulad';
  let files: string[];
  try {
    files = readdirSync(dir).sort(byBytes);
  } catch (err) {
    throw pathErrorFrom(dir, err, 'configuration directory');
  }
  const findings: Finding[] = [...directoryChainFindings(dir, 'config', checkOwner)];
  if (isMissing(pluginDir)) {
    findings.push(
      finding(
        'info',
        pluginDir,
        'plugin-dir-missing',
        'the plugin directory does not exist: the runtime launches no plugin, so no file here is read',
        "pass the runtime's plugin directory with --plugin-dir",
      ),
    );
  }
  // Which plugins there are, we may not see; then no file is called an orphan, and each is
  // judged as if a plugin read it.
  const pluginsUnknown = pluginDirDeniedToUs(pluginDir);
  if (pluginsUnknown)
    findings.push(notCheckedFinding(pluginDir, `which plugins read the files in ${dir}`, pluginsUnknown));

  const usedBy = new Map<string, string[]>();
  const shadowedFor = new Map<string, string[]>();
  const push = (m: Map<string, string[]>, k: string, v: string) => m.set(k, [...(m.get(k) ?? []), v]);
  for (const p of listDiscoverable(pluginDir)) {
    const plugin = `${p.index}-${p.name}`;
    const lookup = lookupPluginConfig(dir, p.index, p.name);
    const chosen = lookup.path ?? lookup.error?.path;
    if (chosen) push(usedBy, chosen, plugin);
    if (chosen === lookup.candidates[0]) push(shadowedFor, lookup.candidates[1], plugin);
  }

  const report: ConfFileUse[] = [];
  for (const file of files) {
    const path = join(dir, file);
    const add = (severity: Severity, code: string, message: string, fix: string) =>
      findings.push(finding(severity, path, code, message, fix));
    let facts: EntryFacts;
    try {
      facts = probeEntry(path);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (deniedToUs(code)) findings.push(notCheckedFinding(path, 'what this entry is, its mode and owner', code!));
      continue;
    }
    const users = usedBy.get(path) ?? [];
    const shadowed = shadowedFor.get(path) ?? [];
    report.push({ file, path, usedBy: users, shadowedFor: shadowed });

    if (!file.endsWith('.conf')) {
      add(
        'info',
        'not-a-conf-file',
        'does not end in .conf: the runtime never reads it',
        'rename it to NN-name.conf if a plugin should get it',
      );
      continue;
    }
    if (facts.self.isDirectory() && users.length === 0) {
      add('info', 'directory-skipped', 'directory: no plugin reads it', 'move it out of the configuration directory');
      continue;
    }

    const readers = users.length > 0 ? users.join(', ') : undefined;
    const special = (kind: EntryKind): void => {
      add(
        readers ? 'error' : 'warning',
        'config-not-a-regular-file',
        readers
          ? `${specialFileProblem(kind)}, and the configuration of ${readers}: the runtime blocks or fails reading it in plugin discovery, and no pre-installed plugin starts`
          : `${specialFileProblem(kind)}; no plugin reads it today, but one named so would block or fail the runtime's plugin discovery; nrictl does not open it`,
        'replace it with a regular file, or remove it',
      );
    };
    // A FIFO, socket or device is judged by stat and never opened: a FIFO blocks its reader.
    if (facts.target && !facts.target.isFile() && !facts.target.isDirectory()) {
      special(kindOf(facts.target));
      continue;
    }

    // Read no more than a plugin could ever receive: past the limit, the size is the finding.
    let tooLarge = facts.target?.isFile() === true && facts.target.size > CONFIG_SIZE_MAX;
    let bytes: Buffer = Buffer.alloc(0);
    try {
      if (!tooLarge) bytes = readInputBytes(path, { what: 'configuration file', maxBytes: CONFIG_SIZE_MAX });
    } catch (err) {
      if (!(err instanceof InputFileError)) throw err;
      if (err.reason === 'too-large') {
        tooLarge = true; // it grew after we looked
      } else if (err.reason === 'not-a-regular-file') {
        special(err.details.fileKind ?? 'other'); // it was replaced after we looked
        continue;
      } else {
        const code = err.code ?? 'EIO';
        if (deniedToUs(code)) {
          findings.push(
            notCheckedFinding(
              path,
              `its syntax and size${users.length > 0 ? ` (the configuration of ${users.join(', ')})` : ''}`,
              code,
            ),
          );
          if (facts.target)
            findings.push(...fileWriteFindings(facts.linkTarget ?? path, facts.target, 'config', checkOwner));
        } else if (code === 'ELOOP') {
          add(
            readers ? 'error' : 'warning',
            'symlink-loop',
            `symlink to ${facts.linkTarget ?? '?'}, a loop of links that never reaches a file (ELOOP)${readers ? `, and the configuration of ${readers}: containerd and CRI-O fail plugin discovery and start no pre-installed plugin` : '; no plugin uses it today'}`,
            'point the link at a regular file, or remove it',
          );
        } else if (code === 'ENOENT') {
          add(
            'warning',
            'dangling-config-link',
            `symlink to ${facts.linkTarget ?? '?'}, which does not exist: the runtime treats the file as absent${/^\d\d-/.test(file) ? ' and falls back to name.conf' : ''}`,
            `fix the link or remove it`,
          );
        } else if (users.length > 0) {
          add(
            'error',
            'config-unreadable',
            `cannot be read (${code}) but is the configuration of ${users.join(', ')}: containerd and CRI-O fail plugin discovery and start no pre-installed plugin`,
            `make it a readable regular file (chmod 0644), or remove it`,
          );
        } else {
          add(
            'warning',
            'config-unreadable',
            `cannot be read (${code}); no plugin uses it today`,
            'make it readable or remove it',
          );
        }
        continue;
      }
    }

    if ((users.length > 0 || pluginsUnknown) && tooLarge) {
      add(
        'warning',
        'config-too-large',
        `${facts.target?.size ?? 'over 4 MiB of'} bytes: the runtime sends a plugin its configuration in one Configure request, which ttrpc limits to ${TTRPC_MESSAGE_LIMIT} bytes (4 MiB) in all; ${users.length > 0 ? users.join(', ') : 'a plugin'} never ${users.length > 1 ? 'get' : 'gets'} it, and Configure fails`,
        `keep it under ${CONFIG_SIZE_MAX} bytes: move bulky data into a file the plugin reads itself`,
      );
    } else if (users.length > 0) {
      add('info', 'config-used', `passed to ${users.join(', ')}`, 'nothing to do');
      if (!/^\d\d-/.test(file)) {
        add(
          isulad ? 'warning' : 'info',
          'isulad-ignores-unindexed-config',
          `iSulad reads only NN-name.conf: with iSulad, ${users.join(', ')} ${users.length > 1 ? 'are' : 'is'} not started`,
          `rename or copy it to ${users.map((u) => `${u}.conf`).join(', ')} when the runtime is iSulad`,
        );
      }
    } else if (pluginsUnknown) {
      // said once, on the plugin directory
    } else if (shadowed.length > 0) {
      add(
        'warning',
        'config-shadowed',
        `never read: ${shadowed.map((s) => `${s}.conf`).join(', ')} ${shadowed.length > 1 ? 'win' : 'wins'} over it`,
        'merge it into the more specific file and remove it',
      );
    } else {
      add(
        'warning',
        'config-orphan',
        `no plugin in ${pluginDir} is named so: the runtime never reads it`,
        'rename it to NN-name.conf or name.conf of an installed plugin, or remove it',
      );
    }

    if (facts.target) findings.push(...fileWriteFindings(facts.linkTarget ?? path, facts.target, 'config', checkOwner));

    // Only text the runtime hands to a plugin is worth parsing: an orphan or a
    // shadowed file is never read, and its finding already says so.
    const handedOn = (users.length > 0 || pluginsUnknown) && !tooLarge;
    const binary = handedOn ? notText(bytes) : undefined;
    if (binary) {
      add(
        'warning',
        'config-not-text',
        binary.kind === 'nul'
          ? `not text (a NUL byte at offset ${binary.offset}): no plugin can read it as YAML or JSON`
          : `not text (bytes that are not UTF-8 at offset ${binary.offset}): no plugin can read it as YAML or JSON, and the runtime sends it in Configure as a protobuf string, which must be UTF-8`,
        `replace ${path} with the plugin's YAML or JSON configuration`,
      );
    }
    const syntax = handedOn && !binary ? configSyntaxError(bytes.toString('utf8')) : undefined;
    if (syntax) {
      add(
        'warning',
        'config-not-yaml',
        `not valid YAML or JSON (${syntax}); the runtime passes the text through as it is, and most plugins will reject it`,
        `fix the syntax of ${path}`,
      );
    }
  }
  return { dir, pluginDir, findings, files: report };
}

/** The errno code when the plugin directory exists but may not be listed by us (root may). */
function pluginDirDeniedToUs(pluginDir: string): string | undefined {
  try {
    readdirSync(pluginDir);
    return undefined;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return deniedToUs(code) ? code : undefined;
  }
}
