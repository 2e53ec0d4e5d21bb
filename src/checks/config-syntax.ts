import { parseDocument } from 'yaml';

/**
 * Whether a plugin configuration parses as YAML (JSON being a subset). The runtime does
 * not care: it passes the text through; most plugins parse it as one of these.
 */
export function configSyntaxError(text: string): string | undefined {
  if (text.trim() === '') return undefined;
  const doc = parseDocument(text, { prettyErrors: false, uniqueKeys: true });
  const err = doc.errors[0];
  if (!err) return undefined;
  const line = err.linePos?.[0]?.line;
  return `${line ? `line ${line}: ` : ''}${err.message.split('\n')[0]}`;
}
