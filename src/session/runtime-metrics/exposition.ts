// The Prometheus text exposition format (version 0.0.4), read: the samples of a scrape.
// prom-client only writes the format, and the one parser found on npm
// (parse-prometheus-text-format 1.1.1, one maintainer) was not a clear enough fit for a
// dependency; nrictl needs only the samples, so this is a small strict reader of the
// format as client_golang writes it. HELP and TYPE lines, comments and
// timestamps are skipped; a line that is not a sample is an error naming its line number.
import type { ErrorKind } from '../../errors/index.js';

export interface Sample {
  name: string;
  labels: Record<string, string>;
  /** +Inf, -Inf and NaN as the format writes them. */
  value: number;
}

/** A page that is not in the text format: nothing of it is used (scrapes wrap it in RuntimeMetricsError). */
export class ExpositionError extends Error {
  override readonly name = 'ExpositionError';
  readonly kind: ErrorKind = 'failed';
  constructor(
    readonly line: number,
    reason: string,
  ) {
    super(`line ${line}: ${reason}`);
  }
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*/;

/** Every sample of an exposition, in order. Throws ExpositionError on the first malformed line. */
export function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].replace(/\r$/, '').trim();
    if (line === '' || line.startsWith('#')) continue;
    samples.push(parseSample(line, i + 1));
  }
  return samples;
}

function parseSample(line: string, at: number): Sample {
  const name = NAME.exec(line)?.[0];
  if (!name) throw new ExpositionError(at, 'not a metric name at the start of the line');
  let rest = line.slice(name.length);
  let labels: Record<string, string> = {};
  if (rest.startsWith('{')) {
    const read = parseLabels(rest, at);
    labels = read.labels;
    rest = rest.slice(read.length);
  }
  const fields = rest.trim().split(/[ \t]+/);
  if (fields.length < 1 || fields.length > 2 || fields[0] === '')
    throw new ExpositionError(at, `expected a value (and an optional timestamp) after ${name}`);
  const value = parseValue(fields[0]);
  if (value === undefined) throw new ExpositionError(at, `"${fields[0].slice(0, 40)}" is not a number`);
  return { name, labels, value };
}

/** `{a="x",b="y\"z"}` from the start of `text`: the labels and the characters read. */
function parseLabels(text: string, at: number): { labels: Record<string, string>; length: number } {
  const labels: Record<string, string> = Object.create(null) as Record<string, string>;
  let i = 1;
  const skipBlanks = () => {
    while (text[i] === ' ' || text[i] === '\t') i++;
  };
  for (;;) {
    skipBlanks();
    if (text[i] === '}') return { labels: { ...labels }, length: i + 1 };
    const label = LABEL_NAME.exec(text.slice(i))?.[0];
    if (!label) throw new ExpositionError(at, 'expected a label name');
    i += label.length;
    skipBlanks();
    if (text[i] !== '=') throw new ExpositionError(at, `expected = after label ${label}`);
    i++;
    skipBlanks();
    if (text[i] !== '"') throw new ExpositionError(at, `expected a quoted value for label ${label}`);
    i++;
    let value = '';
    for (;;) {
      const c = text[i];
      if (c === undefined) throw new ExpositionError(at, `the value of label ${label} is not closed`);
      i++;
      if (c === '"') break;
      if (c !== '\\') {
        value += c;
        continue;
      }
      const e = text[i++];
      if (e === 'n') value += '\n';
      else if (e === '\\' || e === '"') value += e;
      else throw new ExpositionError(at, `unknown escape \\${e ?? ''} in label ${label}`);
    }
    labels[label] = value;
    skipBlanks();
    if (text[i] === ',') i++;
    else if (text[i] !== '}') throw new ExpositionError(at, `expected , or } after label ${label}`);
  }
}

function parseValue(text: string): number | undefined {
  if (text === '+Inf' || text === 'Inf') return Infinity;
  if (text === '-Inf') return -Infinity;
  if (text === 'NaN') return NaN;
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text)) return undefined;
  return Number(text);
}
