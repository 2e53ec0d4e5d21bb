import { Args, Flags } from '@oclif/core';
import chalk from 'chalk';
import { statSync } from 'node:fs';
import {
  DEFAULT_PLUGIN_CONFIG_PATH,
  DEFAULT_PLUGIN_PATH,
  checkConfDir,
  confDirMissing as missingConfDir,
  countFindings,
  findRuntimeConfigs,
  isMissing,
  lintRuntimeConfigs,
  sortFindings,
  type ConfDirReport,
  type Finding,
  type RuntimeConfigReport,
  type RuntimeKind,
} from '../src/checks/index.js';
import { BaseCommand, findingsExitCode, legacyOutputFlag, usageError } from '../src/cli/index.js';
import { countedFindings, findingsText, outputColumns, summaryLine } from '../src/render/index.js';

export default class Lint extends BaseCommand<typeof Lint> {
  static override summary = "Lint plugin configuration files and the runtime's own NRI settings.";

  static override description = `Given a directory (default ${DEFAULT_PLUGIN_CONFIG_PATH}): for every file, which plugin the runtime hands it to (NN-name.conf wins over name.conf), or whether it is an orphan, shadowed by a more specific file, unreadable (the runtime then fails plugin discovery), writable by others, or not valid YAML/JSON (the runtime passes the text through as it is).

Given a file: containerd's config.toml ([plugins."io.containerd.nri.v1.nri"], 1.7 and 2.x layouts), CRI-O's crio.conf or a drop-in ([crio.nri]), or iSulad's daemon.json, recognised by name and content: NRI on or off, socket, plugin and config paths, timeouts, external connections; unknown keys (with the key you probably meant) and wrong types.

Without PATH: ${DEFAULT_PLUGIN_CONFIG_PATH} (or the directory the runtime config names) and every runtime config found on the node (/etc/containerd/config.toml, /etc/crio/crio.conf and crio.conf.d/*.conf, /etc/isulad/daemon.json). A node without that directory gets a note (conf-dir-missing), as from doctor, not an error: every plugin then gets an empty configuration.

Exit status: 0 without errors, 1 with errors, 3 with warnings only under --strict, 2 when PATH cannot be read.`;

  static override examples = [
    {
      description: 'Lint the node: conf.d and every runtime config found',
      command: '<%= config.bin %> <%= command.id %>',
    },
    {
      description: 'Lint a configuration directory against a plugin directory',
      command: '<%= config.bin %> <%= command.id %> /etc/nri/conf.d --plugin-path /opt/nri/plugins',
    },
    {
      description: "Lint containerd's NRI settings",
      command: '<%= config.bin %> <%= command.id %> /etc/containerd/config.toml',
    },
    {
      description: 'Lint CRI-O with a drop-in, as JSON',
      command: '<%= config.bin %> <%= command.id %> /etc/crio/crio.conf /etc/crio/crio.conf.d/10-nri.conf -o json',
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
    'plugin-path': Flags.string({
      description: `Plugin directory the configuration files are checked against (default ${DEFAULT_PLUGIN_PATH}, or the runtime config's).`,
      helpValue: 'DIR',
    }),
    runtime: Flags.option({
      description: "Judge conf.d by this runtime's rules (iSulad reads only NN-name.conf).",
      options: ['containerd', 'crio', 'isulad'] as const,
    })(),
    strict: Flags.boolean({ description: 'Exit with 3 when there are warnings but no errors.' }),
    output: legacyOutputFlag(['table', 'json'] as const, 'table'),
  };

  public override async run(): Promise<void> {
    const { argv } = await this.parse(Lint);
    const paths = argv as string[];
    const flags = this.flags;
    const runtime: RuntimeKind | undefined = flags.runtime;
    let confDir: ConfDirReport | undefined;
    let configs: RuntimeConfigReport[] = [];
    // Without a path, a node without a configuration directory is no fault (doctor agrees).
    let confDirMissing: Finding | undefined;

    if (paths.length === 1 && isDirectory(paths[0])) {
      confDir = checkConfDir(paths[0], flags['plugin-path'] ?? DEFAULT_PLUGIN_PATH, { runtime });
    } else if (paths.length > 0) {
      configs = lintRuntimeConfigs(paths);
    } else {
      configs = lintRuntimeConfigs(findRuntimeConfigs());
      const settings = configs.at(-1)?.settings;
      const dir = settings?.pluginConfigPath ?? DEFAULT_PLUGIN_CONFIG_PATH;
      if (isMissing(dir)) confDirMissing = missingConfDir(dir);
      else if (isDirectory(dir))
        confDir = checkConfDir(dir, flags['plugin-path'] ?? settings?.pluginPath ?? DEFAULT_PLUGIN_PATH, {
          runtime: runtime ?? settings?.runtime,
        });
    }

    const findings: Finding[] = [
      ...(confDirMissing ? [confDirMissing] : []),
      ...(confDir?.findings ?? []),
      ...configs.flatMap((c) => c.findings),
    ];
    if (flags.output === 'json') {
      this.log(
        JSON.stringify(
          {
            ...(confDir ? { confDir } : {}),
            runtimeConfigs: configs,
            findings: sortFindings(findings),
            counts: countFindings(findings),
          },
          null,
          2,
        ),
      );
    } else {
      if (!confDir && configs.length === 0 && !confDirMissing)
        this.log('Nothing to lint: no configuration directory and no runtime config found.');
      if (confDirMissing) {
        this.log(chalk.bold(`Configuration directory ${confDirMissing.path}`));
        this.log(findingsText([confDirMissing], outputColumns()));
      }
      if (confDir) {
        this.log(
          chalk.bold(`Configuration directory ${confDir.dir}`) + chalk.dim(` (plugins from ${confDir.pluginDir})`),
        );
        this.log(findingsText(confDir.findings, outputColumns(), confDir.dir));
      }
      for (const c of configs) {
        this.log(chalk.bold(`${c.format} config ${c.file}`));
        this.log(findingsText(c.findings, outputColumns()));
      }
      this.log(summaryLine(findings));
    }
    const code = findingsExitCode(countedFindings(findings), flags.strict);
    if (code !== 0) this.exit(code);
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw usageError(`${path} ${code === 'ENOENT' ? 'does not exist' : `cannot be read (${code})`}`);
  }
}
