import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { CheckPathError, pathErrorFrom } from '../errors.js';
import { deniedToUs } from '../permissions.js';
import type { RuntimeKind } from '../finding.js';
import { lintContainerd } from './containerd.js';
import { lintCrio } from './crio.js';
import { lintIsulad } from './isulad.js';
import type { RuntimeConfigReport } from './schema.js';

export type { NriSettings, RuntimeConfigReport } from './schema.js';
export { nearestKey } from './keys.js';

/** Where each runtime keeps its configuration, relative to the node's root. */
export const RUNTIME_CONFIG_LOCATIONS = {
  containerd: ['/etc/containerd/config.toml'],
  crio: ['/etc/crio/crio.conf'],
  crioDropIns: '/etc/crio/crio.conf.d',
  isulad: ['/etc/isulad/daemon.json'],
} as const;

/**
 * Recognises a runtime config by its name first, its content second: JSON is iSulad's
 * daemon.json, TOML with a [crio...] table is CRI-O, other TOML is containerd.
 */
export function detectFormat(file: string, text: string): RuntimeKind | undefined {
  const name = basename(file);
  const trimmed = text.trimStart();
  if (name.endsWith('.json') || trimmed.startsWith('{')) return 'isulad';
  if (/^\s*\[\s*crio(\.|\s*\])/m.test(text) || /^\s*\[\s*"crio"/m.test(text)) return 'crio';
  if (name === 'crio.conf' || basename(dirname(file)) === 'crio.conf.d') return 'crio';
  if (/^\s*\[\s*plugins/m.test(text) || /^\s*version\s*=/m.test(text) || name.endsWith('.toml')) return 'containerd';
  return undefined;
}

function readConfig(file: string): string {
  try {
    if (statSync(file).isDirectory())
      throw new CheckPathError(file, 'not-a-file', undefined, { role: 'runtime config' });
    return readFileSync(file, 'utf8');
  } catch (err) {
    if (err instanceof CheckPathError) throw err;
    throw pathErrorFrom(file, err, 'runtime config');
  }
}

export class UnknownConfigFormatError extends Error {
  constructor(readonly file: string) {
    super(`${file} is neither containerd's config.toml, CRI-O's crio.conf nor iSulad's daemon.json`);
    this.name = 'UnknownConfigFormatError';
  }
}

/** Lints one runtime configuration file. Throws CheckPathError or UnknownConfigFormatError. */
export function lintRuntimeConfig(file: string): RuntimeConfigReport {
  const text = readConfig(file);
  switch (detectFormat(file, text)) {
    case 'isulad':
      return lintIsulad(file, text);
    case 'crio':
      return lintCrio([{ file, text }])[0];
    case 'containerd':
      return lintContainerd(file, text);
    default:
      throw new UnknownConfigFormatError(file);
  }
}

/**
 * Lints several files; CRI-O files are read together, in the order CRI-O applies them,
 * so that drop-ins override crio.conf.
 */
export function lintRuntimeConfigs(files: string[]): RuntimeConfigReport[] {
  const crio: Array<{ file: string; text: string }> = [];
  const reports: RuntimeConfigReport[] = [];
  for (const file of files) {
    const text = readConfig(file);
    const format = detectFormat(file, text);
    if (format === 'crio') crio.push({ file, text });
    else if (format === 'isulad') reports.push(lintIsulad(file, text));
    else if (format === 'containerd') reports.push(lintContainerd(file, text));
    else throw new UnknownConfigFormatError(file);
  }
  if (crio.length) {
    const ordered = [...crio].sort(
      (a, b) => crioRank(a.file) - crioRank(b.file) || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0),
    );
    reports.push(...lintCrio(ordered));
  }
  return reports;
}

function crioRank(file: string): number {
  return basename(dirname(file)) === 'crio.conf.d' ? 1 : 0;
}

/**
 * The runtime configuration files present on this node (under `root`, for tests).
 * Throws CheckPathError for CRI-O's drop-in directory when only root may list it.
 */
export function findRuntimeConfigs(root = '/'): string[] {
  const at = (p: string) => join(root, p);
  const found: string[] = [];
  for (const p of [...RUNTIME_CONFIG_LOCATIONS.containerd, ...RUNTIME_CONFIG_LOCATIONS.crio])
    if (present(at(p))) found.push(at(p));
  const dropIns = at(RUNTIME_CONFIG_LOCATIONS.crioDropIns);
  try {
    for (const f of readdirSync(dropIns)
      .filter((f) => f.endsWith('.conf'))
      .sort())
      found.push(join(dropIns, f));
  } catch (err) {
    // No drop-in directory is fine; one we may not list may hold the settings that count.
    if (deniedToUs((err as NodeJS.ErrnoException).code)) throw pathErrorFrom(dropIns, err, 'runtime config');
  }
  for (const p of RUNTIME_CONFIG_LOCATIONS.isulad) if (present(at(p))) found.push(at(p));
  return found;
}

// existsSync says false when a directory on the way shuts us out; then the file may well
// be there for the runtime, and reading it will say that it cannot be read.
function present(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code !== 'ENOENT' && code !== 'ENOTDIR';
  }
}
