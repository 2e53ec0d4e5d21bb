import { Command, Flags, Interfaces } from '@oclif/core';
import chalk from 'chalk';
import {
  batched,
  BoundedOutputQueue,
  outputColumns,
  renderChunks,
  renderOutput,
  renderRecord,
  withoutColourEach,
  writeChunks,
  writeFileAtomic,
  type Layout,
  type NoteView,
  type Output,
  type OutputFormat,
  type RecordSink,
  type RecordView,
} from '../output/index.js';
import { describeError, isClosedOutput } from './error-table.js';
import { ExitCode } from './exit-codes.js';
import { flagOfOption } from './flags.js';
import { oneLineParseError } from './parse-errors.js';
import { listenForStop, stopForClosedOutput } from './signals.js';
import { NoteOutput } from './note-output.js';
import { RecordOutput, STREAM_FLUSH_MS } from './record-output.js';
import { plural } from '../units/index.js';

export type BaseFlags<T extends typeof Command> = Interfaces.InferredFlags<
  (typeof BaseCommand)['baseFlags'] & T['flags']
>;
export type BaseArgs<T extends typeof Command> = Interfaces.InferredArgs<T['args']>;

/**
 * What every nrictl command shares, so that a command is its flags, one library call and
 * the typed result it returns:
 * - the flags are parsed once (this.flags, this.args), with --debug and --color;
 * - Ctrl-C, SIGTERM and SIGHUP abort this.signal, which the library honours;
 * - execute()'s result is printed in the -o format through the one output model;
 * - an error becomes one line and the exit code of its kind (src/cli/error-table.ts);
 * - and every byte written reaches its reader before the command ends: stdout and
 *   stderr are drained, then the exit code is set; nothing here calls process.exit
 *   (bin/run.js ends a process that something forgot open).
 * Nothing of a run stays in the process after it: its signal handlers and stream
 * listeners go when it ends, so commands can run one after another in one process.
 */
export abstract class BaseCommand<T extends typeof Command> extends Command {
  static override baseFlags = {
    debug: Flags.boolean({
      description: 'Print stack traces and protocol details on errors (also NRICTL_DEBUG=1).',
      helpGroup: 'GLOBAL',
    }),
    color: Flags.boolean({
      description:
        'Colour the output (default: on for terminals; off for pipes, NO_COLOR or --no-color). --color wins over NO_COLOR.',
      allowNo: true,
      helpGroup: 'GLOBAL',
    }),
  };

  protected flags!: BaseFlags<T>;
  protected args!: BaseArgs<T>;
  /** Every positional argument, in order: those beyond `args` of a command with `strict = false` too (lint's paths). */
  protected positionals!: string[];
  private readonly stop = listenForStop();
  /** Aborted by Ctrl-C, SIGTERM or SIGHUP (also one that came while nrictl was starting), or a closed stdout. */
  protected readonly signal: AbortSignal = this.stop.signal;
  /** Where a streaming command's records go (record-output.ts), once it asked for a sink. */
  private records: RecordOutput | undefined;
  /** Records on stderr beside the stream (stderrRecordSink), once the command asked for them. */
  private stderrRecords: BoundedOutputQueue<unknown> | undefined;
  /** Where a library's notes for people go (note-output.ts), once the command asked for a sink. */
  private notes: NoteOutput | undefined;

  /** The command's work: one library call, and what it gives back to print (nothing: it printed as it went). */
  protected execute(): Promise<Output | void> {
    return Promise.reject(new Error(`nrictl ${this.id ?? ''} has no execute()`));
  }

  public override async init(): Promise<void> {
    // A reader that goes away (`nrictl sync dump -o json | head -c 10`) is a normal end:
    // what runs is told to stop, and whatever is still written is dropped.
    process.stdout.on('error', onStdoutError);
    process.stderr.on('error', ignoreError);
    await super.init();
    const { flags, args, argv } = await this.parse({
      flags: this.ctor.flags,
      baseFlags: (super.ctor as typeof BaseCommand).baseFlags,
      args: this.ctor.args,
      strict: this.ctor.strict,
    });
    this.flags = flags as BaseFlags<T>;
    this.args = args as BaseArgs<T>;
    this.positionals = argv as string[];
    applyColourPolicy(this.flags.color);
  }

  public async run(): Promise<void> {
    const out = await this.execute().finally(() => this.notes?.stopWaiting());
    if (!out) return;
    if (this.records) await this.records.finish(out);
    else if (out.file !== undefined) {
      // A file is read later, elsewhere: never coloured, never wrapped.
      await writeFileAtomic(
        out.file,
        batched(withoutColourEach(() => renderChunks(out, this.format, { width: undefined }))),
      );
    } else if (out.view.chunks) {
      // Written as it is rendered, at the reader's pace (sync dump of a node).
      await writeChunks(process.stdout, renderChunks(out, this.format, this.layoutBase()), this.signal);
    } else await this.write(renderOutput(out, this.format, this.layoutBase()));
    const note =
      out.file !== undefined || this.format === 'table' || this.format === 'wide'
        ? out.view.note?.(out.value, out.file)
        : undefined;
    if (note !== undefined) this.note(note);
    // A stream whose runtime went away: its summary stands, then the error, as any other.
    if (out.error) throw out.error;
    if (out.exitCode !== undefined && out.exitCode !== 0) process.exitCode = out.exitCode;
  }

