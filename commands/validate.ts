// Start-up pattern for every command (all of them follow it; please do too):
// - At top level import only what the class body needs for --help and flag parsing:
//   @oclif/core, src/cli/*, chalk (base-command loads it anyway), and constants from
//   files that import nothing (src/checks/defaults.ts). Types come with `import type`,
//   which the compiler erases.
// - Load everything run() uses (checks, parsers, the table renderer, the protobuf
//   bindings, the plugin SDK, the simulator) with `await import()` inside run(), and
//   only on the paths that use it: JSON output never loads the table renderer.
// Without an oclif manifest, oclif imports every command file to list the commands, so
// one heavy top-level import slows down every command, --help included.
import { Args, Flags } from '@oclif/core';
import chalk from 'chalk';
import { BaseCommand } from '../src/cli/base-command.js';
import { UserError, usageError } from '../src/cli/errors.js';
import { ExitCode } from '../src/cli/exit-codes.js';
import { outputFlag } from '../src/cli/flags.js';
import { DEFAULT_PLUGIN_CONFIG_PATH, DEFAULT_PLUGIN_PATH } from '../src/checks/defaults.js';
import type { PlannedPlugin, PluginDirReport, RuntimeKind } from '../src/checks/index.js';

export default class Validate extends BaseCommand<typeof Validate> {
  static override summary = 'Check a plugin directory the way the runtime will read it.';

  static override description = `For every entry: the name (two digits, '-', a name), execute bits, file type (regular file, symlink and its target, dangling link, directory, fifo, socket), owner and mode of the file, the directory and its parents, whether it can run (ELF, or a #! script whose interpreter exists), duplicate indexes and names, and the configuration file the runtime will hand it. Each finding says what the runtime will do: launch it, skip it silently, or fail plugin start-up altogether. Then prints the order in which the runtime will invoke the plugins.

Exit status: 0 without errors, 1 with errors, 3 with warnings only under --strict, 2 when the directory cannot be read.`;

  static override examples = [
    { description: 'Check the default plugin directory', command: '<%= config.bin %> <%= command.id %>' },
    { description: 'Check the directory containerd is configured to use', command: '<%= config.bin %> <%= command.id %> --runtime-config /etc/containerd/config.toml' },
    { description: 'Judge by iSulad\'s rules, fail on warnings too', command: '<%= config.bin %> <%= command.id %> /opt/nri/plugins --runtime isulad --strict' },
    { description: 'Machine-readable findings', command: '<%= config.bin %> <%= command.id %> -o json' },
  ];

  static override args = {
    dir: Args.string({ description: `Plugin directory (default ${DEFAULT_PLUGIN_PATH}, or plugin_path from --runtime-config).`, required: false }),
  };

  static override flags = {
    'runtime-config': Flags.string({
      description: 'Read the plugin and configuration paths (and the runtime) from this containerd, CRI-O or iSulad config file.',
      helpValue: 'FILE',
    }),
    'plugin-config-path': Flags.string({
      description: `Where the runtime looks up plugin configuration (default ${DEFAULT_PLUGIN_CONFIG_PATH}).`,
      helpValue: 'DIR',
    }),
    runtime: Flags.option({
      description: 'Judge by this runtime\'s rules (containerd and CRI-O share the Go rules; iSulad differs). Default: from --runtime-config, else the Go rules with iSulad notes.',
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
      const settings = await readRuntimeSettings(flags['runtime-config']);
      dir ??= settings.pluginPath;
      confDir ??= settings.pluginConfigPath;
      runtime ??= settings.runtime;
    }

    const { checkPluginDir } = await import('../src/checks/plugin-dir.js');
    const { CheckPathError } = await import('../src/checks/errors.js');
    const { countFindings, sortFindings } = await import('../src/checks/finding.js');
    const { findingsExitCode } = await import('../src/checks/exit-status.js');
    let report: PluginDirReport;
    try {
      report = checkPluginDir(dir ?? DEFAULT_PLUGIN_PATH, { confDir: confDir ?? DEFAULT_PLUGIN_CONFIG_PATH, runtime });
    } catch (err) {
      if (err instanceof CheckPathError) throw new UserError(`plugin directory ${err.message}`, ExitCode.USAGE, { cause: err });
      throw err;
    }

    if (flags.output === 'json') {
      this.log(JSON.stringify({ ...report, findings: sortFindings(report.findings), counts: countFindings(report.findings) }, null, 2));
    } else {
      const { findingsTable, summaryLine } = await import('../src/checks/table.js');
      this.log(chalk.bold(`Plugin directory ${report.dir}`) + chalk.dim(` (configuration from ${report.confDir}${report.runtime ? `, rules of ${report.runtime}` : ''})`));
      this.log(findingsTable(report.findings, report.dir));
      this.log('');
      this.log(renderOrder(report));
      this.log(summaryLine(report.findings));
    }
    const code = findingsExitCode(report.findings, flags.strict);
    if (code !== 0) this.exit(code);
  }
}

async function readRuntimeSettings(file: string) {
  const { lintRuntimeConfig, UnknownConfigFormatError } = await import('../src/checks/runtime-config/index.js');
  const { CheckPathError } = await import('../src/checks/errors.js');
  try {
    return lintRuntimeConfig(file).settings;
  } catch (err) {
    if (err instanceof CheckPathError) throw new UserError(`runtime config ${err.message}`, ExitCode.USAGE, { cause: err });
    if (err instanceof UnknownConfigFormatError) throw usageError(err.message);
    throw err;
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
