// The one output model. A command's library call gives back a typed value; the command
// pairs it with the view that shows that kind of value; this module turns the pair into
// text in the format asked for. Every command speaks the same formats:
//   table  the default, for people (wide: the same with more columns, where there are more)
//   json   one document (or, for a stream, one object per line)
//   yaml   one document (or, for a stream, documents separated by ---)
//   name   one name per line, where the value is a list of pods, containers or plugins
import type { Chunk } from './chunk-writer.js';
import { jsonDocument, jsonLine, yamlDocument, yamlStreamItem } from './format.js';

const OUTPUT_FORMATS = ['table', 'wide', 'json', 'yaml', 'name'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** How people's text is laid out. */
export interface Layout {
  /** Columns to fit, or undefined: a pipe or a file, never wrapped (outputColumns()). */
  width: number | undefined;
  /** -o wide: show the extra columns. */
  wide: boolean;
}

/** How one kind of value is shown, in every format. */
export interface View<T> {
  /** -o table and -o wide. Ends without a newline or with one; the caller adds none. */
  text(value: T, layout: Layout): string;
  /** -o json and -o yaml: the document. Keys in camelCase, NRI messages as protojson writes them. */
  data(value: T): unknown;
  /** -o name, for values that are lists: one name a line. */
  names?(value: T): string[];
  /**
   * For a value too large to render as one string (sync dump of a node): the same text as
   * text() or the data's document, in pieces made as they are asked for, so that the
   * writer hands each on as it comes and waits for a slow reader. undefined for a format
   * it leaves to text(), data() or names().
   */
  chunks?(value: T, format: OutputFormat, layout: Layout): Iterable<Chunk> | undefined;
  /**
   * A line for people on stderr, for what the output itself cannot say: that it is
   * empty and why, what a file now holds. Said after table and wide output, and
   * whenever the output went to a file (`file`).
   */
  note?(value: T, file: string | undefined): string | undefined;
}

/** What a command hands the base command to print: the value, its view, and the status it carries. */
export interface Output<T = unknown> {
  value: T;
  view: View<T>;
  /** Exit code of a check that ran to its end with findings (validate, lint, doctor): 0, 1 or 3. */
  exitCode?: number;
  /** Write the output to this file instead of stdout: atomically, never coloured, never wrapped. */
  file?: string | undefined;
  /**
   * The summary that ends a stream of records (sim): in json and yaml it continues the
   * stream, each item of its data (a list, or one object) one more line or document,
   * instead of being a document of its own that a line-by-line reader could not take.
   */
  endsStream?: boolean;
  /**
   * What ended the operation after its result was made (a stream whose runtime went
   * away): the result is printed, then the error as any other, with its kind's exit code.
   */
  error?: Error | undefined;
}

/** Pairs a value with its view (keeps the two types tied). */
export function output<T>(value: T, view: View<T>, exitCode?: number): Output<T> {
  return exitCode === undefined ? { value, view } : { value, view, exitCode };
}

/** The formats a view can be asked for: name only where it lists names. */
export function formatsOf(view: View<never>): OutputFormat[] {
  return view.names ? [...OUTPUT_FORMATS] : OUTPUT_FORMATS.filter((f) => f !== 'name');
}

/** The whole text of an output in a format. */
export function renderOutput<T>(out: Output<T>, format: OutputFormat, layout: Omit<Layout, 'wide'>): string {
  const { value, view } = out;
  if (out.endsStream && (format === 'json' || format === 'yaml')) {
    const data = view.data(value);
    const items = Array.isArray(data) ? (data as unknown[]) : [data];
    return items.map((item) => (format === 'json' ? jsonLine(item) : yamlStreamItem(item))).join('');
  }
  switch (format) {
    case 'json':
      return jsonDocument(view.data(value));
    case 'yaml':
      return yamlDocument(view.data(value));
    case 'name': {
      const names = view.names?.(value) ?? [];
      return names.map((n) => `${n}\n`).join('');
    }
    default: {
      const text = view.text(value, { ...layout, wide: format === 'wide' });
      return text === '' || text.endsWith('\n') ? text : `${text}\n`;
    }
  }
}

/**
 * The text of an output in pieces: a view's chunks where it gives them, else the whole
 * text (renderOutput) as one piece. Concatenated, the same text as renderOutput's.
 */
export function renderChunks<T>(out: Output<T>, format: OutputFormat, layout: Omit<Layout, 'wide'>): Iterable<Chunk> {
  const chunks = out.endsStream
    ? undefined
    : out.view.chunks?.(out.value, format, { ...layout, wide: format === 'wide' });
  return chunks ?? [renderOutput(out, format, layout)];
}

/** How one record of a stream (an event, a trace record) is shown. */
export interface RecordView<R> {
  /** -o table and -o wide: one line or one block, without the final newline. */
  text(record: R, layout: Layout): string;
  /** -o json / -o yaml: the record's data. */
  data(record: R): unknown;
}

/** One record of a stream in a format: a line, a JSON object on its line, or a YAML document. */
export function renderRecord<R>(view: RecordView<R>, record: R, format: OutputFormat, layout: Layout): string {
  switch (format) {
    case 'json':
      return jsonLine(view.data(record));
    case 'yaml':
      return yamlStreamItem(view.data(record));
    default:
      return `${view.text(record, layout)}\n`;
  }
}
