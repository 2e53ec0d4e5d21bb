import { Command, Flags, Interfaces } from '@oclif/core';
import chalk from 'chalk';
import { describeError, isClosedOutput } from './error-table.js';
import { oneLineParseError } from './parse-errors.js';
import { ExitCode } from './exit-codes.js';

export type BaseFlags<T extends typeof Command> = Interfaces.InferredFlags<
  (typeof BaseCommand)['baseFlags'] & T['flags']
>;

/** The signals that end a command the way Ctrl-C does (a closed terminal sends SIGHUP). */
export const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * What every nrictl command shares: --debug, --no-color, colour policy, and printing an
 * error as one line on stderr with the exit code src/cli/error-table.ts gives it.
 */
export abstract class BaseCommand<T extends typeof Command> extends Command {
  static override baseFlags = {
    debug: Flags.boolean({
      description: 'Print stack traces and protocol details on errors.',
      helpGroup: 'GLOBAL',
      env: 'NRICTL_DEBUG',
    }),
    color: Flags.boolean({
      description: 'Colour the output (default: on for terminals; off for pipes, NO_COLOR or --no-color).',
      allowNo: true,
      helpGroup: 'GLOBAL',
    }),
  };

  protected flags!: BaseFlags<T>;

  /**
   * Whether a closed stdout ends the command at once, quietly with 0. A command that
   * handles it itself (logs, which prints its summary first) turns this off.
   */
  protected exitWhenStdoutCloses = true;

  public override async init(): Promise<void> {
    await super.init();
    // A reader that goes away (`nrictl sync dump -o json | head -c 10`) is a normal end.
    process.stdout.on('error', (err) => {
      if (!this.exitWhenStdoutCloses) return;
      if (isClosedOutput(err)) process.exit(ExitCode.OK);
      throw err;
    });
    const { flags } = await this.parse({
      flags: this.ctor.flags,
      baseFlags: (super.ctor as typeof BaseCommand).baseFlags,
      args: this.ctor.args,
      strict: this.ctor.strict,
    });
    this.flags = flags as BaseFlags<T>;
    applyColourPolicy(this.flags.color);
  }

  protected override async catch(err: Error & { oclif?: { exit?: number } }): Promise<unknown> {
    const debug = Boolean(this.flags?.debug) || process.argv.includes('--debug');
    // oclif's own parse errors (unknown flag, missing arg) and this.exit() calls.
    if (err.oclif?.exit !== undefined) {
      if (err.oclif.exit !== 0 && err.message && !err.message.startsWith('EEXIT')) {
        this.printError(
          oneLineParseError(err, { ...BaseCommand.baseFlags, ...this.ctor.flags }),
          debug ? err : undefined,
        );
        this.exit(err.oclif.exit === 2 ? ExitCode.USAGE : err.oclif.exit);
      }
      throw err;
    }
    const { exitCode, message } = describeError(err);
    if (message !== undefined) this.printError(message, debug ? err : undefined);
    this.exit(exitCode);
  }

  /**
   * An AbortSignal that fires on Ctrl-C, SIGTERM or SIGHUP: the command then stops what
   * it waits for and ends through its normal path (a summary, "cancelled: nothing was
   * sent"), instead of dying mid-way.
   */
  protected stopSignal(): AbortSignal {
    const ac = new AbortController();
    for (const s of STOP_SIGNALS) process.once(s, () => ac.abort(s));
    return ac.signal;
  }

  /** One "Warning: ..." line on stderr. */
  protected warning(text: string): void {
    process.stderr.write(`${chalk.yellow('Warning:')} ${text}\n`);
  }

  private printError(message: string, withStack?: Error): void {
    process.stderr.write(`${chalk.red('Error:')} ${message}\n`);
    if (withStack?.stack) process.stderr.write(`${chalk.dim(withStack.stack)}\n`);
  }
}

/** chalk honours FORCE_COLOR and TTY detection but not NO_COLOR; we do. */
export function applyColourPolicy(colourFlag: boolean | undefined): void {
  if (colourFlag === false || (process.env.NO_COLOR !== undefined && process.env.NO_COLOR !== '')) {
    chalk.level = 0;
  } else if (colourFlag === true && chalk.level === 0) {
    chalk.level = 1;
  }
}
