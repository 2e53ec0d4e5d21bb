import { Flags } from '@oclif/core';
import * as cli from '../src/cli/index.js';
import { DEFAULT_LOG_QUEUE_CAPACITY, watchEvents } from '../src/observe/index.js';
import { output } from '../src/output/index.js';
import { logEventView, logNoteView, logSummaryView } from '../src/views/index.js';
import { DEFAULT_BACKOFF } from '../src/session/index.js';

export default class Logs extends cli.BaseCommand<typeof Logs> {
  static override summary = "Stream the runtime's pod and container events as a transient NRI plugin.";

  static override description = `Registers with the runtime as a plugin (by default 99-nrictl-logs: a late index, so it sees what the plugins before it changed), subscribes to every event the runtime knows or to those given with --events, and prints one line per event: time, event, pod namespace/name, container name and short id, and for create and update events the resources and what changed (old -> new). -o wide adds what the line leaves out: the container's full id, the pod's id, uid and cgroup parent, and every resource field that is set, not only cpus, mems, memory, quota, period and shares (one line per event into a pipe; on a terminal, fitted to its width at spaces). -o json prints one object per event, -o yaml one document per event; the summary stays on stderr.

The runtime waits for every subscribed plugin before it goes on, so nrictl answers each request at once (the Synchronize state too, before it reads it) and prints afterwards, through a bounded queue: when the output cannot keep up (a paused terminal, a slow pipe), events beyond --buffer are dropped and counted, and the count is printed when the output catches up and at exit.

With --reconnect (the default when stdout is a terminal), nrictl says so when the runtime goes away (a restart), tries again after 0.5s, doubling up to 10s, registers again, keeps its counts, and says how long the gap was: events in the gap were missed. Without it, nrictl exits 6 when the runtime goes away.

With --record FILE, nrictl also writes what it sees to FILE for nrictl sim --replay: the runtime's name and versions, the Synchronize state, and every event with its time and the request as the runtime sent it, environment values redacted unless --record-env. It then registers at index 00 unless --plugin-index is given, so that the requests are recorded before any plugin changed them.

With --metrics-addr, nrictl serves Prometheus metrics on HOST:PORT/metrics while it runs: events delivered by type, events dropped, registrations; the server closes when logs ends.

Ctrl-C, SIGTERM or SIGHUP closes the connection, prints what is queued and a one-line summary on stderr, and exits 0; so does a reader that goes away (nrictl logs | head).`;

  static override examples = [
    cli.example('Try it without a runtime: watch the demo scenario on an embedded simulator', '--sim demo'),
    cli.example('Watch every event on the default socket'),
    cli.example('Only container creation and updates in namespace shop', '--events create,update -n shop'),
    cli.example("Full ids, the pod's uid and cgroup parent, and every resource field", '--sim demo -o wide'),
    cli.example(
      'One JSON object per event, for jq or a log pipeline, surviving runtime restarts',
      '-o json --reconnect | jq .event',
    ),
    cli.example(
      'Serve Prometheus metrics (event counts by type, drops) while logging',
      '-o json --metrics-addr 127.0.0.1:9464',
    ),
    cli.example("Pods labelled app=web, on CRI-O's socket", '-l app=web --socket /var/run/nri/nri.sock'),
    cli.example('Record an hour of traffic for nrictl sim --replay', '--record node.jsonl.gz --record-max 1Gi'),
  ];

  static override flags = {
    socket: cli.socketFlag,
    'plugin-name': cli.pluginNameFlag('nrictl-logs'),
    'plugin-index': cli.logsPluginIndexFlag,
    output: cli.outputFlag(['table', 'wide', 'json', 'yaml']),
    events: cli.eventsFlag(
      'Comma-separated events to subscribe to: names like create, poststart, runpod, CreateContainer, validate, or the groups all, pod, container. Default: every event the runtime knows except validate (ValidateContainerAdjustment), which puts nrictl on the critical path of container creation; the groups all and container include it.',
    ),
    ...cli.filterFlags,
    buffer: cli.bufferFlag('Events', DEFAULT_LOG_QUEUE_CAPACITY),
    reconnect: Flags.boolean({
      description:
        'When the runtime goes away, register again once it is back, and say how long the gap was (default: on when stdout is a terminal).',
      allowNo: true,
    }),
    'metrics-addr': cli.metricsAddrFlag('logging'),
    timeout: cli.timeoutFlag,
    sim: cli.simFlag,
    ...cli.recordFlags,
  };

  protected override async execute() {
    const f = this.flags;
    const result = await watchEvents(
      {
        ...cli.connectOptions({ ...f, 'plugin-index': f['plugin-index'] ?? (f.record ? '00' : '99') }),
        events: f.events,
        filter: cli.filterOf(f),
        reconnect: (f.reconnect ?? Boolean(process.stdout.isTTY)) ? DEFAULT_BACKOFF : false,
        metricsAddr: f['metrics-addr'],
        sink: this.recordSink(logEventView, { capacity: f.buffer, summary: 'stderr' }),
        notes: this.noteSink(logNoteView),
        record: cli.recordingOf(f, this.config.version, (w) => this.warning(w)),
      },
      this.signal,
    );
    // The summary, then (the runtime went away without --reconnect) the error: exit 6.
    return { ...output(result, logSummaryView), error: result.error };
  }
}
