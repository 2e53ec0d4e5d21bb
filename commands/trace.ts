import { Flags } from '@oclif/core';
import * as cli from '../src/cli/index.js';
import { ObjectFilter } from '../src/observe/index.js';
import { output } from '../src/output/index.js';
import { traceNoteView, traceRecordView, traceSummaryView } from '../src/views/index.js';
import { checkTraceable, DEFAULT_TRACE_QUEUE_CAPACITY, runTrace } from '../src/trace/index.js';

export default class Trace extends cli.BaseCommand<typeof Trace> {
  static override summary = 'Show which plugin changed what in each container, and how long each plugin took.';

  static override description = `Registers short-lived probe plugins, named NN-nrictl-trace, on the free indexes around the installed plugins. The runtime calls plugins in index order and hands each one the container as the plugins before it left it, so each probe sees what the plugins before it changed, and when: for every traced event nrictl prints the time, event, pod and container, then per plugin in invocation order its time and what it changed (field, old -> new), and the total.

Where the plugins are: the plugin directory (as validate reads it, from the runtime config as doctor finds it, or --plugin-dir), plus the plugins the runtime's metrics name where containerd (2.3 and later) serves them (the metrics address in config.toml unless --plugin-dir is given, or --metrics-url; read for a second at most, and left out with a note when they cannot be), plus --index for external plugins; --probes all puts a probe on every free index for a short discovery run. Plugins with no free index between them are timed together and reported as one group. Two probes with nothing between them time one probe hop, which is subtracted from every plugin's time; each probe adds about one hop (a fraction of a millisecond; see the summary) to every traced event.

The probes answer every request at once with no change, subscribe only to the traced events (default create, update, stop; --events), and print afterwards through a bounded queue (events beyond --buffer are dropped and counted). On runtimes with validators (NRI v0.10+) --validator subscribes the last probe to ValidateContainerAdjustment too, for the runtime's own record of which plugin owns each field; that probe is then on the critical path of every creation (if it fails to answer, the creation fails), so it is off by default.

At the end (--duration, Ctrl-C, or the end of the --sim script) the probes deregister and a summary follows: per plugin and event, count, p50/p99/max, share of the runtime's request timeout (from the runtime, the runtime config or --request-timeout), a warning for any plugin whose p99 passes half of it, and, for one whose slowest answer took the whole of it, that the runtime dropped it, with the setting that bounds the timeout. -o wide heads each block as logs -o wide writes its line: the container's full id, the pod's id, uid and cgroup parent, and every resource field as the last probe saw it. -o json prints one object per event and a summary object (type "event", "summary"), -o yaml one document each. --metrics-addr serves the same figures to Prometheus. With --record FILE, the first probe (before the first plugin) also takes every other event and the Synchronize state, and nrictl writes them to FILE with what each plugin changed and how each field ended: what nrictl sim --replay FILE --compare holds a new plugin version to.`;

  static override examples = [
    cli.example("Try it without a runtime: trace the demo scenario's plugins on an embedded simulator", '--sim demo'),
    cli.example('Trace creation for a minute, wide: full ids, every resource', '--events create --duration 1m -o wide'),
    cli.example('External plugins at 10 and 40: a JSON record per event, then a summary', '--index 10,40 -o json'),
    cli.example('Serve Prometheus metrics while tracing', '--metrics-addr 127.0.0.1:9464'),
  ];

  static override flags = {
    socket: cli.socketFlag,
    output: cli.outputFlag(['table', 'wide', 'json', 'yaml']),
    events: cli.eventsFlag(
      'Comma-separated container events to trace: create, update, stop, postcreate, start, poststart, postupdate, remove (default: create,update,stop).',
      checkTraceable,
    ),
    index: cli.externalIndexesFlag,
    probes: cli.probesFlag,
    'plugin-dir': cli.pluginDirFlag(
      "Read the installed plugins from this directory instead of the runtime config's; with --sim, the simulator launches the plugins in it.",
    ),
    validator: Flags.boolean({
      description:
        "On NRI v0.10+ runtimes, also take the runtime's field owners from a validation probe (puts that probe on the critical path of container creation).",
    }),
    duration: cli.durationFlag('Stop after this long (e.g. 30s, 5m; default: until Ctrl-C).'),
    'request-timeout': cli.durationFlag(
      "The runtime's request timeout to judge plugins by (e.g. 2s), when the runtime and its config do not say.",
    ),
    'metrics-addr': cli.metricsAddrFlag('tracing'),
    'metrics-url': cli.metricsUrlFlag(),
    ...cli.filterFlags,
    buffer: cli.bufferFlag('Records', DEFAULT_TRACE_QUEUE_CAPACITY),
    timeout: cli.timeoutFlag,
    sim: cli.simFlag,
    ...cli.recordFlags,
  };

  protected override async execute() {
    const f = this.flags;
    const result = await runTrace({
      target: { socketPath: f.socket, sim: f.sim, simPluginPath: f['plugin-dir'] },
      pluginDir: f['plugin-dir'],
      indexes: f.index,
      probes: f.probes,
      events: f.events,
      validator: f.validator,
      filter: new ObjectFilter(cli.filterOf(f)),
      sink: this.recordSink(traceRecordView, { capacity: f.buffer }),
      requestTimeoutMs: f['request-timeout'],
      durationMs: f.duration,
      metricsAddr: f['metrics-addr'],
      metricsUrl: f['metrics-url'],
      timeoutMs: f.timeout,
      signal: this.signal,
      notes: this.noteSink(traceNoteView),
      record: cli.recordingOf(f, this.config.version, (w) => this.warning(w)),
    });
    return { ...output(result.summary, traceSummaryView), error: result.error };
  }
}
