import { Flags } from '@oclif/core';
import chalk from 'chalk';
import { statSync } from 'node:fs';
import {
  diagnoseNode,
  connectionFindings,
  doctorVerdict,
  countFindings,
  finding,
  sortFindings,
  type ConnectionOutcome,
  type Finding,
  type OfflineDiagnosis,
  type Verdict,
} from '../src/checks/index.js';
import {
  BaseCommand,
  findingsExitCode,
  connectOptions,
  legacyOutputFlag,
  pluginIndexFlag,
  pluginNameFlag,
  timeoutFlag,
  usageError,
} from '../src/cli/index.js';
import { countedFindings, findingsText, outputColumns, summaryLine } from '../src/render/index.js';
import { checkIdentity, openEndpoint, probeRuntime, type Endpoint } from '../src/session/index.js';
import { tracePluginLatency } from '../src/trace/index.js';

export default class Doctor extends BaseCommand<typeof Doctor> {
  static override summary = "Check the node's whole NRI set-up, then confirm the runtime answers.";

  static override description = `Finds the runtime's configuration (containerd's config.toml, CRI-O's crio.conf and drop-ins, iSulad's daemon.json), takes the plugin directory, plugin configuration directory and socket it uses (the defaults where it says nothing), and runs against them what validate and lint run: the plugin directory, the configuration files, the runtime's NRI settings. Checks the socket: it exists, is a socket, belongs to root, and nobody else can connect to it (that takes write permission on the socket and a way through every directory above it) or replace it (a directory on the way that others can write or that another user owns); the runtimes' own 0755 socket in a root-owned directory passes. Then registers as a transient plugin (by default 99-nrictl-doctor) on that socket, or on --socket / NRI_SOCKET_PATH when given, takes the Synchronize state and disconnects, to confirm that the runtime answers; prints its name, version and NRI generation, the number of pods and containers, and a verdict: healthy, warnings or broken, and why.

Exit status: 0 without errors, 1 with errors (the runtime not answering is one), 3 with warnings only under --strict, 2 when a --runtime-config file cannot be read or --root is not a directory.`;

  static override examples = [
    { description: 'Check this node', command: '<%= config.bin %> <%= command.id %>' },
    {
      description: 'Check with a given runtime config, fail on warnings too',
      command: '<%= config.bin %> <%= command.id %> --runtime-config /etc/containerd/config.toml --strict',
    },
    {
      description: 'Check a node image mounted at /mnt/node',
      command: '<%= config.bin %> <%= command.id %> --root /mnt/node -o json',
    },
    {
      description: 'Try it without a runtime: connect to the embedded simulator',
      command: '<%= config.bin %> <%= command.id %> --sim demo',
    },
  ];

  static override flags = {
    'runtime-config': Flags.string({
      description:
        'Use this containerd, CRI-O or iSulad config file (repeat for CRI-O drop-ins) instead of the ones found on the node.',
      helpValue: 'FILE',
      multiple: true,
    }),
    root: Flags.string({
      description: "The node's root directory: configs are looked for, and the paths they name are taken, under it.",
      helpValue: 'DIR',
      default: '/',
    }),
    runtime: Flags.option({
      description: "Judge by this runtime's rules instead of the config's.",
      options: ['containerd', 'crio', 'isulad'] as const,
    })(),
    socket: Flags.string({
      char: 's',
      description:
        'Connect to this NRI socket (and check it) instead of the one the runtime config names (default: from the config, else /var/run/nri/nri.sock).',
      env: 'NRI_SOCKET_PATH',
      helpValue: 'PATH',
    }),
    timeout: timeoutFlag,
    'plugin-name': pluginNameFlag('nrictl-doctor'),
    'plugin-index': pluginIndexFlag('99'),
    strict: Flags.boolean({ description: 'Exit with 3 when there are warnings but no errors.' }),
    output: legacyOutputFlag(['table', 'json'] as const, 'table'),
    trace: Flags.boolean({
      description:
        'Also trace the plugins for a few seconds and report their latency against the request timeout (a "plugin latency" finding; see nrictl trace).',
    }),
    sim: Flags.string({
      description:
        "Connect to an in-process simulated runtime with this scenario instead of the node's socket (the offline checks still look at the node).",
      helpValue: 'SCENARIO',
    }),
  };

