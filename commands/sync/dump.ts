import { Flags } from '@oclif/core';
import {
  BaseCommand,
  connectOptions,
  connectProgress,
  filterFlags,
  legacyOutputFlag,
  pluginIndexFlag,
  pluginNameFlag,
  simFlag,
  socketFlag,
  targetLabel,
  timeoutFlag,
} from '../../src/cli/index.js';
import { ObjectFilter } from '../../src/observe/index.js';
import {
  outputColumns,
  outputFilePath,
  renderDocument,
  renderStateTable,
  withoutColour,
  writeFileAtomic,
} from '../../src/render/index.js';
import { fetchState } from '../../src/session/index.js';

export default class SyncDump extends BaseCommand<typeof SyncDump> {
  static override summary = 'Print every pod and container the runtime knows, as NRI synchronizes them to a plugin.';

  static override description = `Registers with the runtime as a transient plugin (by default 99-nrictl-dump), receives the Synchronize state (in several messages if the runtime splits it), answers it without changes and disconnects. Prints a table of pods and their containers, -o wide adds resources (cpuset, mems, memory limit, CPU quota/period, shares), -o json and -o yaml print the complete data. --output-file writes atomically: a temporary file renamed over the target, so it holds the old content or all of the new.

A runtime that accepts the connection and then does not complete the registration within --timeout ends the command with exit 5; Ctrl-C while waiting exits 1 ("cancelled"). A reader that goes away (| head) ends it quietly with 0.`;

  static override examples = [
    { description: 'Try it without a runtime', command: '<%= config.bin %> <%= command.id %> --sim demo' },
    { description: 'Pods and containers with their resources', command: '<%= config.bin %> <%= command.id %> -o wide' },
    {
      description: 'Everything, as JSON, into a file',
      command: '<%= config.bin %> <%= command.id %> -o json --output-file /tmp/nri-state.json',
    },
    { description: 'Only the kube-system namespace', command: '<%= config.bin %> <%= command.id %> -n kube-system' },
  ];

  static override flags = {
    socket: socketFlag,
    'plugin-name': pluginNameFlag('nrictl-dump'),
    'plugin-index': pluginIndexFlag('99'),
    output: legacyOutputFlag(['table', 'wide', 'json', 'yaml'] as const, 'table'),
    'output-file': Flags.string({
      char: 'f',
      description:
        'Write to this file (atomically) instead of stdout; never coloured. - is stdout; a symlink is followed and its target written.',
      helpValue: 'FILE',
    }),
    ...filterFlags,
    timeout: timeoutFlag,
    sim: simFlag,
  };

  public override async run(): Promise<void> {
    const flags = this.flags;
    const file = outputFilePath(flags['output-file']);
    const filter = new ObjectFilter({
      namespace: flags.namespace,
      pod: flags.pod,
      container: flags.container,
      labels: flags.label,
    });
    const progress = connectProgress(targetLabel(flags));
    const state = await fetchState({
      ...connectOptions(flags),
      onProgress: progress.onProgress,
      onWarning: (w) => this.warning(w),
      signal: this.stopSignal(),
    }).finally(() => progress.stop());

    const { pods, containers } = filter.selectState(state.pods, state.containers);
    const runtime = state.runtime ? { name: state.runtime.name, version: state.runtime.version } : undefined;
    const format = flags.output;
    const render = (): string =>
      format === 'json' || format === 'yaml'
        ? renderDocument({ ...(runtime ? { runtime } : {}), pods, containers }, format)
        : pods.length === 0 && containers.length === 0
          ? ''
          : // A file has no width; a narrow terminal gets the list layout rather than wrapped rows.
            renderStateTable(pods, containers, {
              wide: format === 'wide',
              width: file === undefined ? outputColumns() : undefined,
            });

    if (file !== undefined) {
      await writeFileAtomic(file, withoutColour(render));
      process.stderr.write(
        `nrictl sync dump: ${pods.length} pods, ${containers.length} containers written to ${file}\n`,
      );
      return;
    }
    const text = render();
    if (text === '') {
      process.stderr.write(
        filter.empty ? 'The runtime has no pods and no containers.\n' : 'No pod or container matches the filters.\n',
      );
      return;
    }
    await new Promise<void>((resolve, reject) => process.stdout.write(text, (err) => (err ? reject(err) : resolve())));
  }
}
