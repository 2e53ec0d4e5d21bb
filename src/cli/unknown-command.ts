// A command id that names no command, the same way whether it was typed to run
// (`nrictl sync dmp`, the not-found hook) or to get help (`nrictl sync dmp --help`,
// `nrictl help sync dmp`, our Help class): one line with the closest command or topic.
// It loads nothing of oclif, so that neither caller splits oclif's bundle differently.
import type { Interfaces } from '@oclif/core';
import chalk from 'chalk';
import { closestName } from './suggest.js';

type Config = Interfaces.Config;

/**
 * The command the first words of `id` name, and the words after it: oclif folds the
 * arguments after a command's name into the id (`nrictl logs extra` is "logs:extra").
 */
export function commandNamedBy(config: Config, id: string): { id: string; rest: string[] } | undefined {
  const words = id.split(':');
  for (let n = words.length - 1; n > 0; n--) {
    const named = words.slice(0, n).join(':');
    if (config.findCommand(named)) return { id: named, rest: words.slice(n) };
  }
  return undefined;
}

/** "Error: unknown command "sync dmp": did you mean sync dump? Run nrictl --help for the list.", with its newline. */
export function unknownCommandLine(config: Config, id: string): string {
  const words = id.split(':');
  const separator = config.topicSeparator;
  const visible = [
    ...config.commands.filter((c) => !c.hidden).flatMap((c) => [c.id, ...c.aliases]),
    ...config.topics.filter((t) => !t.hidden).map((t) => t.name),
  ];
  const spaced = (name: string) => name.replaceAll(':', separator);
  // The command is the first word, or the first two under a topic (sync dump); the rest
  // are its arguments, which oclif folded into the id.
  const length = config.findTopic(words[0] ?? '') && words.length > 1 ? 2 : 1;
  const typed = words.slice(0, length).join(separator);
  const near = closestName(typed, visible.map(spaced));
  const hint = near === undefined ? 'run' : `did you mean ${near}? Run`;
  return `${chalk.red('Error:')} unknown command "${typed}": ${hint} ${config.bin} --help for the list.\n`;
}