  /**
   * Where a streaming command's library pushes its records: a bounded queue into stdout
   * that never makes the library wait (a stalled reader costs drops, counted and
   * reported, never an answer to the runtime), each record shown through `view` in the
   * -o format: a line or a block, one JSON object a line, or one YAML document each.
   * The Output the command returns is the stream's summary: after the records on
   * stdout (`summary: 'stdout'`), or for people on stderr in every format ('stderr').
   * `writeThrough`: a source that is no runtime's reply path (sim) writes at once while
   * the output keeps up (BoundedQueueOptions.writeThrough).
   */
  protected recordSink<R>(
    view: RecordView<R>,
    opts: { capacity: number; summary?: 'stdout' | 'stderr'; writeThrough?: boolean },
  ): RecordSink<R> {
    this.records ??= new RecordOutput({
      format: this.format,
      layout: this.layout(),
      signal: this.signal,
      summary: opts.summary ?? 'stdout',
      note: (text) => this.note(text),
      say: (text) => void process.stderr.write(`nrictl ${this.commandName()}: ${text}\n`),
      onClosedOutput: stopForClosedOutput,
    });
    return this.records.sink(view, opts.capacity, opts.writeThrough);
  }

  /**
   * Where a library pushes its notes for people (connecting, registered, where the
   * metrics are): on stderr, as `view` says, never on stdout; a wait shows the spinner.
   */
  protected noteSink<N>(view: NoteView<N>): (note: N) => void {
    this.notes ??= new NoteOutput({ say: (text) => this.note(text), warning: (text) => this.warning(text) });
    return this.notes.sink(view);
  }

  /**
   * Records that go to stderr as JSON lines beside the stream (sim's plugin output under
   * --plugin-output json), written at once while stderr keeps up. Bounded as the stream
   * is: past `capacity` records behind a stalled stderr they are dropped, and a note says
   * how many ("3 plugin output lines dropped: ...", `what` naming one) once stderr caught
   * up or the command ends.
   */
  protected stderrRecordSink<R>(view: RecordView<R>, capacity: number, what: string): RecordSink<R> {
    const layout = this.layout();
    const queue = new BoundedOutputQueue<R>(process.stderr, {
      capacity,
      writeThrough: true,
      render: (r) => renderRecord(view, r, 'json', layout),
      dropNotice: () => undefined,
    });
    queue.on('dropped', (n: number) => this.note(`${plural(n, what)} dropped: stderr could not keep up`));
    this.stderrRecords = queue as BoundedOutputQueue<unknown>;
    return queue;
  }

  /**
   * One line for an old flag spelling the user typed (oclif's own warning wraps over two):
   * it still works this release, under the name it has now.
   */
  public override warnIfFlagDeprecated(flags: Record<string, unknown>): void {
    const defs = this.ctor.flags as Record<
      string,
      { aliases?: string[]; deprecateAliases?: boolean; deprecated?: boolean | { message?: string } } | undefined
    >;
    for (const name of Object.keys(flags)) {
      const def = defs[name];
      // A flag that goes away altogether (sim's --scenario, now an argument) says what replaces it.
      if (def?.deprecated && this.argv.some((a) => a === `--${name}` || a.startsWith(`--${name}=`))) {
        const instead = typeof def.deprecated === 'object' ? def.deprecated.message : undefined;
        this.warning(
          `--${name} is deprecated${instead ? `: ${instead}` : ''} (the old name goes away in the next release)`,
        );
      }
      if (!def?.deprecateAliases) continue;
      for (const alias of def.aliases ?? []) {
        if (this.argv.some((a) => a === `--${alias}` || a.startsWith(`--${alias}=`))) {
          this.warning(`--${alias} is deprecated: use --${name} (the old name goes away in the next release)`);
        }
      }
    }
  }

  /** -o, as every command names it; table where a command has none (or where -o named a file: plugin bundle's old -o). */
  protected get format(): OutputFormat {
    const output = (this.flags as { output?: unknown } | undefined)?.output;
    return typeof output === 'string' ? (output as OutputFormat) : 'table';
  }

  /** People's layout for this command's stdout. */
  protected layout(): Layout {
    return { ...this.layoutBase(), wide: this.format === 'wide' };
  }

  private layoutBase(): Omit<Layout, 'wide'> {
    return { width: outputColumns() };
  }

