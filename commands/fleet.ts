import { Flags } from '@oclif/core';
import { BaseCommand, durationFlagWithDefault, ExitCode, outputFlag } from '../src/cli/index.js';
import { readFleet } from '../src/fleet/index.js';
import { formatsOf, output } from '../src/output/index.js';
import { fleetView } from '../src/views/index.js';

export default class Fleet extends BaseCommand<typeof Fleet> {
  static override summary =
    "NRI across nodes: one row per node from the Prometheus that scrapes each node's nrictl exporter.";

  static override description = `Asks Prometheus (instant queries of its HTTP API, each within --timeout) what every node's \`nrictl exporter\` last reported: its runtime, version and NRI version; whether the runtime accepts NRI plugins (up); its plugins (active, dropped, not running); doctor's findings; the last conformance report's verdicts. A node is named by its target's node label (the scrape configs in deploy/ set it from the pod's node name), else by its instance.

A node whose exporter stopped reporting (Prometheus marked its series stale, or its last sample is older than --stale-after) is listed as stale with what it said last, for --lookback; it is never left out. -o wide adds the plugins dropped or not running by name, the error findings' codes and the failed conformance checks. -l narrows every query to targets with these labels.

Exit status: 0 when every node is up and current, with no error finding, no dropped plugin and no failed conformance check; 1 when a node fails one of these (the table ends with which and why) or no node reported at all; 2 for a bad selector, or a --prometheus URL that cannot be reached, answers no Prometheus API (an HTTP error, not JSON) or not within --timeout.`;

  static override examples = [
    {
      description: 'Every node the fleet Prometheus knows of',
      command: '<%= config.bin %> <%= command.id %> --prometheus http://prometheus.monitoring:9090',
    },
    {
      description: 'One node pool, with the names of dropped plugins and failed checks',
      command: '<%= config.bin %> <%= command.id %> --prometheus http://prometheus:9090 -l pool=gpu -o wide',
    },
    {
      description: 'A gate for CI or cron: the exit status alone',
      command: '<%= config.bin %> <%= command.id %> --prometheus http://prometheus:9090 -o json > fleet.json',
    },
  ];

  static override flags = {
    prometheus: Flags.string({
      description: "Prometheus' URL (its root, or the path prefix it is served under).",
      helpValue: 'URL',
      required: true,
      env: 'NRICTL_PROMETHEUS_URL',
    }),
    selector: Flags.string({
      char: 'l',
      description:
        'Only targets with these labels: key=value or key!=value, joined by commas (such as job=nrictl-exporter,pool=gpu).',
      helpValue: 'KEY=VALUE,...',
    }),
    timeout: durationFlagWithDefault('How long each query may take.', '10s'),
    'stale-after': durationFlagWithDefault('A node whose last sample is older than this is stale.', '2m'),
    lookback: durationFlagWithDefault('How long a node that stopped reporting is still listed.', '1h'),
    output: outputFlag(formatsOf(fleetView)),
  };

  protected override async execute() {
    const f = this.flags;
    const report = await readFleet(
      {
        prometheus: f.prometheus,
        selector: f.selector,
        timeoutMs: f.timeout,
        staleAfterMs: f['stale-after'],
        lookbackMs: f.lookback,
      },
      this.signal,
    );
    const healthy = report.nodes.length > 0 && report.failing === 0;
    return output(report, fleetView, healthy ? ExitCode.OK : ExitCode.FAILED);
  }
}
