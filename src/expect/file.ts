// Expectation files: a scenario plus what must hold after named steps. YAML or JSON.
//
//   scenario: scenario.yaml          # relative to this file (or --scenario)
//   no-plugin-failures: true         # no plugin timed out, was dropped or failed a request
//   expect:
//     - after: create ctr-web        # "<step kind> <id>" or the step's number (1-based)
//       result: succeeded            # or failed
//       container: ctr-web           # default: the container the step names
//       env: { GREETING: hello, DEBUG: null }       # null: must be absent
//       annotations: { example.com/seen: web }
//       mounts: [{ destination: /data, source: /srv/data }]   # the fields given must match
//       devices: [{ path: /dev/fuse }]
//       rlimits: [{ type: RLIMIT_NOFILE, soft: 1024, hard: 1024 }]
//       resources: { cpus: "0-1", memory_limit: 268435456 }  # scenario keys
//       conflict: [10-a, 20-b]       # these two plugins conflicted during the step
import type { ErrorKind } from '../errors/index.js';
import path from 'node:path';
import type { nri } from '../api/index.js';
import {
  INPUT_LIMITS,
  InputDocumentError,
  InputFileError,
  parseInputDocument,
  readInputFile,
} from '../checks/index.js';
import { excerptKey } from '../units/index.js';

