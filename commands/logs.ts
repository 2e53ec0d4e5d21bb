import { Flags } from '@oclif/core';
import chalk from 'chalk';
import { eventMask, formatEventMask, parseEventNames } from '../src/api/index.js';
import {
  BaseCommand,
  connectOptions,
  connectProgress,
  ExitCode,
  filterFlags,
  legacyOutputFlag,
  pluginIndexFlag,
  pluginNameFlag,
  simFlag,
  socketFlag,
  targetLabel,
  timeoutFlag,
  usageError,
} from '../src/cli/index.js';
import {
  DEFAULT_LOG_QUEUE_CAPACITY,
  LogStream,
  ObjectFilter,
  formatLogSummary,
  type LogSummary,
} from '../src/observe/index.js';
import { nonBlockingStdout } from '../src/render/index.js';
import { DEFAULT_BACKOFF, SessionError, type WatchNotice } from '../src/session/index.js';
import { formatDuration } from '../src/units/index.js';

export default class Logs extends BaseCommand<typeof Logs> {
  static override summary = "Stream the runtime's pod and container events as a transient NRI plugin.";

  static override description = `Registers with the runtime as a plugin (by default 99-nrictl-logs: a late index, so it sees what the plugins before it changed), subscribes to every event the runtime knows or to those given with --events, and prints one line per event: time, event, pod namespace/name, container name and short id, and for create and update events the resources and what changed (old -> new).

The runtime waits for every subscribed plugin before it goes on, so nrictl answers each request at once (the Synchronize state too, before it reads it) and prints afterwards, through a bounded queue: when the output cannot keep up (a paused terminal, a slow pipe), events beyond --buffer are dropped and counted, and the count is printed when the output catches up and at exit.

With --reconnect (the default when stdout is a terminal), nrictl says so when the runtime goes away (a restart), tries again after 0.5s, doubling up to 10s, registers again, keeps its counts, and says how long the gap was: events in the gap were missed. Without it, nrictl exits 6 when the runtime goes away.

With --metrics-addr, nrictl serves Prometheus metrics on HOST:PORT/metrics while it runs: events delivered by type, events dropped, registrations; the server closes when logs ends.

Ctrl-C, SIGTERM or SIGHUP closes the connection, prints what is queued and a one-line summary on stderr, and exits 0; so does a reader that goes away (nrictl logs | head).`;

  static override examples = [
    {
      description: 'Try it without a runtime: watch the demo scenario on an embedded simulator',
      command: '<%= config.bin %> <%= command.id %> --sim demo',
    },
    { description: 'Watch every event on the default socket', command: '<%= config.bin %> <%= command.id %>' },
    {
      description: 'Only container creation and updates in namespace shop',
      command: '<%= config.bin %> <%= command.id %> --events create,update -n shop',
    },
    {
      description: 'One JSON object per event, for jq or a log pipeline, surviving runtime restarts',
      command: '<%= config.bin %> <%= command.id %> -o json --reconnect | jq .event',
    },
    {
      description: 'Serve Prometheus metrics (event counts by type, drops) while logging',
      command: '<%= config.bin %> <%= command.id %> -o json --metrics-addr 127.0.0.1:9464',
    },
    {
      description: "Pods labelled app=web, on CRI-O's socket",
      command: '<%= config.bin %> <%= command.id %> -l app=web --socket /var/run/nri/nri.sock',
    },
  ];

  static override flags = {
    socket: socketFlag,
    'plugin-name': pluginNameFlag('nrictl-logs'),
    'plugin-index': pluginIndexFlag('99'),
    output: legacyOutputFlag(['text', 'json', 'yaml'] as const, 'text'),
    events: Flags.string({
      char: 'e',
      description:
        'Comma-separated events to subscribe to: names like create, poststart, runpod, CreateContainer, validate, or the groups all, pod, container. Default: every event the runtime knows except validate (ValidateContainerAdjustment), which puts nrictl on the critical path of container creation; the groups all and container include it.',
      helpValue: 'LIST',
    }),
    ...filterFlags,
    buffer: Flags.integer({
      description: 'Events held while the output is behind; beyond that they are dropped and counted.',
      default: DEFAULT_LOG_QUEUE_CAPACITY,
      min: 1,
      helpValue: 'N',
    }),
    reconnect: Flags.boolean({
      description:
        'When the runtime goes away, register again once it is back, and say how long the gap was (default: on when stdout is a terminal).',
      allowNo: true,
    }),
    'metrics-addr': Flags.string({
      description: 'Serve Prometheus metrics on HOST:PORT/metrics while logging (:PORT for every interface).',
      helpValue: 'HOST:PORT',
    }),
    timeout: timeoutFlag,
    sim: simFlag,
  };

