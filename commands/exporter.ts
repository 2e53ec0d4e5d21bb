import { Flags } from '@oclif/core';
import * as cli from '../src/cli/index.js';
import { runExporter } from '../src/exporter/index.js';
import { output } from '../src/output/index.js';
import { exporterNoteView, exporterView } from '../src/views/index.js';

export default class Exporter extends cli.BaseCommand<typeof Exporter> {
  static override summary =
    "Serve a node's NRI health to Prometheus: the runtime up or not, its plugins, doctor's findings, the last conformance report.";

  static override description = `A long-running command for a DaemonSet (docs/exporter.md lists every metric and label, a stable contract). It serves /metrics on --metrics-addr and stays registered with the runtime as the plugin 99-nrictl-exporter, subscribed to the one rarest event the runtime knows (UpdatePodSandbox, else RemovePodSandbox: never container creation), every request answered at once and the runtime's pods and containers dropped unread. nrictl_nri_up is 1 while it is registered; when the runtime goes away it is 0, and nrictl registers again after 0.5s, doubling up to 10s. A runtime not there at start is waited for the same way.

Every --interval it re-reads the node as doctor and plugins do: doctor's offline findings (nrictl_doctor_findings), the plugins and their states (nrictl_plugin_info: active, pre-started, external, not-running, dropped, misnamed; from the runtime's metrics where containerd 2.3+ serves them, else the plugin directory and probes of the node). A plugin is dropped while its fatal failures rose within --drop-window: containerd's counters keep every failure since it started, and an older one is history (a pre-started plugin then reads not-running, a plugin from outside is left out), and with --conformance-report the last nrictl conformance -o json report. What cannot be read is one line on stderr and a count in nrictl_exporter_errors_total, and its series are left out; the exporter goes on. Labels never name a pod or a container. It never creates a pod.

Ctrl-C, SIGTERM or the end of --duration leaves the runtime, closes the server and prints one line: how long it ran, its registrations and its errors. Exit status: 0; 2 for a bad --metrics-addr (or one in use), --interval, --drop-window, --metrics-url, --plugin-name or --plugin-index, before anything is registered.`;

  static override examples = [
    cli.example('Try it without a runtime: the demo scenario, metrics on 127.0.0.1:9641', '--sim demo'),
    cli.example('As a DaemonSet runs it (hostPID, the NRI paths mounted): every interface', '--metrics-addr :9641'),
    cli.example(
      "With the conformance Job's report, every minute",
      '--conformance-report /var/lib/nrictl/c.json --interval 1m',
    ),
    cli.example('A simulated CRI-O 1.32 node', '--sim demo --preset crio-1.32'),
  ];

  static override flags = {
    socket: cli.socketFlag,
    'metrics-addr': cli.exporterMetricsAddrFlag,
    interval: cli.durationFlagWithDefault(
      "How often to re-read the node's NRI files and the runtime's metrics.",
      '30s',
    ),
    'drop-window': cli.durationFlagWithDefault(
      'How long a plugin reads dropped after the runtime counted a fatal failure of it.',
      '5m',
    ),
    'conformance-report': Flags.string({
      description: 'The last nrictl conformance -o json report on this node, re-read every interval.',
      helpValue: 'FILE',
    }),
    root: cli.rootFlag,
    'runtime-config': cli.runtimeConfigsFlag('runtime'),
    'plugin-dir': cli.pluginDirFlag("The plugin directory (default: the runtime config's, else /opt/nri/plugins)."),
    'metrics-url': cli.metricsUrlFlag(),
    'plugin-name': cli.pluginNameFlag('nrictl-exporter'),
    'plugin-index': cli.pluginIndexFlag('99'),
    duration: cli.durationFlag('Stop after this long, such as 1h (default: until Ctrl-C or SIGTERM).'),
    timeout: cli.timeoutFlag,
    sim: cli.simFlag,
    preset: Flags.string({ description: 'With --sim: the runtime release line to imitate (as nrictl sim --preset).' }),
    output: cli.outputFlag(['table', 'json', 'yaml']),
  };

  protected override async execute() {
    const f = this.flags;
    const result = await runExporter(
      {
        ...cli.connectOptions(f),
        target: { socketPath: f.socket, sim: f.sim, simPluginPath: f['plugin-dir'], simPreset: f.preset },
        metricsAddr: f['metrics-addr'],
        intervalMs: f.interval,
        durationMs: f.duration,
        dropWindowMs: f['drop-window'],
        node: {
          root: f.root,
          runtimeConfigs: f['runtime-config'],
          pluginDir: f['plugin-dir'],
          metricsUrl: f['metrics-url'],
          conformanceReport: f['conformance-report'],
        },
        notes: this.noteSink(exporterNoteView),
      },
      this.signal,
    );
    return output(result, exporterView);
  }
}
