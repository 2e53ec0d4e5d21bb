import { Args } from '@oclif/core';
import * as cli from '../src/cli/index.js';
import { replayRecording } from '../src/replay/index.js';
import { presetRecords, simulationRecords } from '../src/views/index.js';
import { simEventView } from '../src/views/sim-event-data.js';
import { RUNTIME_PRESETS, runSimulation, runSimulationPerPreset } from '../src/runtime/index.js';

const records = simulationRecords(simEventView);

export default class Sim extends cli.BaseCommand<typeof Sim> {
  static override summary =
    'Run a simulated NRI runtime: accept and launch plugins, drive pod and container events, show what the plugins do.';

  static override description = `Behaves as the NRI adaptation that containerd and CRI-O embed: plugins register, are configured and synchronized with the scenario's pods and containers, then receive lifecycle events in index order. Adjustments are merged (conflicts fail the creation and name both plugins), UpdateContainers requests are applied, and a plugin that hangs past --request-timeout, answers garbage or disconnects is dropped while the others go on.

The socket path is printed first: point a plugin or \`nrictl logs --socket\` at it. With --cri-socket the simulator also serves CRI (next line: that socket), so that crictl or any CRI client creates pods and containers in it, and the plugins see what those calls do. Pre-started plugins come from --plugin-dir (NN-name executables, launched with the socket on fd 3); each is awaited until it registered, as a runtime does. With SCENARIO the script's steps run (none, if the file has no steps), then the simulator exits unless --keep-running or --interactive; without one it serves until stopped. Every input (directories, scenario, expectation file) is checked before anything starts. Ctrl-C, SIGTERM, SIGHUP or a closed output stops it at any time and removes the socket. A slow reader of the output slows the script down rather than lose its events (the runtime is only simulated); what no step paces, such as plugin output, is dropped and counted past --buffer.`;

  static override examples = [
    cli.example('Simulate the sample scenario', 'demo'),
    cli.example(
      'Launch pre-started plugins against 1000 generated pods',
      '--plugin-dir ./plugins --pods 1000 --containers-per-pod 5',
    ),
    cli.example('Drive events by hand', '--interactive'),
    cli.example('Machine-readable events', 's.yaml -o json'),
    cli.example(
      "Replay a node's recorded traffic against a new plugin version; exit 1 if any field ends differently",
      '--replay node.jsonl.gz --plugin-dir ./plugins --compare',
    ),
    cli.example(
      'Test a plugin: exit 1 with a diff when an expectation fails (-o junit: JUnit XML for CI)',
      '--plugin-dir ./plugins --expect test/expect.yaml',
    ),
  ];

  static override args = {
    // ignoreStdin: oclif would read a missing argument from piped stdin, the prompt's commands.
    scenario: Args.string({
      ignoreStdin: true,
      description:
        "Scenario file (YAML or JSON): pods, containers, an optional steps script and the node's images (images:, for --cri-socket); or demo, the built-in one (examples/demo.yaml).",
    }),
  };

  static override flags = {
    ...cli.simFlags(Object.keys(RUNTIME_PRESETS)),
    output: cli.simOutputFlag(),
  };

  protected override async execute() {
    const { flags } = this;
    const format: string = this.format;
    cli.checkJunit(format, flags);
    if (this.args.scenario !== undefined && flags.scenario !== undefined)
      throw cli.usageError('give the scenario once, as the argument (--scenario is its old name)');
    if (flags.preset === 'all') {
      const show = this.recordSink(presetRecords(records), cli.simSink(flags));
      const opts = { ...cli.simOptions({ ...flags, preset: undefined }, this.args.scenario), pace: () => show.room() };
      return cli.presetsOutput(await runSimulationPerPreset(opts, this.signal, (r) => show.push(r)));
    }
    const show = format === 'junit' || flags.compare ? undefined : this.recordSink(records, cli.simSink(flags));
    const toStderr = this.stderrRecordSink(records, flags.buffer, 'plugin output line');
    const run = {
      ...cli.simOptions(flags, this.args.scenario),
      ...cli.simStream(flags, show, toStderr),
      ...(flags.expect === undefined && flags.replay === undefined
        ? { drive: cli.simPrompt(flags.interactive, format) }
        : {}),
    };
    if (flags.replay !== undefined) {
      const replay = await replayRecording(
        { ...run, ...cli.replayOptions(flags, this.args.scenario), onAssumption: (line) => this.note(line) },
        this.signal,
      );
      return cli.replayOutput(replay, format, flags.junit);
    }
    return cli.simulationOutput(await runSimulation(run, this.signal), format);
  }
}
