import type { Hook } from '@oclif/core';
import { ExitCode } from '../exit-codes.js';
import { commandNamedBy, unknownCommandLine } from '../unknown-command.js';

/**
 * `nrictl updat`: one line naming the closest command, and the usage exit code. oclif's
 * own not-found plugin would offer to run its guess, and a guessed `update` acts on a node.
 */
const hook: Hook.CommandNotFound = async function (opts) {
  // `nrictl logs extra`: oclif took the stray argument for part of a command name. Hand
  // the words to the command the user did name, whose parser says what is wrong with them.
  const named = commandNamedBy(opts.config, opts.id);
  if (named) return opts.config.runCommand(named.id, [...named.rest, ...(opts.argv ?? [])]);
  process.stderr.write(unknownCommandLine(opts.config, opts.id));
  this.exit(ExitCode.USAGE);
};

export default hook;