  public override async run(): Promise<void> {
    const flags = this.flags;
    rootMustBeADirectory(flags.root);
    const connect = connectOptions({ ...flags, socket: flags.socket ?? '' });
    checkIdentity(connect.name, connect.index);
    const endpoint = flags.sim || flags.socket ? await openEndpoint(connect.target) : undefined;
    try {
      const diagnosis = diagnoseNode({
        root: flags.root,
        runtimeConfigs: flags['runtime-config'],
        runtime: flags.runtime,
        ...(endpoint ? { socketPath: endpoint.socketPath, simulated: Boolean(flags.sim) } : {}),
      });
      const socketPath = diagnosis.resolved.socketPath;
      let connection: ConnectionOutcome = { status: 'skipped', socketPath };
      if (diagnosis.canConnect) {
        const probe = await probeRuntime({ ...connect, target: { socketPath }, signal: this.stopSignal() });
        connection =
          probe.status === 'answered'
            ? { ...probe, socketPath }
            : { status: 'failed', socketPath, message: probe.message };
      }
      const findings = [...diagnosis.findings, ...connectionFindings(connection)];
      if (flags.trace) findings.push(...(await this.trace(diagnosis, connection, endpoint)));
      this.render(diagnosis, connection, findings, doctorVerdict(findings, connection));
      const code = findingsExitCode(countedFindings(findings), flags.strict);
      if (code !== 0) this.exit(code);
    } finally {
      await endpoint?.close();
    }
  }

  /** --trace: a short trace once the runtime answered; otherwise say that latency was not measured. */
  private async trace(
    d: OfflineDiagnosis,
    connection: ConnectionOutcome,
    endpoint: Endpoint | undefined,
  ): Promise<Finding[]> {
    const socketPath = d.resolved.socketPath;
    if (connection.status !== 'answered') {
      return [
        finding(
          'info',
          socketPath,
          'plugin-latency-unmeasured',
          'the runtime did not answer: plugin latency not measured',
          'fix the connection first, then run doctor --trace again',
        ),
      ];
    }
    const sim = endpoint?.sim ? endpoint : undefined;
    return tracePluginLatency({
      target: sim ?? { socketPath },
      pluginDir: sim ? undefined : d.resolved.pluginPath,
      configTimeout:
        d.settingsFrom && d.settings.requestTimeoutMs !== null
          ? { ms: d.settings.requestTimeoutMs, from: d.settingsFrom }
          : undefined,
    });
  }

  private render(d: OfflineDiagnosis, connection: ConnectionOutcome, findings: Finding[], verdict: Verdict): void {
    const runtime =
      connection.status === 'answered'
        ? {
            ...(connection.runtime ?? { name: '', version: '', vintage: '', kind: 'other' as const, label: 'unnamed' }),
            pods: connection.pods,
            containers: connection.containers,
          }
        : null;
    if (this.flags.output === 'json') {
      this.log(
        JSON.stringify(
          {
            root: d.root,
            runtimeConfig: d.settingsFrom ?? null,
            settings: d.settings,
            paths: d.node,
            connection: connection.status,
            runtime,
            findings: sortFindings(findings),
            counts: countFindings(findings),
            verdict,
          },
          null,
          2,
        ),
      );
      return;
    }
    const where = d.root === '/' ? '' : ` under ${d.root}`;
    const nri =
      d.settings.invalid.enabled !== undefined
        ? `NRI on or off: invalid (${d.settings.invalid.enabled})`
        : d.settings.enabled === undefined
          ? "NRI on or off by the runtime's version"
          : d.settings.enabled
            ? 'NRI enabled'
            : 'NRI disabled';
    this.log(
      chalk.bold(
        d.settingsFrom
          ? `Runtime config ${d.settingsFrom} (${d.settings.runtime}): ${nri}`
          : `No runtime config found${where}: default paths`,
      ),
    );
    this.log(
      chalk.dim(
        `plugins ${d.node.pluginPath}, configuration ${d.node.pluginConfigPath}, socket ${d.node.socketPath}${where}`,
      ),
    );
    this.log(findingsText(findings, outputColumns(), d.root === '/' ? undefined : d.root));
    this.log('');
    if (runtime) {
      this.log(
        `Runtime: ${runtime.label} (${runtime.vintage}), ${runtime.pods} pods, ${runtime.containers} containers`,
      );
    } else if (connection.status === 'failed') {
      this.log(chalk.red(`Runtime: not answering on ${connection.socketPath}`));
    } else {
      this.log(chalk.dim('Runtime: not asked (no socket to connect to)'));
    }
    this.log(summaryLine(findings));
    const paint = verdict.status === 'broken' ? chalk.red : verdict.status === 'warnings' ? chalk.yellow : chalk.green;
    this.log(paint(`Verdict: ${verdict.status}: ${verdict.reason}`));
  }
}

function rootMustBeADirectory(root: string): void {
  let isDirectory: boolean;
  try {
    isDirectory = statSync(root).isDirectory();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw usageError(
      code === 'ENOENT' || code === 'ENOTDIR'
        ? `--root ${root} does not exist`
        : `--root ${root} cannot be read (${code})`,
    );
  }
  if (!isDirectory)
    throw usageError(
      `--root ${root} is not a directory: pass the node's root directory (/, or where a node image is mounted)`,
    );
}