export class ExpectationError extends Error {
  override readonly name = 'ExpectationError';
  readonly kind: ErrorKind = 'usage';
  constructor(
    message: string,
    readonly file: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export interface Expectation {
  /** Where in the file, for messages: "expect[2]". */
  where: string;
  after: string | number;
  result?: 'succeeded' | 'failed';
  container?: string;
  env?: Record<string, string | null>;
  annotations?: Record<string, string | null>;
  mounts?: Array<Record<string, unknown>>;
  devices?: Array<Record<string, unknown>>;
  rlimits?: Array<Record<string, unknown>>;
  /** The user's keys, each parsed alone, so a difference is reported under the key written. */
  resources?: Array<{ key: string; value: unknown; parsed: nri.ILinuxResources }>;
  conflict?: [string, string];
}

export interface ExpectationFile {
  file: string;
  scenario?: string;
  noPluginFailures: boolean;
  expectations: Expectation[];
}

const TOP_KEYS = ['scenario', 'no-plugin-failures', 'expect'];
const ITEM_KEYS = [
  'after',
  'result',
  'container',
  'env',
  'annotations',
  'mounts',
  'devices',
  'rlimits',
  'resources',
  'conflict',
];

const isMap = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function parseExpectations(
  text: string,
  file: string,
  parseResources: (v: unknown, file: string, path: string) => nri.ILinuxResources,
): ExpectationFile {
  const fail = (where: string, problem: string): never => {
    throw new ExpectationError(`${file}: ${where}: ${problem}`, file);
  };
  let doc: unknown;
  try {
    doc = parseInputDocument(text);
  } catch (err) {
    if (!(err instanceof InputDocumentError)) throw err;
    throw new ExpectationError(`${file}: ${err.problem} (fix the YAML/JSON syntax there)`, file, { cause: err });
  }
  if (!isMap(doc)) fail('(top level)', 'expected a map with expect: and optionally scenario: and no-plugin-failures:');
  const top = doc as Record<string, unknown>;
  for (const k of Object.keys(top))
    if (!TOP_KEYS.includes(k)) fail(excerptKey(k, 40), `unknown key (known: ${TOP_KEYS.join(', ')})`);
  const items = top.expect ?? [];
  if (!Array.isArray(items)) fail('expect', 'expected a list of "- after: STEP ..." entries');
  const scalar = (v: unknown, where: string): string => {
    if (typeof v === 'object' || typeof v === 'function')
      fail(where, 'expected a single value (a string or a number), not a list or a map');
    return String(v);
  };
  const stringMap = (v: unknown, where: string): Record<string, string | null> => {
    if (!isMap(v)) fail(where, 'expected a map of NAME: value (null: must be absent)');
    const out: Record<string, string | null> = {};
    for (const [k, val] of Object.entries(v as Record<string, unknown>))
      out[k] = val === null ? null : scalar(val, `${where}.${excerptKey(k, 40)}`);
    return out;
  };
  const list = (v: unknown, where: string, key: string): Array<Record<string, unknown>> => {
    if (!Array.isArray(v) || !v.every((x) => isMap(x) && x[key] !== undefined))
      fail(where, `expected a list of maps, each with ${key}:`);
    return v as Array<Record<string, unknown>>;
  };
  const expectations = (items as unknown[]).map((raw, i): Expectation => {
    const where = `expect[${i}]`;
    if (!isMap(raw)) fail(where, 'expected a map starting with after: STEP');
    const m = raw as Record<string, unknown>;
    for (const k of Object.keys(m))
      if (!ITEM_KEYS.includes(k)) fail(`${where}.${excerptKey(k, 40)}`, `unknown key (known: ${ITEM_KEYS.join(', ')})`);
    const after = m.after;
    if (typeof after !== 'string' && !(typeof after === 'number' && Number.isInteger(after) && after > 0)) {
      fail(`${where}.after`, 'missing: name the step as "<kind> <id>" (e.g. create ctr-web) or its number');
    }
    const e: Expectation = { where, after: after as string | number };
    if (m.result !== undefined) {
      if (m.result !== 'succeeded' && m.result !== 'failed') fail(`${where}.result`, 'expected succeeded or failed');
      e.result = m.result as 'succeeded' | 'failed';
    }
    if (m.container !== undefined) e.container = scalar(m.container, `${where}.container`);
    if (m.env !== undefined) e.env = stringMap(m.env, `${where}.env`);
    if (m.annotations !== undefined) e.annotations = stringMap(m.annotations, `${where}.annotations`);
    if (m.mounts !== undefined) e.mounts = list(m.mounts, `${where}.mounts`, 'destination');
    if (m.devices !== undefined) e.devices = list(m.devices, `${where}.devices`, 'path');
    if (m.rlimits !== undefined) e.rlimits = list(m.rlimits, `${where}.rlimits`, 'type');
    if (m.resources !== undefined) {
      if (!isMap(m.resources)) fail(`${where}.resources`, 'expected a map of scenario resource keys, e.g. cpus: "0-1"');
      e.resources = Object.entries(m.resources as Record<string, unknown>).map(([key, value]) => ({
        key,
        value,
        parsed: parseResources({ [key]: value }, file, `${where}.resources`),
      }));
    }
    if (m.conflict !== undefined) {
      const c = m.conflict;
      if (!Array.isArray(c) || c.length !== 2 || !c.every((p) => typeof p === 'string'))
        fail(`${where}.conflict`, 'expected the two plugins, e.g. [10-a, 20-b]');
      e.conflict = c as [string, string];
    }
    return e;
  });
  const npf = top['no-plugin-failures'];
  if (npf !== undefined && typeof npf !== 'boolean') fail('no-plugin-failures', 'expected true or false');
  const scenario = top.scenario;
  if (scenario !== undefined && typeof scenario !== 'string') fail('scenario', 'expected a file path');
  return {
    file,
    ...(typeof scenario === 'string' ? { scenario: path.resolve(path.dirname(file), scenario) } : {}),
    noPluginFailures: npf === true,
    expectations,
  };
}

/**
 * Reads an expectation file: a regular file of at most INPUT_LIMITS.expectations bytes
 * (64 MiB), refused before it is read otherwise.
 */
export async function loadExpectations(
  file: string,
  parseResources: (v: unknown, file: string, path: string) => nri.ILinuxResources,
): Promise<ExpectationFile> {
  let text: string;
  try {
    text = readInputFile(file, { what: 'expectation file', maxBytes: INPUT_LIMITS.expectations });
  } catch (err) {
    if (!(err instanceof InputFileError)) throw err;
    const fix =
      err.reason === 'missing'
        ? 'check the path'
        : err.reason === 'too-large'
          ? 'split it into smaller files'
          : err.reason === 'unreadable'
            ? 'check its permissions'
            : 'give the path of a regular file';
    throw new ExpectationError(`${file}: cannot read the expectation file: it ${err.problem} (${fix})`, file, {
      cause: err,
    });
  }
  return Promise.resolve(parseExpectations(text, file, parseResources));
}
