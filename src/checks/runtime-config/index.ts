import type { ErrorKind } from '../../errors/index.js';
import { readdirSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { CheckPathError, pathErrorFrom } from '../errors.js';
import { deniedToUs } from '../permissions.js';
import { KIND_LABEL } from '../entry.js';
import { finding, type Finding, type RuntimeKind } from '../finding.js';
import { INPUT_LIMITS, InputFileError, readInputFile } from '../input-file.js';
import { lintContainerd } from './containerd.js';
import { lintCrio } from './crio.js';
import { lintDocker, type DockerdCommandLine } from './docker.js';
import { lintIsulad } from './isulad.js';
import type { RuntimeConfigReport } from './schema.js';

export type { NriSettings, RuntimeConfigReport } from './schema.js';
export { type DockerdCommandLine } from './docker.js';
export { findDockerd } from './dockerd-process.js';
export { DEFAULT_CRI_SOCKETS } from './cri-socket.js';

/** Where each runtime keeps its configuration, relative to the node's root. */
const RUNTIME_CONFIG_LOCATIONS = {
  containerd: ['/etc/containerd/config.toml'],
  crio: ['/etc/crio/crio.conf'],
  crioDropIns: '/etc/crio/crio.conf.d',
  isulad: ['/etc/isulad/daemon.json'],
  docker: ['/etc/docker/daemon.json'],
} as const;

// Keys only one of the two daemon.json files has: Docker's NRI lives in "nri-opts",
// iSulad's in top-level keys; the others are each daemon's own everyday settings.
const DOCKER_KEYS = [
  'nri-opts',
  'data-root',
  'exec-opts',
  'features',
  'builder',
  'default-address-pools',
  'userland-proxy',
];
const ISULAD_KEYS = [
  'nri-support',
  'enable-cri-v1',
  'disable-connections',
  'plugin-path',
  'plugin-config-path',
  'plugin-registration-timeout',
  'plugin-request-timeout',
  'plugin-requst-timeout',
  'pod-sandbox-image',
  'network-plugin',
  'cni-bin-dir',
  'cni-conf-dir',
  'native.umask',
  'image-layer-check',
  'engine',
  'graph',
  'state',
];

/**
 * Whose daemon.json this is, by its keys: Docker's and iSulad's files share a name and a
 * format. Where the keys say nothing either way (or both ways), the directory decides
 * (/etc/docker, /etc/isulad); failing that, iSulad's, as nrictl always read it.
 */
function daemonJsonOf(file: string, text: string): 'docker' | 'isulad' {
  let keys: string[] = [];
  try {
    const doc: unknown = JSON.parse(text);
    if (doc !== null && typeof doc === 'object' && !Array.isArray(doc)) keys = Object.keys(doc);
  } catch {
    // Not JSON: the lint of whichever runtime says so.
  }
  const docker = keys.some((k) => DOCKER_KEYS.includes(k));
  const isulad = keys.some((k) => ISULAD_KEYS.includes(k));
  if (docker !== isulad) return docker ? 'docker' : 'isulad';
  return basename(dirname(file)) === 'docker' ? 'docker' : 'isulad';
}

/**
 * Recognises a runtime config by its name first, its content second: JSON is a
 * daemon.json, Docker's or iSulad's by its keys; TOML with a [crio...] table is CRI-O,
 * other TOML is containerd.
 */
function detectFormat(file: string, text: string): RuntimeKind | undefined {
  const name = basename(file);
  const trimmed = text.trimStart();
  if (name.endsWith('.json') || trimmed.startsWith('{')) return daemonJsonOf(file, text);
  if (/^\s*\[\s*crio(\.|\s*\])/m.test(text) || /^\s*\[\s*"crio"/m.test(text)) return 'crio';
  if (name === 'crio.conf' || basename(dirname(file)) === 'crio.conf.d') return 'crio';
  if (/^\s*\[\s*plugins/m.test(text) || /^\s*version\s*=/m.test(text) || name.endsWith('.toml')) return 'containerd';
  return undefined;
}

/**
 * The config's text, read as the other inputs are (src/checks/input-file.ts). A FIFO,
 * socket or device, or a file over INPUT_LIMITS.runtimeConfig, is a finding on that file
 * (its text taken as empty) when its name says which runtime it belongs to; a path the
 * checks cannot use at all throws CheckPathError.
 */
function readConfig(file: string): { text: string; unusable?: Finding } {
  try {
    return { text: readInputFile(file, { what: 'runtime config', maxBytes: INPUT_LIMITS.runtimeConfig }) };
  } catch (err) {
    if (!(err instanceof InputFileError)) throw err;
    const role = { role: 'runtime config', cause: err };
    switch (err.reason) {
      case 'missing':
      case 'unreadable':
        throw pathErrorFrom(file, err.details.cause ?? err, 'runtime config');
      case 'directory':
        throw new CheckPathError(file, 'not-a-file', undefined, role);
      case 'not-a-regular-file':
        if (detectFormat(file, '') === undefined)
          throw new CheckPathError(file, 'not-a-file', `a ${KIND_LABEL[err.details.fileKind ?? 'other']}`, role);
        return {
          text: '',
          unusable: finding(
            'error',
            file,
            'runtime-config-not-a-regular-file',
            `${err.problem}: the runtime blocks or fails reading its configuration at start; nrictl does not open it`,
            'make it a regular file',
          ),
        };
      case 'too-large':
        if (detectFormat(file, '') === undefined) throw new CheckPathError(file, 'unreadable', err.problem, role);
        return {
          text: '',
          unusable: finding(
            'warning',
            file,
            'runtime-config-too-large',
            `not checked: it ${err.problem} for a runtime config`,
            'check that this is the runtime config you meant',
          ),
        };
    }
  }
}

/** The report of a config nrictl did not read: its settings as an empty file gives them, and the one finding. */
function unusableReport(report: RuntimeConfigReport, unusable: Finding): RuntimeConfigReport {
  return { ...report, findings: [unusable] };
}

export class UnknownConfigFormatError extends Error {
  readonly kind: ErrorKind = 'usage';
  constructor(readonly file: string) {
    super(`${file} is neither containerd's config.toml, CRI-O's crio.conf nor iSulad's or Docker's daemon.json`);
    this.name = 'UnknownConfigFormatError';
  }
}

/** Lints one runtime configuration file. Throws CheckPathError or UnknownConfigFormatError. */
export function lintRuntimeConfig(file: string): RuntimeConfigReport {
  return lintRuntimeConfigs([file])[0];
}

/**
 * Lints several files; CRI-O files are read together, in the order CRI-O applies them,
 * so that drop-ins override crio.conf.
 */
export function lintRuntimeConfigs(files: string[], dockerd?: DockerdCommandLine): RuntimeConfigReport[] {
  const crio: Array<{ file: string; text: string }> = [];
  const reports: RuntimeConfigReport[] = [];
  const unusable = new Map<string, Finding>();
  for (const file of files) {
    const read = readConfig(file);
    if (read.unusable) unusable.set(file, read.unusable);
    const format = detectFormat(file, read.text);
    if (format === 'crio') crio.push({ file, text: read.text });
    else if (format === 'isulad') reports.push(lintIsulad(file, read.text));
    else if (format === 'docker') reports.push(lintDocker(file, read.text, dockerd));
    else if (format === 'containerd') reports.push(lintContainerd(file, read.text));
    else throw new UnknownConfigFormatError(file);
  }
  if (crio.length) {
    const ordered = [...crio].sort(
      (a, b) => crioRank(a.file) - crioRank(b.file) || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0),
    );
    reports.push(...lintCrio(ordered));
  }
  return reports.map((r) => {
    const f = unusable.get(r.file);
    return f ? unusableReport(r, f) : r;
  });
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
  for (const p of [...RUNTIME_CONFIG_LOCATIONS.isulad, ...RUNTIME_CONFIG_LOCATIONS.docker])
    if (present(at(p))) found.push(at(p));
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
