// nrictl's help: oclif's own, except for an id that names no command. `nrictl sync dmp
// --help` and `nrictl help sync dmp` said oclif's "Command sync:dmp not found." with no
// suggestion and another look than `nrictl sync dmp`; now all three print the same line
// and exit 2. oclif loads it (package.json oclif.helpClass) for its --help/-h path and
// for the help command (commands/help.ts).
//
// It is part of oclif.ts, the oclif that bin/run.js has loaded already, and takes from
// oclif only its help and errors modules, which that oclif holds: a help page loads no
// more than before, and oclif's bundle is split no differently (see bundle-cli.mjs).
import { exit } from '@oclif/core/errors';
import { getHelpFlagAdditions, Help, standardizeIDFromArgv } from '@oclif/core/help';

export class NrictlHelp extends Help {
  override async showHelp(argv: string[]): Promise<void> {
    const subject = this.subject(argv);
    if (subject === undefined || this.config.findCommand(subject) || this.config.findTopic(subject)) {
      return super.showHelp(argv);
    }
    // Loaded only here: every other help page, and every start-up, would pay for them.
    const [{ commandNamedBy, unknownCommandLine }, { ExitCode }] = await Promise.all([
      import('./unknown-command.js'),
      import('./exit-codes.js'),
    ]);
    // `nrictl logs extra --help`: the help of the command named.
    const named = commandNamedBy(this.config, subject);
    if (named) return super.showHelp(named.id.split(':'));
    process.stderr.write(unknownCommandLine(this.config, subject));
    exit(ExitCode.USAGE);
  }

  /** The command or topic id help was asked for, as oclif's Help finds it (its getHelpSubject). */
  private subject(argv: readonly string[]): string | undefined {
    const helpFlags = getHelpFlagAdditions(this.config);
    let words = argv.filter((a) => !helpFlags.includes(a));
    if (this.config.topicSeparator !== ':') words = standardizeIDFromArgv(words, this.config);
    for (const word of words) {
      if (word === '--' || word.startsWith('-')) return undefined;
      if (word !== 'help') return word;
    }
    return undefined;
  }
}
