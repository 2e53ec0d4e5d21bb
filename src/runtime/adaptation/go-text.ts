// The Go runtime library's wording of the errors a runtime gets back from it, so that
// what the simulator reports reads as containerd or CRI-O would log it. Only the
// formatting lives here; which error is raised where is the adaptation's.
import { TtrpcError, codeName } from '../../ttrpc/index.js';

const GO_ESCAPES: Readonly<Record<string, string>> = {
  '\x07': '\\a',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\v': '\\v',
  '"': '\\"',
  '\\': '\\\\',
};

/** Go's %q of a string (strconv.Quote) for the characters plugin names and keys hold. */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const escaped = GO_ESCAPES[ch];
    if (escaped !== undefined) out += escaped;
    else {
      const cp = ch.codePointAt(0)!;
      if (cp < 0x20 || cp === 0x7f) out += `\\x${cp.toString(16).padStart(2, '0')}`;
      else out += ch;
    }
  }
  return `${out}"`;
}

/**
 * A ttrpc status as Go's status error prints it (google.golang.org/grpc/status): the
 * text a Go runtime gets when a plugin answers a request with an error.
 */
export function goStatusText(err: TtrpcError): string {
  return `rpc error: code = ${codeName(err.code)} desc = ${err.statusMessage}`;
}

/** The status error under a wrapped failure, as Go would print it; else the failure's own message. */
export function goErrorText(err: unknown): string {
  for (let e: unknown = err; e instanceof Error; e = e.cause) {
    if (e instanceof TtrpcError) return goStatusText(e);
  }
  return (err as Error).message;
}
