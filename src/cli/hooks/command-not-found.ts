import type { Hook } from '@oclif/core';
import chalk from 'chalk';
import { ExitCode } from '../exit-codes.js';
import { closestName } from '../suggest.js';

/**
 * `nrictl updat`: one line naming the closest command, and the usage exit code. oclif's
 * own not-found plugin would offer to run its guess, and a guessed `update` acts on a node.
 */
const hook: Hook.CommandNotFound = async function (opts) {
  const words = opts.id.split(':');
  // `nrictl logs extra`: oclif took the stray argument for part of a command name. Hand
  // the words to the command the user did name, whose parser says what is wrong with them.
  for (let n = words.length - 1; n > 0; n--) {
    const named = words.slice(0, n).join(':');
    if (opts.config.findCommand(named)) return opts.config.runCommand(named, [...words.slice(n), ...(opts.argv ?? [])]);
  }
  const separator = opts.config.topicSeparator;
  const visible = [
    ...opts.config.commands.filter((c) => !c.hidden).flatMap((c) => [c.id, ...c.aliases]),
    ...opts.config.topics.filter((t) => !t.hidden).map((t) => t.name),
  ];
  const spaced = (id: string) => id.replaceAll(':', separator);
  // The command is the first word, or the first two under a topic (sync dump); the rest
  // are its arguments, which oclif folded into the id.
  const length = opts.config.findTopic(words[0] ?? '') && words.length > 1 ? 2 : 1;
  const typed = words.slice(0, length).join(separator);
  const near = closestName(typed, visible.map(spaced));
  const hint = near === undefined ? 'run' : `did you mean ${near}? Run`;
  process.stderr.write(
    `${chalk.red('Error:')} unknown command "${typed}": ${hint} ${opts.config.bin} --help for the list.\n`,
  );
  this.exit(ExitCode.USAGE);
};

export default hook;
