// Heavy modules load inside run(), on the paths that need them: see the start-up
// pattern at the top of validate.ts. Here that matters most: the plugin SDK and the
// protobuf bindings load only when there is a socket to connect to.
import { Flags } from '@oclif/core';
import chalk from 'chalk';
import { statSync } from 'node:fs';
import { BaseCommand } from '../src/cli/base-command.js';
import { UserError, usageError } from '../src/cli/errors.js';
import { ExitCode } from '../src/cli/exit-codes.js';
import { outputFlag, pluginIndexFlag, pluginNameFlag } from '../src/cli/flags.js';
import type { ConnectionOutcome, OfflineDiagnosis, Verdict } from '../src/checks/doctor.js';
import type { Finding } from '../src/checks/finding.js';

export default class Doctor extends BaseCommand<typeof Doctor> {
  static override summary = 'Check the node\'s whole NRI set-up, then confirm the runtime answers.';

  static override description = `Finds the runtime's configuration (containerd's config.toml, CRI-O's crio.conf and drop-ins, iSulad's daemon.json), takes the plugin directory, plugin configuration directory and socket it uses (the defaults where it says nothing), and runs against them what validate and lint run: the plugin directory, the configuration files, the runtime's NRI settings. Checks the socket: it exists, is a socket, belongs to root, and nobody else can connect to it (that takes write permission on the socket and a way through every directory above it) or replace it (a directory on the way that others can write or that another user owns); the runtimes' own 0755 socket in a root-owned directory passes. Then registers as a transient plugin (by default 99-nrictl-doctor), takes the Synchronize state and disconnects, to confirm that the runtime answers; prints its name, version and NRI generation, the number of pods and containers, and a verdict: healthy, warnings or broken, and why.

Exit status: 0 without errors, 1 with errors (the runtime not answering is one), 3 with warnings only under --strict, 2 when a --runtime-config file cannot be read or --root is not a directory.`;

  static override examples = [
    { description: 'Check this node', command: '<%= config.bin %> <%= command.id %>' },
    { description: 'Check with a given runtime config, fail on warnings too', command: '<%= config.bin %> <%= command.id %> --runtime-config /etc/containerd/config.toml --strict' },
    { description: 'Check a node image mounted at /mnt/node', command: '<%= config.bin %> <%= command.id %> --root /mnt/node -o json' },
    { description: 'Try it without a runtime: connect to the embedded simulator', command: '<%= config.bin %> <%= command.id %> --sim examples/demo.yaml' },
  ];

  static override flags = {
    'runtime-config': Flags.string({
      description: 'Use this containerd, CRI-O or iSulad config file (repeat for CRI-O drop-ins) instead of the ones found on the node.',
      helpValue: 'FILE',
      multiple: true,
    }),
    root: Flags.string({
      description: 'The node\'s root directory: configs are looked for, and the paths they name are taken, under it.',
      helpValue: 'DIR',
      default: '/',
    }),
    runtime: Flags.option({
      description: 'Judge by this runtime\'s rules instead of the config\'s.',
      options: ['containerd', 'crio', 'isulad'] as const,
    })(),
    'plugin-name': pluginNameFlag('nrictl-doctor'),
    'plugin-index': pluginIndexFlag('99'),
    strict: Flags.boolean({ description: 'Exit with 3 when there are warnings but no errors.' }),
    output: outputFlag(['table', 'json'] as const, 'table'),
    trace: Flags.boolean({ description: 'Also trace the plugins for a few seconds and report their latency against the request timeout (a "plugin latency" finding; see nrictl trace).' }),
    sim: Flags.string({
      description: 'Connect to an in-process simulated runtime with this scenario instead of the node\'s socket (the offline checks still look at the node).',
      helpValue: 'SCENARIO',
    }),
  };

  public async run(): Promise<void> {
    const flags = this.flags;
    rootMustBeADirectory(flags.root);
    const { diagnoseNode, connectionFindings, doctorVerdict } = await import('../src/checks/doctor.js');

    let sim: Awaited<ReturnType<(typeof import('../src/observe/sim.js'))['startSim']>> | undefined;
    try {
      if (flags.sim) {
        const { startSim } = await import('../src/observe/sim.js');
        try {
          sim = await startSim(flags.sim);
        } catch (err) {
          const { toUserError } = await import('../src/observe/user-errors.js');
          throw toUserError(err);
        }
      }
      const diagnosis = await diagnose(diagnoseNode, { root: flags.root, runtimeConfigs: flags['runtime-config'], runtime: flags.runtime, ...(sim ? { socketPath: sim.socketPath, simulated: true } : {}) });
      const connection: ConnectionOutcome = diagnosis.canConnect
        ? await this.connect(diagnosis.resolved.socketPath)
        : { status: 'skipped', socketPath: diagnosis.resolved.socketPath };
      const findings = [...diagnosis.findings, ...connectionFindings(connection)];
      if (flags.trace) findings.push(...(await this.trace(diagnosis, connection, sim)));
      const verdict = doctorVerdict(findings, connection);
      await this.render(diagnosis, connection, findings, verdict);
      const { findingsExitCode } = await import('../src/checks/exit-status.js');
      const code = findingsExitCode(findings, flags.strict);
      if (code !== 0) this.exit(code);
    } finally {
      await sim?.stop();
    }
  }

