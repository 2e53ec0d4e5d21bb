// Start-up: only what the flags need is imported here; run() loads the observe layer,
// the event names and the plugin SDK (see validate.ts).
import { Flags } from '@oclif/core';
import chalk from 'chalk';
import { BaseCommand } from '../src/cli/base-command.js';
import { UserError, usageError } from '../src/cli/errors.js';
import { ExitCode } from '../src/cli/exit-codes.js';
import { outputFlag, pluginIndexFlag, pluginNameFlag, socketFlag } from '../src/cli/flags.js';
import { filterFlags, simFlag } from '../src/observe/cli-flags.js';
import { DEFAULT_LOG_QUEUE_CAPACITY } from '../src/observe/defaults.js';
import type { LogSummary, ObjectFilter } from '../src/observe/index.js';
import { startSim, type EmbeddedSim } from '../src/observe/sim.js';
import { nonBlockingStdout } from '../src/render/output-sink.js';

type Outcome = { kind: 'signal'; signal: string } | { kind: 'gone'; err?: Error } | { kind: 'script-done' } | { kind: 'output-closed' };

export default class Logs extends BaseCommand<typeof Logs> {
  static override summary = 'Stream the runtime\'s pod and container events as a transient NRI plugin.';

  static override description = `Registers with the runtime as a plugin (by default 99-nrictl-logs: a late index, so it sees what the plugins before it changed), subscribes to every event the runtime knows or to those given with --events, and prints one line per event: time, event, pod namespace/name, container name and short id, and for create and update events the resources and what changed (old -> new).

The runtime waits for every subscribed plugin before it goes on, so nrictl answers each request at once and prints afterwards, through a bounded queue: when the output cannot keep up (a paused terminal, a slow pipe), events beyond --buffer are dropped and counted, and the count is printed when the output catches up and at exit.

Ctrl-C or SIGTERM closes the connection, prints what is queued and a one-line summary on stderr, and exits 0; so does a reader that goes away (nrictl logs | head). If the runtime goes away, nrictl says so and exits 6.`;

  static override examples = [
    { description: 'Try it without a runtime: watch the demo scenario on an embedded simulator', command: '<%= config.bin %> <%= command.id %> --sim examples/demo.yaml' },
    { description: 'Watch every event on the default socket', command: '<%= config.bin %> <%= command.id %>' },
    { description: 'Only container creation and updates in namespace shop', command: '<%= config.bin %> <%= command.id %> --events create,update -n shop' },
    { description: 'One JSON object per event, for jq or a log pipeline', command: '<%= config.bin %> <%= command.id %> -o json | jq .event' },
    { description: 'Pods labelled app=web, on CRI-O\'s socket', command: '<%= config.bin %> <%= command.id %> -l app=web --socket /var/run/nri/nri.sock' },
  ];

  static override flags = {
    socket: socketFlag,
    'plugin-name': pluginNameFlag('nrictl-logs'),
    'plugin-index': pluginIndexFlag('99'),
    output: outputFlag(['text', 'json', 'yaml'] as const, 'text'),
    events: Flags.string({
      char: 'e',
      description: 'Comma-separated events to subscribe to: names like create, poststart, runpod, CreateContainer, or the groups all, pod, container (default: every event the runtime knows except validate, which would put nrictl on the critical path of container creation).',
      helpValue: 'LIST',
    }),
    ...filterFlags,
    buffer: Flags.integer({
      description: 'Events held while the output is behind; beyond that they are dropped and counted.',
      default: DEFAULT_LOG_QUEUE_CAPACITY,
      min: 1,
      helpValue: 'N',
    }),
    sim: simFlag,
  };

