// Where a streaming command's records go: a bounded queue into stdout that never makes
// the library wait, each record rendered through its RecordView in the -o format; drops
// counted and reported; the stream's summary after the records.
import { Writable } from 'node:stream';
import {
  BoundedOutputQueue,
  chalk,
  defaultDropNotice,
  nonBlockingStdout,
  outputClosed,
  renderOutput,
  renderRecord,
  type Layout,
  type Output,
  type OutputFormat,
  type RecordSink,
  type RecordView,
} from '../output/index.js';
import { isClosedOutput } from './error-table.js';

/** Records written per turn of the event loop: a request arriving during a backlog waits for at most a short batch. */
const RENDER_BATCH = 8;
/** How long the end of a stream waits for a stalled reader before the process may end. */
export const STREAM_FLUSH_MS = 2000;

export interface RecordOutputOptions {
  format: OutputFormat;
  layout: Layout;
  signal: AbortSignal;
  /** The summary: after the records on stdout, or for people on stderr in every format. */
  summary: 'stdout' | 'stderr';
  /** A dim line for people on stderr ("nrictl logs: 3 events dropped ..."). */
  note(text: string): void;
  /** A plain line on stderr after "nrictl <command>: " (a summary for people). */
  say(text: string): void;
  /** The output's reader went away: stop the command (its signal, reason 'output-closed'). */
  onClosedOutput(): void;
}

export class RecordOutput {
  private readonly out: Writable;
  private queue: BoundedOutputQueue<unknown> | undefined;
  private ended = false;

  constructor(private readonly opts: RecordOutputOptions) {
    this.out = nonBlockingStdout();
    // process.stdout's errors already stop the command (the base command listens); the
    // fs stream a terminal falls back to is a writer of its own.
    if (this.out !== process.stdout)
      this.out.on('error', (err) => {
        if (isClosedOutput(err)) opts.onClosedOutput();
      });
  }

  sink<R>(view: RecordView<R>, capacity: number, writeThrough = false): RecordSink<R> {
    if (this.queue) throw new Error('a command streams one kind of record');
    const { format, layout } = this.opts;
    const people = format === 'table' || format === 'wide';
    const queue = new BoundedOutputQueue<R>(this.out, {
      capacity,
      batch: RENDER_BATCH,
      writeThrough,
      render: (r) => renderRecord(view, r, format, layout),
      // People read the count where the records were; a JSON or YAML stream must stay
      // parseable, so there it goes to stderr.
      dropNotice: people ? (n) => chalk.yellow(defaultDropNotice(n)) : () => undefined,
    });
    if (!people) queue.on('dropped', (n: number) => this.opts.note(defaultDropNotice(n).trimEnd()));
    this.queue = queue as BoundedOutputQueue<unknown>;
    return queue;
  }

  /**
   * The stream's summary, after its records (a library that did not end its sink, as
   * sim's, has them written here, for at most STREAM_FLUSH_MS when the reader stalls);
   * nothing on stdout once its reader went away.
   */
  async finish(out: Output): Promise<void> {
    const { format, layout } = this.opts;
    await this.end();
    if (this.opts.summary === 'stderr') {
      this.opts.say(out.view.text(out.value, layout));
      return;
    }
    if (outputClosed(this.opts.signal)) return;
    // A summary that ends a stream (sim's) goes on as the stream's own lines, if any.
    const text = out.endsStream ? renderOutput(out, format, layout) : renderRecord(out.view, out.value, format, layout);
    if (text === '') return;
    await new Promise<void>((resolve) => this.out.write(text, () => resolve()));
  }

  /**
   * Ends the stream whatever way the command ended (a failed one gave no summary): what is
   * queued is still written, for at most STREAM_FLUSH_MS, and the queue lets go of stdout.
   */
  async end(): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    await this.queue?.end(STREAM_FLUSH_MS);
  }

  /** Resolves when the process need wait no longer for stdout to drain. */
  drainBound(): Promise<void> {
    return new Promise((resolve) => setTimeout(resolve, STREAM_FLUSH_MS).unref());
  }
}