  private async connect(socketPath: string): Promise<ConnectionOutcome> {
    const { fetchSyncState } = await import('../src/observe/sync-state.js');
    const { toUserError } = await import('../src/observe/user-errors.js');
    try {
      const state = await fetchSyncState({ socketPath, name: this.flags['plugin-name'], index: this.flags['plugin-index'] });
      return { status: 'answered', socketPath, runtime: state.runtime, pods: state.pods.length, containers: state.containers.length };
    } catch (err) {
      const mapped = toUserError(err);
      if (!(mapped instanceof UserError) || mapped.exitCode === ExitCode.USAGE) throw mapped;
      return { status: 'failed', socketPath, message: mapped.message };
    }
  }

  /** --trace: a short trace once the runtime answered; otherwise say that latency was not measured. */
  private async trace(d: OfflineDiagnosis, connection: ConnectionOutcome, sim: Parameters<(typeof import('../src/trace/doctor-finding.js'))['tracePluginLatency']>[0]['sim']): Promise<Finding[]> {
    const socketPath = d.resolved.socketPath;
    if (connection.status !== 'answered') {
      const { finding } = await import('../src/checks/finding.js');
      return [finding('info', socketPath, 'plugin-latency-unmeasured', 'the runtime did not answer: plugin latency not measured', 'fix the connection first, then run doctor --trace again')];
    }
    const { tracePluginLatency } = await import('../src/trace/doctor-finding.js');
    const { toTraceUserError } = await import('../src/trace/user-errors.js');
    try {
      return await tracePluginLatency({ socketPath, sim, pluginDir: sim ? undefined : d.resolved.pluginPath, configTimeout: d.settingsFrom && d.settings.requestTimeoutMs !== null ? { ms: d.settings.requestTimeoutMs, from: d.settingsFrom } : undefined });
    } catch (err) {
      throw toTraceUserError(err);
    }
  }

  private async render(d: OfflineDiagnosis, connection: ConnectionOutcome, findings: Finding[], verdict: Verdict): Promise<void> {
    const { countFindings, sortFindings } = await import('../src/checks/finding.js');
    const runtime = connection.status === 'answered'
      ? { ...(connection.runtime ?? { name: '', version: '', vintage: '' }), pods: connection.pods, containers: connection.containers }
      : null;
    if (this.flags.output === 'json') {
      this.log(JSON.stringify({
        root: d.root,
        runtimeConfig: d.settingsFrom ?? null,
        settings: d.settings,
        paths: d.node,
        connection: connection.status,
        runtime,
        findings: sortFindings(findings),
        counts: countFindings(findings),
        verdict,
      }, null, 2));
      return;
    }
    const { findingsTable, summaryLine } = await import('../src/checks/table.js');
    const where = d.root === '/' ? '' : ` under ${d.root}`;
    const nri = d.settings.invalid.enabled !== undefined
      ? `NRI on or off: invalid (${d.settings.invalid.enabled})`
      : d.settings.enabled === undefined ? 'NRI on or off by the runtime\'s version' : d.settings.enabled ? 'NRI enabled' : 'NRI disabled';
    this.log(chalk.bold(d.settingsFrom ? `Runtime config ${d.settingsFrom} (${d.settings.runtime}): ${nri}` : `No runtime config found${where}: default paths`));
    this.log(chalk.dim(`plugins ${d.node.pluginPath}, configuration ${d.node.pluginConfigPath}, socket ${d.node.socketPath}${where}`));
    this.log(findingsTable(findings, d.root === '/' ? undefined : d.root));
    this.log('');
    if (runtime) {
      this.log(`Runtime: ${runtime.name || 'unnamed'} ${runtime.version} (${runtime.vintage}), ${runtime.pods} pods, ${runtime.containers} containers`);
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
    throw usageError(code === 'ENOENT' || code === 'ENOTDIR' ? `--root ${root} does not exist` : `--root ${root} cannot be read (${code})`);
  }
  if (!isDirectory) throw usageError(`--root ${root} is not a directory: pass the node's root directory (/, or where a node image is mounted)`);
}

async function diagnose(run: (typeof import('../src/checks/doctor.js'))['diagnoseNode'], opts: Parameters<(typeof import('../src/checks/doctor.js'))['diagnoseNode']>[0]): Promise<OfflineDiagnosis> {
  const { CheckPathError } = await import('../src/checks/errors.js');
  const { UnknownConfigFormatError } = await import('../src/checks/runtime-config/index.js');
  try {
    return run(opts);
  } catch (err) {
    if (err instanceof CheckPathError) throw new UserError(`runtime config ${err.message}`, ExitCode.USAGE, { cause: err });
    if (err instanceof UnknownConfigFormatError) throw usageError(err.message);
    throw err;
  }
}
