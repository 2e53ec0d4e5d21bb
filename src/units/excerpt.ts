// Messages quote what they refuse, but never all of it: a 200 KB value in a scenario
// must not become a 200 KB "one-line" error. A value is cut at its end; a key is cut in
// its middle, since its end ("_timeout", "-path") names it as much as its start; and a
// path of keys keeps the key it leads to, the one the message is about, cutting what
// leads there.

const ESCAPES: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** Line breaks and other control characters escaped (\n, \u0000): a quote never breaks its line. */
function escaped(text: string): string {
  // eslint-disable-next-line no-control-regex -- the control characters are what is matched
  return text.replace(/[\u0000-\u001f\u007f\u0085\u2028\u2029]/g, (c) => {
    return ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
}

/** The text when at most `max` characters, else its start and its end around an ellipsis, `max` in all. */
function middleCut(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = Math.ceil((max - 1) / 2);
  const tail = max - 1 - head;
  return `${text.slice(0, head)}…${text.slice(text.length - tail)}`;
}

/** The text as it is when short, else its first `max` characters and an ellipsis; control characters escaped. */
export function excerpt(text: string, max = 60): string {
  return text.length > max ? `${escaped(text.slice(0, max))}…` : escaped(text);
}

/** A key as it is when short, else cut in its middle to `max` characters; control characters escaped. */
export function excerptKey(key: string, max = 60): string {
  return escaped(middleCut(key, max));
}

/** What a path's last key keeps for what leads to it, at the least, when both must be cut. */
const LEAD_MIN = 15;

/**
 * A path of keys (`plugins."io.containerd.grpc.v1.cri".plugin_request_timeout`, its parts
 * already quoted as the file writes them) for a message about its last key: whole when it
 * fits in `max`; else that key whole and what leads to it cut in its middle. A key that
 * alone leaves less than LEAD_MIN characters for the rest is cut in its middle too.
 */
export function excerptPath(parts: readonly string[], max = 120): string {
  const whole = parts.join('.');
  if (whole.length <= max || parts.length < 2) return excerptKey(whole, max);
  const key = parts[parts.length - 1];
  const lead = parts.slice(0, -1).join('.');
  const keyRoom = Math.min(key.length, max - 1 - LEAD_MIN);
  return escaped(`${middleCut(lead, max - 1 - keyRoom)}.${middleCut(key, keyRoom)}`);
}
