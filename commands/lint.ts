import { Args } from '@oclif/core';
import { DEFAULT_PLUGIN_CONFIG_PATH, DEFAULT_PLUGIN_PATH, lintPaths } from '../src/checks/index.js';
import {
  BaseCommand,
  findingsExitCode,
  outputFlag,
  pluginDirFlag,
  runtimeRulesFlag,
  strictFlag,
} from '../src/cli/index.js';
import { formatsOf, output } from '../src/output/index.js';
import { countedFindings, lintView } from '../src/views/index.js';

export default class Lint extends BaseCommand<typeof Lint> {
  static override summary = "Lint plugin configuration files and the runtime's own NRI settings.";

  static override description = `Given a directory (default ${DEFAULT_PLUGIN_CONFIG_PATH}): for every file, which plugin the runtime hands it to (NN-name.conf wins over name.conf), or whether it is an orphan, shadowed by a more specific file, unreadable (the runtime then fails plugin discovery), writable by others, or not valid YAML/JSON (the runtime passes the text through as it is).

Given a file: containerd's config.toml ([plugins."io.containerd.nri.v1.nri"], 1.7 and 2.x layouts), CRI-O's crio.conf or a drop-in ([crio.nri]), or a daemon.json, iSulad's or Docker Engine's ("nri-opts"), told apart by its keys: NRI on or off, socket, plugin and config paths, timeouts, external connections; unknown keys (with the key you probably meant) and wrong types.

Without PATH: ${DEFAULT_PLUGIN_CONFIG_PATH} (or the directory the runtime config names) and every runtime config found on the node (/etc/containerd/config.toml, /etc/crio/crio.conf and crio.conf.d/*.conf, /etc/isulad/daemon.json). A node without that directory gets a note (conf-dir-missing), as from doctor, not an error: every plugin then gets an empty configuration.

Exit status: 0 without errors, 1 with errors, 3 with warnings only under --strict, 2 when PATH cannot be read.`;

  static override examples = [
    {
      description: 'Lint the node: conf.d and every runtime config found',
      command: '<%= config.bin %> <%= command.id %>',
    },
    {
      description: 'Lint a configuration directory against a plugin directory',
      command: '<%= config.bin %> <%= command.id %> /etc/nri/conf.d --plugin-dir /opt/nri/plugins',
    },
    {
      description: "Lint containerd's NRI settings",
      command: '<%= config.bin %> <%= command.id %> /etc/containerd/config.toml',
    },
    {
      description: 'Lint CRI-O with a drop-in, as YAML',
      command: '<%= config.bin %> <%= command.id %> /etc/crio/crio.conf /etc/crio/crio.conf.d/10-nri.conf -o yaml',
    },
  ];

  static override strict = false;

  static override args = {
    path: Args.string({
      description: `Configuration directory, or runtime config file(s). Default: ${DEFAULT_PLUGIN_CONFIG_PATH} and the runtime configs on this node.`,
      required: false,
    }),
  };

  static override flags = {
    'plugin-dir': pluginDirFlag(
      `Plugin directory the configuration files are checked against (default ${DEFAULT_PLUGIN_PATH}, or the runtime config's).`,
    ),
    runtime: runtimeRulesFlag("Judge conf.d by this runtime's rules (iSulad reads only NN-name.conf)."),
    strict: strictFlag,
    output: outputFlag(formatsOf(lintView)),
  };

  protected override async execute() {
    const report = lintPaths(this.positionals, {
      pluginDir: this.flags['plugin-dir'],
      runtime: this.flags.runtime,
    });
    return output(report, lintView, findingsExitCode(countedFindings(report.findings), this.flags.strict));
  }
}