  public override async run(): Promise<void> {
    const flags = this.flags;
    const events = flags.events === undefined ? undefined : eventMask(parseEventNames(flags.events));
    if (events === 0) throw usageError('--events names no event: give at least one, e.g. --events create,update');
    const filter = new ObjectFilter({
      namespace: flags.namespace,
      pod: flags.pod,
      container: flags.container,
      labels: flags.label,
    });
    const reconnect = flags.reconnect ?? Boolean(process.stdout.isTTY);
    const progress = connectProgress(targetLabel(flags));
    const stream = new LogStream({
      ...connectOptions(flags),
      events,
      filter,
      format: flags.output,
      out: nonBlockingStdout(),
      capacity: flags.buffer,
      reconnect: reconnect ? DEFAULT_BACKOFF : false,
      metricsAddr: flags['metrics-addr'],
      onProgress: progress.onProgress,
      onWarning: (w) => this.warning(w),
    });
    const note = (text: string): void => void process.stderr.write(chalk.dim(`nrictl logs: ${text}\n`));
    stream.on('dropped', (n: number) => {
      // Text output says it in place; a JSON/YAML stream must stay parseable.
      if (flags.output !== 'text') note(`${n} ${n === 1 ? 'event' : 'events'} dropped: output could not keep up`);
    });
    stream.once('metrics', (url: string) => note(`metrics on ${url}`));
    stream.once('registered', () => {
      progress.stop();
      const on = flags.sim ? `the embedded simulator (${flags.sim})` : flags.socket;
      note(
        `${stream.watch.pluginName} registered with ${who(stream.runtime)} at ${on}; events: ${events === undefined ? 'all but validate' : formatEventMask(stream.events)}. Ctrl-C to stop.`,
      );
    });
    stream.on('notice', (n: WatchNotice) => {
      // Without reconnect the end is reported as the command's error.
      if (reconnect) note(describeNotice(n));
    });

    const { end, summary } = await stream.run(this.stopSignal()).finally(() => progress.stop());
    printSummary(summary, end.kind === 'output-closed' ? ' (the output was closed by its reader)' : undefined);
    if (end.kind === 'runtime-gone') {
      throw new SessionError(
        'runtime-gone',
        `${end.error.message}: the runtime went away or restarted; --reconnect waits for it to come back`,
        { cause: end.error },
      );
    }
    await this.finish(ExitCode.OK);
  }

  /**
   * Exits now: a stdout nobody reads must not keep the process alive on exit, and what
   * could be written has been (the stream waited for it, for a bounded time).
   */
  private async finish(code: number): Promise<void> {
    await new Promise<void>((resolve) => process.stderr.write('', () => resolve()));
    process.exit(code);
  }
}

function who(runtime: { label: string } | undefined): string {
  return runtime?.label ?? 'runtime';
}

function describeNotice(n: WatchNotice): string {
  switch (n.kind) {
    case 'gone':
      return `the runtime went away (${n.error.message}); registering again when it is back (Ctrl-C to stop)`;
    case 'retrying':
      return `still no runtime (${n.error.message}); next try in ${formatDuration(n.inMs)}`;
    case 'back':
      return `registered again with ${who(n.runtime)} after a gap of ${formatDuration(n.gapMs)}: events in the gap were missed`;
  }
}

function printSummary(summary: LogSummary, note?: string): void {
  const tail = note ?? (summary.flushed ? '' : ' (output still blocked at exit)');
  process.stderr.write(`nrictl logs: ${formatLogSummary(summary)}${tail}\n`);
}
