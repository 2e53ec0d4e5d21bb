import { Command, Flags, Interfaces } from '@oclif/core';
import chalk from 'chalk';
import { UserError } from './errors.js';
import { ExitCode } from './exit-codes.js';

export type BaseFlags<T extends typeof Command> = Interfaces.InferredFlags<(typeof BaseCommand)['baseFlags'] & T['flags']>;

/**
 * What every nrictl command shares: --debug, --no-color, colour policy, and the
 * mapping of errors to one line on stderr and a documented exit code.
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

  public override async init(): Promise<void> {
    await super.init();
    const { flags } = await this.parse({
      flags: this.ctor.flags,
      baseFlags: (super.ctor as typeof BaseCommand).baseFlags,
      args: this.ctor.args,
      strict: this.ctor.strict,
    });
    this.flags = flags as BaseFlags<T>;
    applyColourPolicy(this.flags.color);
  }

  protected override async catch(err: Error & { exitCode?: number; oclif?: { exit?: number } }): Promise<unknown> {
    const debug = Boolean(this.flags?.debug) || process.argv.includes('--debug');
    if (err instanceof UserError) {
      this.printError(err.message, debug ? err : undefined);
      this.exit(err.exitCode);
    }
    // oclif's own parse errors (unknown flag, missing arg) and this.exit() calls.
    if (err.oclif?.exit !== undefined) {
      if (err.oclif.exit !== 0 && err.message && !err.message.startsWith('EEXIT')) {
        this.printError(err.message.split('\n')[0] ?? err.message, debug ? err : undefined);
        this.exit(err.oclif.exit === 2 ? ExitCode.USAGE : err.oclif.exit);
      }
      throw err;
    }
    this.printError(`internal error: ${err.message} (run again with --debug and report it)`, debug ? err : undefined);
    this.exit(ExitCode.INTERNAL);
  }

  /**
   * The NRI socket is as powerful as root: say so when someone besides its owner can
   * connect to it or replace it (the rule of src/checks/socket.ts, which doctor uses too).
   * Not for the embedded simulator's socket. A missing socket is left to the connection's
   * own error.
   */
  protected async warnIfSocketExposed(socketPath: string): Promise<void> {
    const { socketExposureFindings } = await import('../checks/socket.js');
    for (const f of socketExposureFindings(socketPath)) {
      process.stderr.write(`${chalk.yellow('Warning:')} ${f.path}: ${f.message}; fix: ${f.fix}\n`);
    }
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