  public async run(): Promise<void> {
    const flags = this.flags;
    const { EventNameError, eventMask, formatEventMask, parseEventNames } = await import('../src/api/events.js');
    let events: number | undefined;
    if (flags.events !== undefined) {
      try {
        events = eventMask(parseEventNames(flags.events));
      } catch (err) {
        if (err instanceof EventNameError) throw usageError(`--events: ${err.message}`);
        throw err;
      }
      if (events === 0) throw usageError('--events names no event: give at least one, e.g. --events create,update');
    }
    const { LogStream, ObjectFilter, formatLogSummary, toUserError } = await import('../src/observe/index.js');
    const printSummary = (summary: LogSummary, note?: string): void => {
      const tail = note ?? (summary.flushed ? '' : ' (output still blocked at exit)');
      process.stderr.write(`nrictl logs: ${formatLogSummary(summary)}${tail}\n`);
    };
    let filter: ObjectFilter;
    try {
      filter = new ObjectFilter({ namespace: flags.namespace, pod: flags.pod, container: flags.container, labels: flags.label });
    } catch (err) {
      throw toUserError(err);
    }

    const signalled = new Promise<Outcome>((resolve) => {
      for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => resolve({ kind: 'signal', signal }));
    });

    let sim: EmbeddedSim | undefined;
    if (flags.sim) {
      try {
        sim = await startSim(flags.sim);
      } catch (err) {
        throw toUserError(err);
      }
    }
    const socketPath = sim?.socketPath ?? flags.socket;
    if (!sim) await this.warnIfSocketExposed(socketPath);
    const stream = new LogStream({
      socketPath,
      name: flags['plugin-name'],
      index: flags['plugin-index'],
      events,
      filter,
      format: flags.output,
      out: nonBlockingStdout(),
      capacity: flags.buffer,
    });
    const isData = flags.output !== 'text';
    stream.on('dropped', (n: number) => {
      // Text output says it in place; a JSON/YAML stream must stay parseable.
      if (isData) process.stderr.write(`nrictl logs: ${n} ${n === 1 ? 'event' : 'events'} dropped: output could not keep up\n`);
    });
    const gone = new Promise<Outcome>((resolve) => stream.once('close', (err?: Error) => resolve({ kind: 'gone', ...(err ? { err } : {}) })));
    const outputClosed = new Promise<Outcome>((resolve) => stream.once('output-closed', () => resolve({ kind: 'output-closed' })));

    const { spinner } = await import('../src/render/spinner.js');
    const waiting = spinner(process.stderr, `connecting to ${sim ? 'the embedded simulator' : socketPath}`);
    stream.stub.once('configured', () => waiting.update('registered; receiving the runtime\'s pods and containers'));
    try {
      const first = await Promise.race([stream.start().then(() => undefined), signalled]).finally(() => waiting.stop());
      if (first) {
        await stream.stop(0);
        await sim?.stop();
        return this.finish(ExitCode.OK);
      }
    } catch (err) {
      await sim?.stop();
      throw toUserError(err);
    }

    const runtime = stream.runtime;
    const who = runtime ? `${runtime.name || 'runtime'} ${runtime.version}`.trim() : 'runtime';
    process.stderr.write(
      chalk.dim(`nrictl logs: ${stream.stub.fullName} registered with ${who} at ${sim ? `the embedded simulator (${flags.sim})` : socketPath}; events: ${events === undefined ? 'all but validate' : formatEventMask(stream.events)}. Ctrl-C to stop.\n`),
    );

    const scriptDone: Promise<Outcome> = sim
      ? sim.runScript().then(() => ({ kind: 'script-done' as const }))
      : new Promise<Outcome>(() => {});
    const outcome = await Promise.race([signalled, gone, scriptDone, outputClosed]);

    if (outcome.kind === 'gone') {
      const summary = await stream.drain();
      await sim?.stop();
      printSummary(summary);
      const why = outcome.err?.message ?? `runtime closed the connection (${socketPath})`;
      throw new UserError(`${why}: the runtime went away or restarted; start nrictl logs again once it is back`, ExitCode.RUNTIME_GONE, {
        cause: outcome.err,
      });
    }
    // A signal, the end of the simulated script, or a reader that left (`| head`): all normal ends.
    const summary = await stream.stop(outcome.kind === 'output-closed' ? 0 : undefined);
    await sim?.stop();
    printSummary(summary, outcome.kind === 'output-closed' ? ' (the output was closed by its reader)' : undefined);
    return this.finish(ExitCode.OK);
  }

  /**
   * Exits now: a stdout nobody reads must not keep the process alive on exit, and what
   * could be written has been (LogStream.stop waited for it, for a bounded time).
   */
  private async finish(code: number): Promise<void> {
    await new Promise<void>((resolve) => process.stderr.write('', () => resolve()));
    process.exit(code);
  }
}
