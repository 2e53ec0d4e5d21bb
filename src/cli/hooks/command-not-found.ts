import type { Hook } from '@oclif/core';
import chalk from 'chalk';
import { ExitCode } from '../exit-codes.js';
import { closestName } from '../suggest.js';

/**
 * `nrictl updat`: one line naming the closest command, and the usage exit code. oclif's
 * own not-found plugin would offer to run its guess, and a guessed `update` acts on a node.
 */
const hook: Hook.CommandNotFound = async function (opts) {
  const separator = opts.config.topicSeparator;
  const visible = opts.config.commands.filter((c) => !c.hidden).flatMap((c) => [c.id, ...c.aliases]);
  const spaced = (id: string) => id.replaceAll(':', separator);
  const typed = spaced(opts.id);
  const near = closestName(typed, visible.map(spaced));
  const hint = near === undefined ? 'run' : `did you mean ${near}? Run`;
  process.stderr.write(`${chalk.red('Error:')} unknown command "${typed}": ${hint} ${opts.config.bin} --help for the list.\n`);
  this.exit(ExitCode.USAGE);
};

export default hook;
