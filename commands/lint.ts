// Heavy modules load inside run(), on the paths that need them: see the start-up
// pattern at the top of validate.ts.
import { Args, Flags } from '@oclif/core';
import chalk from 'chalk';
import { statSync } from 'node:fs';
import { BaseCommand } from '../src/cli/base-command.js';
import { UserError, usageError } from '../src/cli/errors.js';
import { ExitCode } from '../src/cli/exit-codes.js';
import { outputFlag } from '../src/cli/flags.js';
import { DEFAULT_PLUGIN_CONFIG_PATH, DEFAULT_PLUGIN_PATH } from '../src/checks/defaults.js';
import type { ConfDirReport, Finding, RuntimeConfigReport, RuntimeKind } from '../src/checks/index.js';

export default class Lint extends BaseCommand<typeof Lint> {
  static override summary = 'Lint plugin configuration files and the runtime\'s own NRI settings.';

  static override description = `Given a directory (default ${DEFAULT_PLUGIN_CONFIG_PATH}): for every file, which plugin the runtime hands it to (NN-name.conf wins over name.conf), or whether it is an orphan, shadowed by a more specific file, unreadable (the runtime then fails plugin discovery), writable by others, or not valid YAML/JSON (the runtime passes the text through as it is).

Given a file: containerd's config.toml ([plugins."io.containerd.nri.v1.nri"], 1.7 and 2.x layouts), CRI-O's crio.conf or a drop-in ([crio.nri]), or iSulad's daemon.json, recognised by name and content: NRI on or off, socket, plugin and config paths, timeouts, external connections; unknown keys (with the key you probably meant) and wrong types.

Without PATH: ${DEFAULT_PLUGIN_CONFIG_PATH} (or the directory the runtime config names) and every runtime config found on the node (/etc/containerd/config.toml, /etc/crio/crio.conf and crio.conf.d/*.conf, /etc/isulad/daemon.json). A node without that directory gets a note (conf-dir-missing), as from doctor, not an error: every plugin then gets an empty configuration.

Exit status: 0 without errors, 1 with errors, 3 with warnings only under --strict, 2 when PATH cannot be read.`;

  static override examples = [
    { description: 'Lint the node: conf.d and every runtime config found', command: '<%= config.bin %> <%= command.id %>' },
    { description: 'Lint a configuration directory against a plugin directory', command: '<%= config.bin %> <%= command.id %> /etc/nri/conf.d --plugin-path /opt/nri/plugins' },
    { description: 'Lint containerd\'s NRI settings', command: '<%= config.bin %> <%= command.id %> /etc/containerd/config.toml' },
    { description: 'Lint CRI-O with a drop-in, as JSON', command: '<%= config.bin %> <%= command.id %> /etc/crio/crio.conf /etc/crio/crio.conf.d/10-nri.conf -o json' },
  ];

  static override strict = false;

  static override args = {
    path: Args.string({ description: `Configuration directory, or runtime config file(s). Default: ${DEFAULT_PLUGIN_CONFIG_PATH} and the runtime configs on this node.`, required: false }),
  };

  static override flags = {
    'plugin-path': Flags.string({
      description: `Plugin directory the configuration files are checked against (default ${DEFAULT_PLUGIN_PATH}, or the runtime config's).`,
      helpValue: 'DIR',
    }),
    runtime: Flags.option({
      description: 'Judge conf.d by this runtime\'s rules (iSulad reads only NN-name.conf).',
      options: ['containerd', 'crio', 'isulad'] as const,
    })(),
    strict: Flags.boolean({ description: 'Exit with 3 when there are warnings but no errors.' }),
    output: outputFlag(['table', 'json'] as const, 'table'),
  };

