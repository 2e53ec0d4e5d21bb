// Messages quote what they refuse, but never all of it: a 200 KB value in a scenario
// must not become a 200 KB "one-line" error.

/** The text as it is when short, else its first `max` characters and an ellipsis; line breaks shown as \n. */
export function excerpt(text: string, max = 60): string {
  const head = text.length > max ? text.slice(0, max) : text;
  const shown = head.replace(/\r?\n/g, '\\n');
  return text.length > max ? `${shown}…` : shown;
}
