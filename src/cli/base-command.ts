import { Command, Flags, Interfaces } from '@oclif/core';
import chalk from 'chalk';
import {
  outputColumns,
  renderOutput,
  renderRecord,
  type Layout,
  type Output,
  type OutputFormat,
  type RecordView,
} from '../render/index.js';
import { describeError, isClosedOutput } from './error-table.js';
import { ExitCode } from './exit-codes.js';
import { flagOfOption } from './flags.js';
import { oneLineParseError } from './parse-errors.js';
import { stopForClosedOutput, stopSignal } from './signals.js';

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
 * - and every byte written reaches its reader before the process ends: stdout and
 *   stderr are drained, then the exit code is set; nothing calls process.exit.
 */
export abstract class BaseCommand<T extends typeof Command> extends Command {
  static override baseFlags = {
    debug: Flags.boolean({
      description: 'Print stack traces and protocol details on errors (also NRICTL_DEBUG=1).',
      helpGroup: 'GLOBAL',
    }),
    color: Flags.boolean({
      description: 'Colour the output (default: on for terminals; off for pipes, NO_COLOR or --no-color).',
      allowNo: true,
      helpGroup: 'GLOBAL',
    }),
  };

  protected flags!: BaseFlags<T>;
  protected args!: BaseArgs<T>;
  /** Aborted by Ctrl-C, SIGTERM or SIGHUP (also one that came while nrictl was starting), or a closed stdout. */
  protected readonly signal: AbortSignal = stopSignal();

  /** The command's work: one library call, and what it gives back to print (nothing: it printed as it went). */
  protected execute(): Promise<Output | void> {
    return Promise.reject(new Error(`nrictl ${this.id ?? ''} has no execute()`));
  }

  public override async init(): Promise<void> {
    // A reader that goes away (`nrictl sync dump -o json | head -c 10`) is a normal end:
    // what runs is told to stop, and whatever is still written is dropped.
    process.stdout.on('error', (err) => {
      if (isClosedOutput(err)) stopForClosedOutput();
    });
    process.stderr.on('error', () => {});
    await super.init();
    const { flags, args } = await this.parse({
      flags: this.ctor.flags,
      baseFlags: (super.ctor as typeof BaseCommand).baseFlags,
      args: this.ctor.args,
      strict: this.ctor.strict,
    });
    this.flags = flags as BaseFlags<T>;
    this.args = args as BaseArgs<T>;
    applyColourPolicy(this.flags.color);
  }

  public async run(): Promise<void> {
    const out = await this.execute();
    if (!out) return;
    await this.write(renderOutput(out, this.format, this.layoutBase()));
    // A run that failed after its result was made (sim's expectations): the result stands, then the error.
    if (out.error) throw out.error;
    if (out.exitCode !== undefined && out.exitCode !== 0) process.exitCode = out.exitCode;
  }

  /**
   * Where a stream's records go as they come (sim's events): each one rendered in the -o
   * format (a line, a JSON object on its line, a YAML document) and written at once.
   * `to` and `format` send some elsewhere (a plugin's output as JSON lines on stderr).
   */
  protected recordWriter<R>(
    view: RecordView<R>,
    to: { stream?: NodeJS.WritableStream; format?: OutputFormat } = {},
  ): (record: R) => void {
    const stream = to.stream ?? process.stdout;
    const format = to.format ?? this.format;
    const layout = this.layout();
    return (record) => void stream.write(renderRecord(view, record, format, layout));
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

  /** -o, as every command names it; table where a command has none. */
  protected get format(): OutputFormat {
    return (this.flags as { output?: OutputFormat } | undefined)?.output ?? 'table';
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
    process.stderr.write(chalk.dim(`nrictl ${this.id?.replaceAll(':', ' ') ?? ''}: ${text}\n`));
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
    await Promise.all([drained(process.stdout), drained(process.stderr)]);
    // Whatever a library forgot open (a timer, a socket) must not keep a finished command alive.
    setTimeout(() => process.exit(), 2000).unref();
    return result;
  }

  private debugging(): boolean {
    return (
      Boolean((this.flags as { debug?: boolean } | undefined)?.debug) ||
      process.argv.includes('--debug') ||
      envOn(process.env.NRICTL_DEBUG)
    );
  }

  private printError(message: string, withStack?: Error): void {
    process.stderr.write(`${chalk.red('Error:')} ${message}\n`);
    if (withStack?.stack) process.stderr.write(`${chalk.dim(withStack.stack)}\n`);
  }
}

/** Resolves once everything written to the stream so far is handed to the OS (or the stream is gone). */
function drained(stream: NodeJS.WriteStream): Promise<void> {
  if (stream.destroyed || !stream.writable) return Promise.resolve();
  return new Promise<void>((resolve) => stream.write('', () => resolve()));
}

/** An environment switch: set and not empty, 0, false, no or off. */
export function envOn(value: string | undefined): boolean {
  return value !== undefined && !['', '0', 'false', 'no', 'off'].includes(value.trim().toLowerCase());
}

/**
 * chalk honours FORCE_COLOR and terminal detection but not NO_COLOR; we do. An explicit
 * --color or --no-color is the user's word for this run and beats the environment.
 */
export function applyColourPolicy(colourFlag: boolean | undefined): void {
  if (colourFlag === false) chalk.level = 0;
  else if (colourFlag === true) chalk.level = Math.max(chalk.level, 1) as typeof chalk.level;
  else if (process.env.NO_COLOR !== undefined && process.env.NO_COLOR !== '') chalk.level = 0;
}
