// YAML or JSON documents that nrictl reads as input: scenarios and expectation files.
// YAML is read with js-yaml and its core schema, the YAML 1.2 core that the `yaml` library
// reads too (no timestamps, no merge keys, duplicate keys refused): it reads a 25 MB
// scenario in about a second in some 200 MB, where `yaml`'s document model took 13 s and
// 1.3 GB (bench/scenario-load.bench.ts). JSON goes to JSON.parse.
import type { ErrorKind } from '../errors/index.js';
import { createRequire } from 'node:module';
import { excerpt } from '../units/index.js';

type JsYaml = typeof import('js-yaml');
let jsYaml: JsYaml | undefined;

// Loaded on first use: the offline checks that never read a document do not pay for it.
function loadJsYaml(): JsYaml {
  jsYaml ??= createRequire(import.meta.url)('js-yaml') as JsYaml;
  return jsYaml;
}

/**
 * The deepest nesting of maps and lists read. Real documents stay under ten levels; a
 * parser that recurses per level ends in a stack overflow somewhere past a thousand, with
 * a message about the stack and a wrong position.
 */
export const MAX_NESTING = 100;

/** Text that is not a YAML or JSON document nrictl can read; `problem` says why, in one line. */
export class InputDocumentError extends Error {
  override readonly name = 'InputDocumentError';
  readonly kind: ErrorKind = 'usage';
  constructor(
    /** "line 3, column 7: duplicated mapping key", or "nested deeper than 100 levels at line 1". */
    readonly problem: string,
    /** 1-based, when known. */
    readonly line: number | undefined,
    readonly column: number | undefined,
    readonly reason: 'syntax' | 'too-deep',
    options?: { cause?: unknown },
  ) {
    super(problem, options);
  }
}

interface YamlMark {
  line: number;
  column: number;
}

/**
 * The document in `text` as plain data (maps, lists, strings, numbers, booleans, null);
 * undefined for an empty document. Throws InputDocumentError with a one-line problem
 * that quotes no more than an excerpt of the input.
 */
export function parseInputDocument(text: string): unknown {
  const json = asJson(text);
  if (json.ok) return json.value;
  const yaml = loadJsYaml();
  try {
    return yaml.load(text, { schema: yaml.CORE_SCHEMA, maxDepth: MAX_NESTING } as Parameters<JsYaml['load']>[1]);
  } catch (err) {
    if (err instanceof yaml.YAMLException) {
      const mark = err.mark as YamlMark | undefined;
      const line = mark ? mark.line + 1 : undefined;
      const column = mark ? mark.column + 1 : undefined;
      if (/^nesting exceeded maxDepth/.test(err.reason)) {
        return tooDeep(line, err);
      }
      const where = line === undefined ? '' : `line ${line}, column ${column}: `;
      throw new InputDocumentError(`${where}${excerpt(err.reason, 120)}`, line, column, 'syntax', { cause: err });
    }
    // js-yaml recurses per level; maxDepth stops it long before, but should anything still
    // exhaust the stack, say so instead of passing V8's message on.
    if (err instanceof RangeError) return tooDeep(undefined, err);
    throw err;
  }
}

/**
 * JSON is read by JSON.parse when it is JSON: native, twice as fast again, and never
 * recursive. Duplicate keys pass there (the last wins, as in Go's encoding/json); nesting
 * is bounded as for YAML, by a walk that needs no stack. Anything else, or JSON nested
 * too deeply, goes to the YAML parser, which says what and where.
 */
function asJson(text: string): { ok: true; value: unknown } | { ok: false } {
  const c = /\S/.exec(text.slice(0, 1024))?.[0];
  if (c !== '{' && c !== '[') return { ok: false };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false };
  }
  return nestedDeeperThan(value, MAX_NESTING) ? { ok: false } : { ok: true, value };
}

/** Whether a JSON value nests maps and lists more than `max` deep; an explicit stack, no recursion. */
function nestedDeeperThan(root: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[root, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (depth > max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}

function tooDeep(line: number | undefined, cause: unknown): never {
  throw new InputDocumentError(
    `nested deeper than ${MAX_NESTING} levels${line === undefined ? '' : ` at line ${line}`}`,
    line,
    undefined,
    'too-deep',
    { cause },
  );
}

/**
 * Where a document nests deeper than MAX_NESTING: "nested deeper than 100 levels at line
 * 1", or undefined. Errors other than depth are left to whoever parses the text.
 */
export function nestingProblem(text: string): string | undefined {
  try {
    parseInputDocument(text);
    return undefined;
  } catch (err) {
    if (err instanceof InputDocumentError && err.reason === 'too-deep') return err.problem;
    return undefined;
  }
}
