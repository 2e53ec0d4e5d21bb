import { Flags } from '@oclif/core';
import * as cli from '../../src/cli/index.js';
import { dumpState } from '../../src/observe/index.js';
import { formatsOf, output, outputFilePath } from '../../src/output/index.js';
import { runtimeStateView, sessionNote } from '../../src/views/index.js';

export default class SyncDump extends cli.BaseCommand<typeof SyncDump> {
  static override summary = 'Print every pod and container the runtime knows, as NRI synchronizes them to a plugin.';

  static override description = `Registers with the runtime as a transient plugin (by default 99-nrictl-dump), receives the Synchronize state (in several messages if the runtime splits it), answers it without changes and disconnects. Prints a table of pods and their containers, -o wide adds resources (cpuset, mems, memory limit, CPU quota/period, shares), -o json and -o yaml print the complete data, -o name one namespace/pod/container per container (the names update and evict take). --output-file writes atomically: a temporary file renamed over the target, so it holds the old content or all of the new.

A runtime that accepts the connection and then does not complete the registration within --timeout ends the command with exit 5; Ctrl-C while waiting exits 1 ("cancelled"). A reader that goes away (| head) ends it quietly with 0.`;

  static override examples = [
    cli.example('Try it without a runtime', '--sim demo'),
    cli.example('Pods and containers with their resources', '-o wide'),
    cli.example('Everything, as JSON, into a file', '-o json --output-file /tmp/nri-state.json'),
    cli.example('Only the kube-system namespace', '-n kube-system'),
    cli.example('Every container of namespace shop, as update and evict name it', '-n shop -o name'),
  ];

  static override flags = {
    socket: cli.socketFlag,
    'plugin-name': cli.pluginNameFlag('nrictl-dump'),
    'plugin-index': cli.pluginIndexFlag('99'),
    output: cli.outputFlag(formatsOf(runtimeStateView)),
    'output-file': Flags.string({
      char: 'f',
      description:
        'Write to this file (atomically) instead of stdout; never coloured. - is stdout; a symlink is followed and its target written.',
      helpValue: 'FILE',
    }),
    ...cli.filterFlags,
    timeout: cli.timeoutFlag,
    sim: cli.simFlag,
  };

  protected override async execute() {
    // An empty --output-file is a mistake to report before connecting.
    const file = outputFilePath(this.flags['output-file']);
    const state = await dumpState({
      ...cli.connectOptions(this.flags),
      filter: cli.filterOf(this.flags),
      notes: this.noteSink(sessionNote),
      signal: this.signal,
    });
    return { ...output(state, runtimeStateView), file };
  }
}