  /** Writes to stdout; resolves once it is handed on (a closed reader is not an error here). */
  protected write(text: string): Promise<void> {
    if (text === '') return Promise.resolve();
    return new Promise<void>((resolve) => process.stdout.write(text, () => resolve()));
  }

  /** A line for people on stderr, "nrictl logs: ...", dim: what happened, not data. */
  protected note(text: string): void {
    process.stderr.write(chalk.dim(`nrictl ${this.commandName()}: ${text}\n`));
  }

  /** "sync dump", as people type it. */
  private commandName(): string {
    return this.id?.replaceAll(':', ' ') ?? '';
  }

  /** One "Warning: ..." line on stderr. */
  protected warning(text: string): void {
    process.stderr.write(`${chalk.yellow('Warning:')} ${text}\n`);
  }

  /** @deprecated the command's signal is this.signal. */
  protected stopSignal(): AbortSignal {
    return this.signal;
  }

  protected override async catch(err: Error & { oclif?: { exit?: number } }): Promise<unknown> {
    const debug = this.debugging();
    if (err.oclif?.exit !== undefined) {
      // oclif's own exits (--help, --version) and its parse errors (unknown flag, missing argument).
      if (err.oclif.exit === 0 || err.message.startsWith('EEXIT')) {
        process.exitCode = err.oclif.exit;
        return;
      }
      const flags = { ...BaseCommand.baseFlags, ...this.ctor.flags };
      this.printError(oneLineParseError(err, flags), debug ? err : undefined);
      process.exitCode = err.oclif.exit === 2 ? ExitCode.USAGE : err.oclif.exit;
      return;
    }
    const { exitCode, message } = describeError(err, flagOfOption);
    // A flag's own parser failed (a duration without a unit): oclif prefixed our message
    // with "Parsing --flag" and a line break; say it on one line that names the flag.
    const oneLine = /^Parsing --\S+\s*\n/.test(err.message)
      ? oneLineParseError(err, { ...BaseCommand.baseFlags, ...this.ctor.flags })
      : message;
    if (oneLine !== undefined) this.printError(oneLine, debug ? err : undefined);
    process.exitCode = exitCode;
  }

  /** Every byte written reaches its reader before the process may end; then nothing may keep it alive. */
  protected override async finally(err: Error | undefined): Promise<unknown> {
    const result: unknown = await super.finally(err);
    // What is still queued for stdout and stderr, for as long as a stream waits for a stalled
    // reader; drops said. A stream that ended with its summary is already done.
    await this.records?.end();
    await this.stderrRecords?.end(STREAM_FLUSH_MS);
    const drain = Promise.all([drained(process.stdout), drained(process.stderr)]);
    // A stream already waited its bounded time for a stalled reader: no more waiting here.
    await (this.records ? Promise.race([drain, this.records.drainBound()]) : drain);
    this.stop.release();
    process.stdout.off('error', onStdoutError);
    process.stderr.off('error', ignoreError);
    return result;
  }

  private debugging(): boolean {
    return (
      Boolean((this.flags as { debug?: boolean } | undefined)?.debug) ||
      this.argv.includes('--debug') ||
      envOn(process.env.NRICTL_DEBUG)
    );
  }

  private printError(message: string, withStack?: Error): void {
    process.stderr.write(`${chalk.red('Error:')} ${message}\n`);
    if (withStack?.stack) process.stderr.write(`${chalk.dim(withStack.stack)}\n`);
  }
}

function onStdoutError(err: Error): void {
  if (isClosedOutput(err)) stopForClosedOutput();
}

function ignoreError(): void {}

/** Resolves once everything written to the stream so far is handed to the OS (or the stream is gone). */
function drained(stream: NodeJS.WriteStream): Promise<void> {
  if (stream.destroyed || !stream.writable) return Promise.resolve();
  return new Promise<void>((resolve) => stream.write('', () => resolve()));
}

/** An environment switch: set and not empty, 0, false, no or off. */
function envOn(value: string | undefined): boolean {
  return value !== undefined && !['', '0', 'false', 'no', 'off'].includes(value.trim().toLowerCase());
}

/** What chalk detected when it loaded (FORCE_COLOR, the terminal), before any run's policy. */
const detectedColourLevel = chalk.level;

/**
 * chalk honours FORCE_COLOR and terminal detection but not NO_COLOR; we do. An explicit
 * --color or --no-color is the user's word for this run and beats the environment.
 * Set from what chalk detected each time, so one run's choice is not the next one's.
 */
export function applyColourPolicy(colourFlag: boolean | undefined): void {
  if (colourFlag === false) chalk.level = 0;
  else if (colourFlag === true) chalk.level = Math.max(detectedColourLevel, 1) as typeof chalk.level;
  else if (process.env.NO_COLOR !== undefined && process.env.NO_COLOR !== '') chalk.level = 0;
  else chalk.level = detectedColourLevel;
}
