// Messages quote what they refuse, but never all of it: a 200 KB value in a scenario
// must not become a 200 KB "one-line" error.

const ESCAPES: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * The text as it is when short, else its first `max` characters and an ellipsis. Line
 * breaks and other control characters are shown escaped (\n, \u0000), so that a quote
 * never breaks the one line it is in.
 */
export function excerpt(text: string, max = 60): string {
  const head = text.length > max ? text.slice(0, max) : text;
  // eslint-disable-next-line no-control-regex -- the control characters are what is matched
  const shown = head.replace(/[\u0000-\u001f\u007f\u0085\u2028\u2029]/g, (c) => {
    return ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
  return text.length > max ? `${shown}…` : shown;
}