  public async run(): Promise<void> {
    const { argv } = await this.parse(Lint);
    const paths = argv as string[];
    const flags = this.flags;
    const runtime: RuntimeKind | undefined = flags.runtime;
    let confDir: ConfDirReport | undefined;
    let configs: RuntimeConfigReport[] = [];
    // Without a path, a node without a configuration directory is no fault (doctor agrees).
    let confDirMissing: Finding | undefined;

    if (paths.length === 1 && isDirectory(paths[0]!)) {
      confDir = await lintConfDir(paths[0]!, flags['plugin-path'] ?? DEFAULT_PLUGIN_PATH, runtime);
    } else if (paths.length > 0) {
      configs = await lintConfigs(paths);
    } else {
      configs = await lintConfigs(await findConfigsOnNode());
      const settings = configs.at(-1)?.settings;
      const dir = settings?.pluginConfigPath ?? DEFAULT_PLUGIN_CONFIG_PATH;
      const { isMissing } = await import('../src/checks/errors.js');
      if (isMissing(dir)) confDirMissing = (await import('../src/checks/conf-dir.js')).confDirMissing(dir);
      else if (isDirectory(dir)) confDir = await lintConfDir(dir, flags['plugin-path'] ?? settings?.pluginPath ?? DEFAULT_PLUGIN_PATH, runtime ?? settings?.runtime);
    }

    const { countFindings, sortFindings } = await import('../src/checks/finding.js');
    const { findingsExitCode } = await import('../src/checks/exit-status.js');
    const findings: Finding[] = [...(confDirMissing ? [confDirMissing] : []), ...(confDir?.findings ?? []), ...configs.flatMap((c) => c.findings)];
    if (flags.output === 'json') {
      this.log(JSON.stringify({
        ...(confDir ? { confDir } : {}),
        runtimeConfigs: configs,
        findings: sortFindings(findings),
        counts: countFindings(findings),
      }, null, 2));
    } else {
      const { findingsTable, summaryLine } = await import('../src/checks/table.js');
      if (!confDir && configs.length === 0 && !confDirMissing) this.log('Nothing to lint: no configuration directory and no runtime config found.');
      if (confDirMissing) {
        this.log(chalk.bold(`Configuration directory ${confDirMissing.path}`));
        this.log(findingsTable([confDirMissing]));
      }
      if (confDir) {
        this.log(chalk.bold(`Configuration directory ${confDir.dir}`) + chalk.dim(` (plugins from ${confDir.pluginDir})`));
        this.log(findingsTable(confDir.findings, confDir.dir));
      }
      for (const c of configs) {
        this.log(chalk.bold(`${c.format} config ${c.file}`));
        this.log(findingsTable(c.findings));
      }
      this.log(summaryLine(findings));
    }
    const code = findingsExitCode(findings, flags.strict);
    if (code !== 0) this.exit(code);
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch (err) {
    throw new UserError(`${path} ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'does not exist' : `cannot be read (${(err as NodeJS.ErrnoException).code})`}`, ExitCode.USAGE, { cause: err });
  }
}

async function lintConfDir(dir: string, pluginDir: string, runtime: RuntimeKind | undefined): Promise<ConfDirReport> {
  const { checkConfDir } = await import('../src/checks/conf-dir.js');
  const { CheckPathError } = await import('../src/checks/errors.js');
  try {
    return checkConfDir(dir, pluginDir, { runtime });
  } catch (err) {
    if (err instanceof CheckPathError) throw new UserError(`configuration directory ${err.message}`, ExitCode.USAGE, { cause: err });
    throw err;
  }
}

async function findConfigsOnNode(): Promise<string[]> {
  const { findRuntimeConfigs } = await import('../src/checks/runtime-config/index.js');
  const { CheckPathError } = await import('../src/checks/errors.js');
  try {
    return findRuntimeConfigs();
  } catch (err) {
    if (err instanceof CheckPathError) throw new UserError(`runtime config ${err.message}`, ExitCode.USAGE, { cause: err });
    throw err;
  }
}

async function lintConfigs(files: string[]): Promise<RuntimeConfigReport[]> {
  const { lintRuntimeConfigs, UnknownConfigFormatError } = await import('../src/checks/runtime-config/index.js');
  const { CheckPathError } = await import('../src/checks/errors.js');
  try {
    return lintRuntimeConfigs(files);
  } catch (err) {
    if (err instanceof CheckPathError) throw new UserError(`runtime config ${err.message}`, ExitCode.USAGE, { cause: err });
    if (err instanceof UnknownConfigFormatError) throw usageError(err.message);
    throw err;
  }
}
