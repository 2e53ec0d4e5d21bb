import { Flags } from '@oclif/core';
import {
  BaseCommand,
  criSocketFlag,
  findingsExitCode,
  nodeSocketFlag,
  outputFlag,
  pluginIndexFlag,
  pluginNameFlag,
  rootFlag,
  runtimeConfigsFlag,
  runtimeRulesFlag,
  simFlag,
  strictFlag,
  timeoutFlag,
} from '../src/cli/index.js';
import { diagnose } from '../src/diagnose/index.js';
import { formatsOf, output } from '../src/output/index.js';
import { countedFindings, diagnosisView } from '../src/views/index.js';

export default class Doctor extends BaseCommand<typeof Doctor> {
  static override summary = "Check the node's whole NRI set-up, then confirm the runtime answers.";

  static override description = `Finds the runtime's configuration (containerd's config.toml, CRI-O's crio.conf and drop-ins, iSulad's daemon.json, Docker's daemon.json "nri-opts" and a running dockerd's --nri-opts), takes the plugin directory, plugin configuration directory and socket it uses (the defaults where it says nothing), and runs against them what validate and lint run: the plugin directory, the configuration files, the runtime's NRI settings. Checks the socket: it exists, is a socket, belongs to root, and nobody else can connect to it (that takes write permission on the socket and a way through every directory above it) or replace it (a directory on the way that others can write or that another user owns); the runtimes' own 0755 socket in a root-owned directory passes. Then registers as a transient plugin (by default 99-nrictl-doctor) on that socket, or on --socket / NRI_SOCKET_PATH when given, takes the Synchronize state and disconnects, to confirm that the runtime answers (with --sim, an embedded simulator answers instead, and the offline checks still look at the node); prints its name, version and NRI generation, the number of pods and containers. It lists the runtime's pods and containers over CRI (--cri-socket, else the socket the runtime's config names, else a well-known one; it says which) before and after, and compares: what CRI lists that the Synchronize did not hand over, and what it handed over that CRI does not know, each with the reason where one can be told (exited, in an unknown state, not handed over, unknown to CRI); what came or went while it looked is not counted. Without CRI access it says "not checked" and why. Then a verdict: healthy, warnings or broken, and why. Where containerd serves its NRI metrics (2.3 and later, a metrics address in config.toml), a plugin the runtime dropped is an error, and one whose failures or latency put it near the request timeout a warning (see nrictl plugins).

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
    'runtime-config': runtimeConfigsFlag('containerd, CRI-O, iSulad or Docker'),
    root: rootFlag,
    runtime: runtimeRulesFlag("Judge by this runtime's rules instead of the config's."),
    'cri-socket': criSocketFlag,
    socket: nodeSocketFlag(
      'Connect to this NRI socket (and check it) instead of the one the runtime config names (default: from the config, else /var/run/nri/nri.sock).',
    ),
    timeout: timeoutFlag,
    'plugin-name': pluginNameFlag('nrictl-doctor'),
    'plugin-index': pluginIndexFlag('99'),
    strict: strictFlag,
    output: outputFlag(formatsOf(diagnosisView)),
    trace: Flags.boolean({
      description:
        'Also trace the plugins for a few seconds and report their latency against the request timeout (a "plugin latency" finding; see nrictl trace).',
    }),
    sim: simFlag,
  };

  protected override async execute() {
    const f = this.flags;
    const node = { root: f.root, runtimeConfigs: f['runtime-config'], runtime: f.runtime, trace: f.trace };
    const connect = {
      socketPath: f.socket,
      criSocket: f['cri-socket'],
      sim: f.sim,
      name: f['plugin-name'],
      index: f['plugin-index'],
    };
    const diagnosis = await diagnose({ ...node, ...connect, timeoutMs: f.timeout }, this.signal);
    return output(diagnosis, diagnosisView, findingsExitCode(countedFindings(diagnosis.findings), f.strict));
  }
}
