import { Flags } from '@oclif/core';
import chalk from 'chalk';
import {
  BaseCommand,
  ExitCode,
  connectProgress,
  filterFlags,
  outputFlag,
  simFlag,
  socketFlag,
  targetLabel,
  timeoutFlag,
  timeoutMs,
  usageError,
} from '../src/cli/index.js';
import { ObjectFilter } from '../src/observe/index.js';
import { nonBlockingStdout } from '../src/render/index.js';
import { SessionError } from '../src/session/index.js';
import { renderTraceSummary, runTrace } from '../src/trace/index.js';

export default class Trace extends BaseCommand<typeof Trace> {
  static override summary = 'Show which plugin changed what in each container, and how long each plugin took.';

  static override description = `Registers short-lived probe plugins, named NN-nrictl-trace, on the free indexes around the installed plugins. The runtime calls plugins in index order and hands each one the container as the plugins before it left it, so each probe sees what the plugins before it changed, and when: for every traced event nrictl prints the pod and container, then per plugin in invocation order its time and what it changed (field, old -> new), and the total.

Where the plugins are: the plugin directory (as validate reads it, from the runtime config as doctor finds it, or --plugin-dir), plus --index for external plugins; --probes all puts a probe on every free index for a short discovery run. Plugins with no free index between them are timed together and reported as one group. Two probes with nothing between them time one probe hop, which is subtracted from every plugin's time; each probe adds about one hop (a fraction of a millisecond; see the summary) to every traced event.

The probes answer every request at once with no change, subscribe only to the traced events (default create, update, stop; --events), and print afterwards through a bounded queue (events beyond --buffer are dropped and counted). On runtimes with validators (NRI v0.10+) --validator subscribes the last probe to ValidateContainerAdjustment too, for the runtime's own record of which plugin owns each field; that probe is then on the critical path of every creation (if it fails to answer, the creation fails), so it is off by default.

At the end (--duration, Ctrl-C, or the end of the --sim script) the probes deregister and a summary follows: per plugin and event, count, p50/p99/max, share of the runtime's request timeout (from the runtime, the runtime config or --request-timeout), and a warning for any plugin whose p99 passes half of it. --metrics-addr serves the same figures to Prometheus.`;

  static override examples = [
    {
      description: "Try it without a runtime: trace the demo scenario's plugins on an embedded simulator",
      command: '<%= config.bin %> <%= command.id %> --sim demo',
    },
    {
      description: 'Trace container creation for a minute',
      command: '<%= config.bin %> <%= command.id %> --events create --duration 1m',
    },
    {
      description: 'External plugins at indexes 10 and 40, one JSON record per event and a summary record',
      command: '<%= config.bin %> <%= command.id %> --index 10,40 -o json',
    },
    {
      description: 'Serve Prometheus metrics while tracing',
      command: '<%= config.bin %> <%= command.id %> --metrics-addr 127.0.0.1:9464',
    },
  ];

  static override flags = {
    socket: socketFlag,
    output: outputFlag(['text', 'json'] as const, 'text'),
    events: Flags.string({
      char: 'e',
      description:
        'Comma-separated container events to trace: create, update, stop, postcreate, start, poststart, postupdate, remove (default: create,update,stop).',
      helpValue: 'LIST',
    }),
    index: Flags.string({
      description: 'Indexes of plugins not in the plugin directory (external ones), comma-separated.',
      helpValue: 'NN,...',
    }),
    probes: Flags.option({
      description:
        'around: probes only around the known plugins; all: a probe on every free index (discovery; costs one probe hop per probe on every event).',
      options: ['around', 'all'] as const,
      default: 'around' as const,
    })(),
    'plugin-dir': Flags.string({
      description:
        "Read the installed plugins from this directory instead of the runtime config's; with --sim, the simulator launches the plugins in it.",
      helpValue: 'DIR',
    }),
    validator: Flags.boolean({
      description:
        "On NRI v0.10+ runtimes, also take the runtime's field owners from a validation probe (puts that probe on the critical path of container creation).",
    }),
    duration: Flags.string({
      description: 'Stop after this long (e.g. 30s, 5m; default: until Ctrl-C).',
      helpValue: 'DURATION',
    }),
    'request-timeout': Flags.string({
      description:
        "The runtime's request timeout to judge plugins by (e.g. 2s), when the runtime and its config do not say.",
      helpValue: 'DURATION',
    }),
    'metrics-addr': Flags.string({
      description: 'Serve Prometheus metrics on HOST:PORT/metrics while tracing.',
      helpValue: 'HOST:PORT',
    }),
    ...filterFlags,
    buffer: Flags.integer({
      description: 'Records held while the output is behind; beyond that they are dropped and counted.',
      default: 1000,
      min: 1,
      helpValue: 'N',
    }),
    timeout: timeoutFlag,
    sim: simFlag,
  };

