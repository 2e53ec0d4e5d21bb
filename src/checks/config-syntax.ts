import { createRequire } from 'node:module';
import { excerpt } from '../units/index.js';
import { nestingProblem } from './input-document.js';

type YamlModule = typeof import('yaml');
let yaml: YamlModule | undefined;

// The YAML parser costs more to load than a whole directory of JSON files costs to
// parse, so it is loaded (synchronously, through its CommonJS build) only for the
// first file JSON.parse refuses.
function loadYaml(): YamlModule {
  yaml ??= createRequire(import.meta.url)('yaml') as YamlModule;
  return yaml;
}

/**
 * Whether a plugin configuration parses as JSON or YAML. The runtime does not care: it
 * passes the text through; most plugins parse it as one of these. JSON is tried first:
 * it is a subset of YAML, and JSON.parse is native and needs nothing loaded.
 */
export function configSyntaxError(text: string): string | undefined {
  if (text.trim() === '') return undefined;
  if (looksLikeJson(text)) {
    try {
      JSON.parse(text);
      return undefined;
    } catch {
      // Not JSON after all (or broken JSON): the YAML parser decides and words the error.
    }
  }
  // The YAML parser recurses per level: deep enough, it reports a stack overflow at a wrong
  // position, or (a regular expression compiled near the stack's end) aborts the process.
  // Depth is judged first, by a parser that stops at MAX_NESTING.
  const deep = nestingProblem(text);
  if (deep) return deep;
  const doc = loadYaml().parseDocument(text, { prettyErrors: false, uniqueKeys: true });
  const err = doc.errors[0];
  if (!err) return undefined;
  if (err.message.includes('Maximum call stack size exceeded')) return 'nested too deeply to read';
  const line = err.linePos?.[0]?.line;
  return `${line ? `line ${line}: ` : ''}${excerpt(err.message.split('\n')[0], 200)}`;
}

// Only an object or array is worth the attempt: YAML configurations start otherwise.
// Duplicate keys in a JSON file pass (JSON.parse and Go's encoding/json keep the last);
// the YAML path reports them, as yaml.v3 does.
function looksLikeJson(text: string): boolean {
  const c = text.trimStart()[0];
  return c === '{' || c === '[';
}
