// Start-up: only what the flags need is imported here; run() loads the observe layer
// and the renderers, each on the path that uses it (see validate.ts).
import { Flags } from '@oclif/core';
import { BaseCommand } from '../../src/cli/base-command.js';
import { UserError } from '../../src/cli/errors.js';
import { ExitCode } from '../../src/cli/exit-codes.js';
import { outputFlag, pluginIndexFlag, pluginNameFlag, socketFlag } from '../../src/cli/flags.js';
import type { ObjectFilter, SyncState } from '../../src/observe/index.js';
import { filterFlags, simFlag } from '../../src/observe/cli-flags.js';
import { startSim, type EmbeddedSim } from '../../src/observe/sim.js';
import { AtomicWriteError, writeFileAtomic } from '../../src/render/atomic-write.js';
import { withoutColour } from '../../src/render/colour.js';
import { OutputFileError, outputFilePath } from '../../src/render/output-file.js';
import { spinner } from '../../src/render/spinner.js';

export default class SyncDump extends BaseCommand<typeof SyncDump> {
  static override summary = 'Print every pod and container the runtime knows, as NRI synchronizes them to a plugin.';

  static override description = `Registers with the runtime as a transient plugin (by default 99-nrictl-dump), receives the Synchronize state (in several messages if the runtime splits it), answers it without changes and disconnects. Prints a table of pods and their containers, -o wide adds resources (cpuset, mems, memory limit, CPU quota/period, shares), -o json and -o yaml print the complete data. --output-file writes atomically: a temporary file renamed over the target, so it holds the old content or all of the new.`;

  static override examples = [
    { description: 'Try it without a runtime', command: '<%= config.bin %> <%= command.id %> --sim examples/demo.yaml' },
    { description: 'Pods and containers with their resources', command: '<%= config.bin %> <%= command.id %> -o wide' },
    { description: 'Everything, as JSON, into a file', command: '<%= config.bin %> <%= command.id %> -o json --output-file /tmp/nri-state.json' },
    { description: 'Only the kube-system namespace', command: '<%= config.bin %> <%= command.id %> -n kube-system' },
  ];

  static override flags = {
    socket: socketFlag,
    'plugin-name': pluginNameFlag('nrictl-dump'),
    'plugin-index': pluginIndexFlag('99'),
    output: outputFlag(['table', 'wide', 'json', 'yaml'] as const, 'table'),
    'output-file': Flags.string({ char: 'f', description: 'Write to this file (atomically) instead of stdout; never coloured. - is stdout; a symlink is followed and its target written.', helpValue: 'FILE' }),
    ...filterFlags,
    sim: simFlag,
  };

  public async run(): Promise<void> {
    const flags = this.flags;
    let file: string | undefined;
    try {
      file = outputFilePath(flags['output-file']);
    } catch (err) {
      if (err instanceof OutputFileError) throw new UserError(err.message, ExitCode.USAGE);
      throw err;
    }
    const { ObjectFilter, fetchSyncState, toUserError } = await import('../../src/observe/index.js');
    let filter: ObjectFilter;
    try {
      filter = new ObjectFilter({ namespace: flags.namespace, pod: flags.pod, container: flags.container, labels: flags.label });
    } catch (err) {
      throw toUserError(err);
    }

    let sim: EmbeddedSim | undefined;
    let state: SyncState;
    const where = flags.sim ? 'the embedded simulator' : flags.socket;
    if (!flags.sim) await this.warnIfSocketExposed(flags.socket);
    const waiting = spinner(process.stderr, `connecting to ${where}`);
    try {
      if (flags.sim) sim = await startSim(flags.sim);
      state = await fetchSyncState({
        socketPath: sim?.socketPath ?? flags.socket,
        name: flags['plugin-name'],
        index: flags['plugin-index'],
        onReceiving: () => waiting.update('receiving the runtime\'s pods and containers'),
      });
    } catch (err) {
      throw toUserError(err);
    } finally {
      waiting.stop();
      await sim?.stop();
    }

    const { pods, containers } = filter.selectState(state.pods, state.containers);
    // Each output loads only its own renderer: JSON never loads the table, the table never the YAML writer.
    let render: () => string;
    if (flags.output === 'json' || flags.output === 'yaml') {
      const { renderDocument } = await import('../../src/render/format.js');
      const format = flags.output;
      const runtime = state.runtime ? { name: state.runtime.name, version: state.runtime.version } : undefined;
      render = () => renderDocument({ ...(runtime ? { runtime } : {}), pods, containers }, format);
    } else {
      const { renderStateTable } = await import('../../src/render/state-table.js');
      const { outputColumns } = await import('../../src/render/output-width.js');
      const wide = flags.output === 'wide';
      // A file has no width; a narrow terminal gets the list layout rather than wrapped rows.
      const width = file === undefined ? outputColumns() : undefined;
      render = () => (pods.length === 0 && containers.length === 0 ? '' : renderStateTable(pods, containers, { wide, width }));
    }

    if (file !== undefined) {
      try {
        await writeFileAtomic(file, withoutColour(render));
      } catch (err) {
        if (err instanceof AtomicWriteError) throw new UserError(`${err.message}: check that the directory exists and is writable`, ExitCode.FAILED, { cause: err });
        throw err;
      }
      process.stderr.write(`nrictl sync dump: ${pods.length} pods, ${containers.length} containers written to ${file}\n`);
      return;
    }
    const text = render();
    if (text === '') {
      process.stderr.write(filter.empty ? 'The runtime has no pods and no containers.\n' : 'No pod or container matches the filters.\n');
      return;
    }
    await new Promise<void>((resolve, reject) => process.stdout.write(text, (err) => (err ? reject(err) : resolve())));
  }
}
