import {
  BaseCommand,
  durationFlag,
  metricsUrlFlag,
  nodeSocketFlag,
  outputFlag,
  pluginDirFlag,
  rootFlag,
  runtimeConfigsFlag,
} from '../src/cli/index.js';
import { listPlugins } from '../src/diagnose/index.js';
import { formatsOf, output } from '../src/output/index.js';
import { pluginsView } from '../src/views/index.js';

export default class Plugins extends BaseCommand<typeof Plugins> {
  static override summary =
    'List the plugins a node runs: from the runtime itself where it counts them, else by probes.';

  static override description = `Where the runtime serves NRI metrics (containerd 2.3 and later, with a metrics address in config.toml: [plugins."io.containerd.server.v1.metrics"] address, or [metrics] address in files of config version 3 or older; or --metrics-url), lists the plugins the runtime knows by their full NN-name, external ones included: whether each is active, pre-started from the plugin directory or external, its calls, its failures by operation, and its slowest operation's p99 latency (estimated from the runtime's histogram) against the request timeout. A plugin that failed a call fatally (past the timeout, or its connection gone) is marked dropped only when that was recent: containerd counts every failure since it started and one reading cannot say when, so dropped means the runtime started within the last 5 minutes. An older failure is history: a pre-started plugin no longer counted active is not running (the runtime does not start it again), any other is gone (failed earlier), as transient test plugins are. nrictl exporter watches for new drops. -o wide adds every operation's figures.

Elsewhere (CRI-O, iSulad, Docker, containerd before 2.3, no metrics address, or metrics that cannot be read) it says on stderr why, lists what the plugin directory holds, and probes the node, each row saying what its probe saw and no more. A process whose environment carries NRI_PLUGIN_NAME and NRI_PLUGIN_IDX (set by the runtime when it starts a plugin from the directory) is a running pre-started plugin; an installed one with no such process is "installed, not running" (it failed to start, or the runtime dropped it). Each connection accepted on the NRI socket (--socket; /proc/net/unix) is an external client connected now, a plugin or a tool such as nrictl logs, named by the process at its other end (ss, from iproute2), never by its NRI name, which only the runtime knows. Not root, other users' environments and sockets are closed to nrictl: a plugin is then seen by its command line (the runtime runs the file itself), and a connection's process is not named; what a probe could not see (not root, no ss, hidepid) is said below the rows.

Exit status: 0; 2 for a --metrics-url that is not an http URL; when --metrics-url cannot be read, 4 (no connection), 6 (no answer within --timeout) or 1 (not a metrics page, an HTTP error, too large). A metrics address from the config that cannot be read falls back to the plugin directory instead.`;

  static override examples = [
    { description: 'The plugins of this node', command: '<%= config.bin %> <%= command.id %>' },
    {
      description: "Read containerd's metrics at a given address, with every operation",
      command: '<%= config.bin %> <%= command.id %> --metrics-url 127.0.0.1:1338 -o wide',
    },
    { description: 'Only the names', command: '<%= config.bin %> <%= command.id %> -o name' },
  ];

  static override flags = {
    'metrics-url': metricsUrlFlag(),
    socket: nodeSocketFlag(
      'The NRI socket whose connections to count, without metrics (default: from the config, else /var/run/nri/nri.sock).',
    ),
    'runtime-config': runtimeConfigsFlag('runtime'),
    root: rootFlag,
    'plugin-dir': pluginDirFlag("The plugin directory (default: the runtime config's, else /opt/nri/plugins)."),
    timeout: durationFlag('How long to wait for the metrics page, such as 5s (default 5s).'),
    output: outputFlag(formatsOf(pluginsView)),
  };

  protected override async execute() {
    const f = this.flags;
    const report = await listPlugins(
      {
        root: f.root,
        runtimeConfigs: f['runtime-config'],
        metricsUrl: f['metrics-url'],
        pluginDir: f['plugin-dir'],
        timeoutMs: f.timeout,
        socketPath: f.socket,
      },
      this.signal,
    );
    return output(report, pluginsView);
  }
}
