// Prose for people, fitted to a width at spaces: a word is never cut (a path or a command
// in it stays whole, on a line of its own if it must). Without a width (a pipe, a file)
// nothing is wrapped. Words are measured before they are coloured: escape codes take no
// room on the screen.

/** Colours a piece of text (chalk.bold, chalk.dim, ...). */
export type Paint = (text: string) => string;

/** A run of text in one colour. */
export interface Span {
  text: string;
  paint?: Paint | undefined;
}

/** Greedy word wrap; a word longer than the width gets a line of its own, whole. */
export function wrapWords<W extends { length: number }>(words: readonly W[], width: number | undefined): W[][] {
  if (width === undefined) return [words.slice()];
  const lines: W[][] = [];
  let line: W[] = [];
  let length = 0;
  for (const word of words) {
    if (line.length > 0 && length + 1 + word.length > width) {
      lines.push(line);
      line = [];
      length = 0;
    }
    length += (line.length > 0 ? 1 : 0) + word.length;
    line.push(word);
  }
  if (line.length > 0) lines.push(line);
  return lines;
}

/**
 * Plain text fitted to `width`: the first line starts with `lead` ("  fix: "), the lines
 * after it are indented by `hang` spaces so that they line up under the text. Gives the
 * lines; without a width, the one line as it is.
 */
export function wrapText(text: string, width: number | undefined, lead = '', hang = 0): string[] {
  const words = text.split(' ').filter(Boolean);
  if (width === undefined || words.length === 0) return [`${lead}${text}`];
  const first = wrapWords(words, Math.max(width - lead.length, 1))[0];
  const rest = wrapWords(words.slice(first.length), Math.max(width - hang, 1));
  return [`${lead}${first.join(' ')}`, ...rest.map((w) => `${' '.repeat(hang)}${w.join(' ')}`)];
}

/**
 * Coloured prose fitted to `width` at spaces, later lines indented by `hang`. A word may
 * be made of pieces of several spans ("path" bold, "(note)" dim). Without a width the
 * spans are written as they are, on one line.
 */
export function fitSpans(spans: readonly Span[], width: number | undefined, hang = 0): string {
  const paint = (s: Span): string => (s.paint ? s.paint(s.text) : s.text);
  if (width === undefined) return spans.map(paint).join('');
  const words: Array<Span[] & { length: number }> = [];
  let wordOpen = false;
  for (const { text, paint: p } of spans) {
    text.split(' ').forEach((part, i) => {
      if (i > 0) wordOpen = false;
      if (part === '') return;
      const piece = { text: part, paint: p };
      if (wordOpen) words[words.length - 1].push(piece);
      else words.push([piece]);
      wordOpen = true;
    });
  }
  const sized = words.map((pieces) => ({ pieces, length: pieces.reduce((n, s) => n + s.text.length, 0) }));
  if (sized.length === 0) return '';
  const first = wrapWords(sized, width)[0];
  const rest = wrapWords(sized.slice(first.length), Math.max(width - hang, 1));
  const show = (line: typeof sized): string => paintRuns(line.map((w) => w.pieces));
  return [show(first), ...rest.map((line) => `${' '.repeat(hang)}${show(line)}`)].join('\n');
}

/** The words of a line, spaces between them, each run of one colour painted once. */
function paintRuns(words: readonly Span[][]): string {
  const runs: Span[] = [];
  const add = (piece: Span): void => {
    const last = runs.at(-1);
    if (last && last.paint === piece.paint) last.text += piece.text;
    else runs.push({ ...piece });
  };
  words.forEach((pieces, i) => {
    // A space between two words of one colour is of that colour; between two colours, of none.
    if (i > 0) add({ text: ' ', paint: runs.at(-1)?.paint === pieces[0].paint ? pieces[0].paint : undefined });
    pieces.forEach(add);
  });
  return runs.map((r) => (r.paint ? r.paint(r.text) : r.text)).join('');
}

/** A sentence in one colour fitted to `width`; see fitSpans. */
export function fitProse(text: string, width: number | undefined, paint?: Paint, hang = 0): string {
  return fitSpans([{ text, paint }], width, hang);
}
