import { Args, Flags } from '@oclif/core';
import { DEFAULT_PLUGIN_CONFIG_PATH, DEFAULT_PLUGIN_PATH, validatePluginDir } from '../src/checks/index.js';
import {
  BaseCommand,
  confDirFlag,
  findingsExitCode,
  outputFlag,
  runtimeRulesFlag,
  strictFlag,
} from '../src/cli/index.js';
import { formatsOf, output } from '../src/output/index.js';
import { countedFindings, pluginDirView } from '../src/views/index.js';

export default class Validate extends BaseCommand<typeof Validate> {
  static override summary = 'Check a plugin directory the way the runtime will read it.';

  static override description = `For every entry: the name (two digits, '-', a name), execute bits, file type (regular file, symlink and its target, dangling link, directory, fifo, socket), owner and mode of the file, the directory and its parents, whether it can run (ELF, or a #! script whose interpreter exists), duplicate indexes and names, and the configuration file the runtime will hand it. Each finding says what the runtime will do: launch it, skip it silently, or fail plugin start-up altogether. Then prints the order in which the runtime will invoke the plugins (-o name: only their names, in that order).

Exit status: 0 without errors, 1 with errors, 3 with warnings only under --strict, 2 when the directory cannot be read.`;

  static override examples = [
    { description: 'Check the default plugin directory', command: '<%= config.bin %> <%= command.id %>' },
    {
      description: 'Check the directory containerd is configured to use',
      command: '<%= config.bin %> <%= command.id %> --runtime-config /etc/containerd/config.toml',
    },
    {
      description: "Judge by iSulad's rules, fail on warnings too",
      command: '<%= config.bin %> <%= command.id %> /opt/nri/plugins --runtime isulad --strict',
    },
    { description: 'Machine-readable findings', command: '<%= config.bin %> <%= command.id %> -o yaml' },
  ];

  static override args = {
    dir: Args.string({
      description: `Plugin directory (default ${DEFAULT_PLUGIN_PATH}, or plugin_path from --runtime-config).`,
    }),
  };

  static override flags = {
    'runtime-config': Flags.string({
      description:
        'Read the plugin and configuration paths (and the runtime) from this containerd, CRI-O or iSulad config file.',
      helpValue: 'FILE',
    }),
    'conf-dir': confDirFlag(`Where the runtime looks up plugin configuration (default ${DEFAULT_PLUGIN_CONFIG_PATH}).`),
    runtime: runtimeRulesFlag(
      "Judge by this runtime's rules (containerd and CRI-O share the Go rules; iSulad differs). Default: from --runtime-config, else the Go rules with iSulad notes.",
    ),
    strict: strictFlag,
    output: outputFlag(formatsOf(pluginDirView)),
  };

  protected override async execute() {
    const report = validatePluginDir({
      dir: this.args.dir,
      confDir: this.flags['conf-dir'],
      runtime: this.flags.runtime,
      runtimeConfig: this.flags['runtime-config'],
    });
    return output(report, pluginDirView, findingsExitCode(countedFindings(report.findings), this.flags.strict));
  }
}