  public async run(): Promise<void> {
    const flags = this.flags;
    const events = await parseTraceEvents(flags.events);
    const durationMs = await parseDurationFlag('--duration', flags.duration);
    const requestTimeoutMs = await parseDurationFlag('--request-timeout', flags['request-timeout']);
    const filter = new ObjectFilter({
      namespace: flags.namespace,
      pod: flags.pod,
      container: flags.container,
      labels: flags.label,
    });
    const out = nonBlockingStdout();
    const progress = connectProgress(targetLabel(flags));
    const result = await runTrace({
      target: { socketPath: flags.socket, sim: flags.sim, simPluginPath: flags['plugin-dir'] },
      pluginDir: flags['plugin-dir'],
      indexes: flags.index,
      probes: flags.probes,
      events,
      validator: flags.validator,
      accept: (pod, ctr) => filter.matchesContainer(pod, ctr),
      format: flags.output,
      out,
      capacity: flags.buffer,
      requestTimeoutMs,
      durationMs,
      metricsAddr: flags['metrics-addr'],
      timeoutMs: timeoutMs(flags.timeout),
      signal: this.stopSignal(),
      onProgress: progress.onProgress,
      onWarning: (w) => this.warning(w),
      onLive: (live) => {
        progress.stop();
        const who = live.runtime ? `${live.runtime.label} (${live.runtime.vintage})` : 'the runtime';
        process.stderr.write(
          chalk.dim(
            `nrictl trace: ${live.plan.probes.length} probes at ${live.plan.probes.join(',')} on ${who}; plugins from ${live.pluginSource}: ${live.plan.segments
              .filter((s) => !s.calibration)
              .map((s) => s.label)
              .join(', ')}\n`,
          ),
        );
        for (const note of live.notes) process.stderr.write(chalk.dim(`nrictl trace: ${note}\n`));
        if (live.metricsUrl) process.stderr.write(chalk.dim(`nrictl trace: metrics on ${live.metricsUrl}\n`));
        process.stderr.write(
          chalk.dim(
            `nrictl trace: ${durationMs !== undefined ? `tracing for ${flags.duration}` : flags.sim ? 'tracing the scenario' : 'Ctrl-C to stop'}.\n`,
          ),
        );
      },
      onDropped: (n) => {
        if (flags.output === 'json')
          process.stderr.write(
            `nrictl trace: ${n} ${n === 1 ? 'record' : 'records'} dropped: output could not keep up\n`,
          );
      },
    }).finally(() => progress.stop());
    if (result.reason !== 'output-closed') out.write(renderTraceSummary(result.summary, flags.output));
    if (result.reason === 'gone') {
      const gone = result.error;
      throw new SessionError(
        gone?.code ?? 'runtime-gone',
        `${gone?.message ?? 'the runtime closed the connection'}: the runtime went away, restarted or dropped a probe; start nrictl trace again once it is back`,
        { cause: gone },
      );
    }
    await new Promise<void>((resolve) => (out.writableLength === 0 ? resolve() : out.once('drain', () => resolve())));
    process.exit(ExitCode.OK);
  }
}

async function parseTraceEvents(text: string | undefined): Promise<number | undefined> {
  if (text === undefined) return undefined;
  const { EventNameError, eventMask, eventName, parseEventNames } = await import('../src/api/index.js');
  const { TRACEABLE_EVENTS } = await import('../src/trace/index.js');
  let list;
  try {
    list = parseEventNames(text);
  } catch (err) {
    if (err instanceof EventNameError) throw usageError(`--events: ${err.message}`);
    throw err;
  }
  const untraceable = list.filter((e) => !TRACEABLE_EVENTS.includes(e));
  if (untraceable.length > 0)
    throw usageError(
      `--events: trace follows container events only, not ${untraceable.map(eventName).join(', ')}; e.g. --events create,update`,
    );
  if (list.length === 0) throw usageError('--events names no event: give at least one, e.g. --events create,update');
  return eventMask(list);
}

async function parseDurationFlag(flag: string, text: string | undefined): Promise<number | undefined> {
  if (text === undefined) return undefined;
  const { parseDuration } = await import('../src/units/index.js');
  return Math.ceil(parseDuration(text, { what: flag }));
}
