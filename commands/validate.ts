import { Args, Flags } from '@oclif/core';
import chalk from 'chalk';
import {
  DEFAULT_PLUGIN_CONFIG_PATH,
  DEFAULT_PLUGIN_PATH,
  checkPluginDir,
  countFindings,
  findingsExitCode,
  findingsTable,
  lintRuntimeConfig,
  sortFindings,
  summaryLine,
  type PlannedPlugin,
  type PluginDirReport,
  type RuntimeKind,
} from '../src/checks/index.js';
import { BaseCommand, outputFlag } from '../src/cli/index.js';

export default class Validate extends BaseCommand<typeof Validate> {
  static override summary = 'Check a plugin directory the way the runtime will read it.';

  static override description = `For every entry: the name (two digits, '-', a name), execute bits, file type (regular file, symlink and its target, dangling link, directory, fifo, socket), owner and mode of the file, the directory and its parents, whether it can run (ELF, or a #! script whose interpreter exists), duplicate indexes and names, and the configuration file the runtime will hand it. Each finding says what the runtime will do: launch it, skip it silently, or fail plugin start-up altogether. Then prints the order in which the runtime will invoke the plugins.

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
    { description: 'Machine-readable findings', command: '<%= config.bin %> <%= command.id %> -o json' },
  ];

  static override args = {
    dir: Args.string({
      description: `Plugin directory (default ${DEFAULT_PLUGIN_PATH}, or plugin_path from --runtime-config).`,
      required: false,
    }),
  };

  static override flags = {
    'runtime-config': Flags.string({
      description:
        'Read the plugin and configuration paths (and the runtime) from this containerd, CRI-O or iSulad config file.',
      helpValue: 'FILE',
    }),
    'plugin-config-path': Flags.string({
      description: `Where the runtime looks up plugin configuration (default ${DEFAULT_PLUGIN_CONFIG_PATH}).`,
      helpValue: 'DIR',
    }),
    runtime: Flags.option({
      description:
        "Judge by this runtime's rules (containerd and CRI-O share the Go rules; iSulad differs). Default: from --runtime-config, else the Go rules with iSulad notes.",
      options: ['containerd', 'crio', 'isulad'] as const,
    })(),
    strict: Flags.boolean({ description: 'Exit with 3 when there are warnings but no errors.' }),
    output: outputFlag(['table', 'json'] as const, 'table'),
  };

  public async run(): Promise<void> {
    const { args } = await this.parse(Validate);
    const flags = this.flags;
    let dir = args.dir;
    let confDir = flags['plugin-config-path'];
    let runtime: RuntimeKind | undefined = flags.runtime;

    if (flags['runtime-config']) {
      const { settings } = lintRuntimeConfig(flags['runtime-config']);
      dir ??= settings.pluginPath;
      confDir ??= settings.pluginConfigPath;
      runtime ??= settings.runtime;
    }

    const report = checkPluginDir(dir ?? DEFAULT_PLUGIN_PATH, {
      confDir: confDir ?? DEFAULT_PLUGIN_CONFIG_PATH,
      runtime,
    });

    if (flags.output === 'json') {
      this.log(
        JSON.stringify(
          { ...report, findings: sortFindings(report.findings), counts: countFindings(report.findings) },
          null,
          2,
        ),
      );
    } else {
      this.log(
        chalk.bold(`Plugin directory ${report.dir}`) +
          chalk.dim(` (configuration from ${report.confDir}${report.runtime ? `, rules of ${report.runtime}` : ''})`),
      );
      this.log(findingsTable(report.findings, report.dir));
      this.log('');
      this.log(renderOrder(report));
      this.log(summaryLine(report.findings));
    }
    const code = findingsExitCode(report.findings, flags.strict);
    if (code !== 0) this.exit(code);
  }
}

function renderOrder(report: PluginDirReport): string {
  const isulad = report.runtime === 'isulad';
  const list = isulad ? report.isuladOrder : report.order;
  const who = isulad ? 'iSulad (by name, one plugin per name)' : 'containerd / CRI-O (by index)';
  if (!isulad && report.discoveryFails) {
    return chalk.red(`Invocation order, ${who}: none: plugin discovery fails, so no pre-installed plugin starts.`);
  }
  if (list.length === 0) return `Invocation order, ${who}: no plugin to launch.`;
  const lines = list.map((p: PlannedPlugin, i: number) => {
    const config = p.config ?? chalk.dim('no configuration');
    const state = p.launches ? '' : chalk.red(' (fails to launch)');
    return `  ${String(i + 1).padStart(2)}. ${p.index}-${p.name}${state}  ${chalk.dim('config:')} ${config}`;
  });
  return [`Invocation order, ${who}:`, ...lines].join('\n');
}
