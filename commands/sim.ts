// The simulator loads inside run(), on the paths that use it.
import { Flags } from '@oclif/core';
import { socketPathOverLimit, socketPathTooLongMessage } from '../src/api/socket-path.js';
import { BaseCommand, ExitCode, outputFlag, usageError, UserError } from '../src/cli/index.js';
import { parseDuration } from '../src/units/index.js';
import { RUNTIME_PRESETS } from '../src/runtime/index.js';
import type { Runtime, Scenario, SimEvent } from '../src/runtime/index.js';
import type { ExpectationFile } from '../src/expect/index.js';

export default class Sim extends BaseCommand<typeof Sim> {
  static override summary =
    'Run a simulated NRI runtime: accept and launch plugins, drive pod and container events, show what the plugins do.';

  static override description = `Behaves as the NRI adaptation that containerd and CRI-O embed: plugins register, are configured and synchronized with the scenario's pods and containers, then receive lifecycle events in index order. Adjustments are merged (conflicts fail the creation and name both plugins), UpdateContainers requests are applied, and a plugin that hangs past --request-timeout, answers garbage or disconnects is dropped while the others go on.

The socket path is printed first: point a plugin or \`nrictl logs --socket\` at it. Pre-started plugins come from --plugin-path (NN-name executables, launched with the socket on fd 3). With --scenario the script's steps run (none, if the file has no steps), then the simulator exits unless --keep-running or --interactive; without --scenario it serves until stopped. Ctrl-C or SIGTERM stops it at any time, also while it waits for plugins or reads commands, and removes the socket.`;

  static override examples = [
    {
      description: 'Simulate the sample scenario and watch',
      command: '<%= config.bin %> <%= command.id %> --scenario demo --keep-running',
    },
    {
      description: 'Launch pre-started plugins against 1000 generated pods',
      command: '<%= config.bin %> <%= command.id %> --plugin-path ./plugins --pods 1000 --containers-per-pod 5',
    },
    { description: 'Drive events by hand', command: '<%= config.bin %> <%= command.id %> --interactive' },
    {
      description: 'Machine-readable events',
      command: '<%= config.bin %> <%= command.id %> --scenario s.yaml -o json',
    },
    {
      description: 'Test a plugin: exit 1 with a diff when an expectation fails',
      command: '<%= config.bin %> <%= command.id %> --plugin-path ./plugins --expect test/expect.yaml',
    },
    {
      description: 'The same, as JUnit XML for a CI system',
      command:
        '<%= config.bin %> <%= command.id %> --plugin-path ./plugins --expect test/expect.yaml -o junit > junit.xml',
    },
  ];

  static override flags = {
    socket: Flags.string({
      description: 'Listen on this socket (default: a fresh 0700 directory with a 0600 socket).',
      helpValue: 'PATH',
    }),
    'plugin-path': Flags.string({
      description: 'Directory of pre-started plugins to launch (NN-name executables).',
      helpValue: 'DIR',
    }),
    'plugin-config-path': Flags.string({
      description: 'Drop-in configuration directory for pre-started plugins (NN-name.conf, else name.conf).',
      helpValue: 'DIR',
    }),
    'registration-timeout': Flags.string({
      description: 'Time a plugin gets to register, as a Go duration.',
      default: '5s',
      helpValue: 'DURATION',
    }),
    'request-timeout': Flags.string({
      description: 'Time a plugin gets to answer each request, as a Go duration.',
      default: '2s',
      helpValue: 'DURATION',
    }),
    scenario: Flags.string({
      description:
        'Scenario file (YAML or JSON): pods, containers and an optional steps script; or demo, the built-in one (examples/demo.yaml).',
      helpValue: 'FILE',
      exclusive: ['pods'],
    }),
    pods: Flags.integer({ description: 'Generate this many pods instead of reading a scenario.', min: 0 }),
    'containers-per-pod': Flags.integer({ description: 'Containers per generated pod.', default: 2, min: 0 }),
    'nri-version': Flags.string({
      description:
        'Behave like the Go NRI runtime adaptation of this version: v0.3.0 and v0.4.0 (containerd 1.7.0-1.7.13), v0.6.1 (iSulad 2.1.5, later containerd 1.7), up to the newest (default).',
      helpValue: 'VERSION',
    }),
    preset: Flags.string({
      description:
        "A runtime people run: sets --runtime-name, --runtime-version and --nri-version (each can still be given), and imitates where that runtime departs from the Go adaptation. isulad-2.1.5: an answer to CreateContainer without an adjust message, or any UpdateContainers from a plugin, would crash iSulad (sim reports it and drops the plugin); new environment variables are ignored; CreateContainer carries only the container's name, its pod's id and an empty linux.",
      options: Object.keys(RUNTIME_PRESETS),
    }),
    'runtime-name': Flags.string({ description: 'Runtime name sent in Configure (default nrictl-sim).' }),
    'runtime-version': Flags.string({ description: 'Runtime version sent in Configure (default 0.1.0).' }),
    'wait-for-plugins': Flags.integer({
      description:
        'Before the script starts, wait until this many plugins have registered and synchronized (launched ones included), so a plugin started in another terminal sees every scripted event.',
      min: 1,
      helpValue: 'N',
    }),
    'keep-running': Flags.boolean({
      description: 'Keep serving plugins after the script is done (until Ctrl-C or SIGTERM).',
    }),
    interactive: Flags.boolean({
      description: 'Read commands from stdin (default when stdin is a terminal and CI is unset).',
      allowNo: true,
    }),
    expect: Flags.string({
      description:
        'Expectation file: a scenario (its scenario: key, or --scenario) and what must hold after named steps (container env, annotations, mounts, devices, rlimits, resources; step result; conflicts; no plugin failures). Exit 0 when all hold, 1 with a diff naming the plugin that set each differing value.',
      helpValue: 'FILE',
      exclusive: ['pods', 'keep-running'],
    }),
    'plugin-output': Flags.option({
      description:
        "Pre-started plugins' stdout and stderr: lines (each line shown like the other events, in the -o format), json (each line one JSON object on stderr, keeping stdout for the simulator's events) or none (not read at all: the cheapest for plugins that log every event).",
      options: ['lines', 'json', 'none'] as const,
      default: 'lines',
    })(),
    output: outputFlag(['text', 'json', 'junit'] as const, 'text'),
  };

  public async run(): Promise<void> {
    const f = this.flags;
    const registrationTimeoutMs = duration('--registration-timeout', f['registration-timeout']);
    const requestTimeoutMs = duration('--request-timeout', f['request-timeout']);
    const tooLong = f.socket === undefined ? undefined : socketPathOverLimit(f.socket);
    if (tooLong !== undefined)
      throw usageError(`--socket: ${socketPathTooLongMessage(f.socket!, tooLong)}; pick a shorter path`);
    const {
      DiscoveryError,
      formatSimEvent,
      generateScenario,
      INTERACTIVE_HELP,
      ListenError,
      loadScenario,
      Runtime,
      runCommandLoop,
      runScript,
      runtimeVintage,
      ScenarioError,
      SimState,
      VintageError,
      parseScenarioResources,
    } = await import('../src/runtime/index.js');
    const preset = RUNTIME_PRESETS[f.preset ?? 'newest'];
    const nriVersion = f['nri-version'] ?? preset.nriVersion;
    try {
      runtimeVintage(nriVersion);
    } catch (err) {
      if (err instanceof VintageError) throw usageError(`--nri-version: ${err.message}`);
      throw err;
    }
    if (f.output === 'junit' && f.expect === undefined)
      throw usageError('-o junit reports expectations: give --expect FILE');
    let expectations: ExpectationFile | undefined;
    if (f.expect !== undefined) {
      const { loadExpectations, ExpectationError } = await import('../src/expect/index.js');
      try {
        expectations = await loadExpectations(f.expect, parseScenarioResources);
      } catch (err) {
        if (err instanceof ExpectationError || err instanceof ScenarioError)
          throw new UserError(err.message, ExitCode.USAGE);
        throw err;
      }
      if (f.scenario === undefined && expectations.scenario === undefined)
        throw usageError(`--expect ${f.expect}: name the scenario, with scenario: in the file or --scenario FILE`);
    }
    const scenarioFile = f.scenario ?? expectations?.scenario;
    let scenario: Scenario = { file: '', pods: [], containers: [], steps: [] };
    try {
      if (scenarioFile) scenario = await loadScenario(scenarioFile);
      else if (f.pods !== undefined)
        scenario = generateScenario({ pods: f.pods, containersPerPod: f['containers-per-pod'] });
    } catch (err) {
      if (err instanceof ScenarioError) throw new UserError(err.message, ExitCode.USAGE);
      throw err;
    }
    const interactive =
      expectations === undefined && (f.interactive ?? (Boolean(process.stdin.isTTY) && !process.env.CI));
    const json = f.output === 'json';
    const junit = f.output === 'junit';
    const print = (line: string): void => void process.stdout.write(`${line}\n`);
    const { simEventData } = await import('../src/runtime/index.js');
    const { jsonLine } = await import('../src/render/index.js');
    // With -o junit stdout holds the XML document alone.
    const show = (e: SimEvent): void => {
      if (e.type === 'plugin-output' && f['plugin-output'] === 'json')
        return void process.stderr.write(jsonLine(simEventData(e)));
      if (junit) return;
      if (json) process.stdout.write(jsonLine(simEventData(e)));
      else print(formatSimEvent(e));
    };
    let failedExpectations = 0;

    const runtime = new Runtime(new SimState({ pods: scenario.pods, containers: scenario.containers }), {
      ...(f.socket ? { socketPath: f.socket } : {}),
      ...(f['plugin-path'] ? { pluginPath: f['plugin-path'] } : {}),
      ...(f['plugin-config-path'] ? { pluginConfigPath: f['plugin-config-path'] } : {}),
      registrationTimeoutMs,
      requestTimeoutMs,
      runtimeName: f['runtime-name'] ?? preset.runtimeName,
      runtimeVersion: f['runtime-version'] ?? preset.runtimeVersion,
      nriVersion,
      pluginOutput: f['plugin-output'] === 'none' ? 'none' : 'events',
      ...(preset.quirks ? { quirks: preset.quirks } : {}),
    });
    // Ctrl-C and SIGTERM stop the simulator whatever it is doing: starting, waiting for
    // plugins, running the script, serving or reading commands. They are caught before
    // the socket path is printed, since whoever reads it may stop us at once, and the
    // socket and its directory must still be removed.
    const stop = new AbortController();
    const onSignal = (): void => stop.abort();
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    const stopped = new Promise<void>((resolve) =>
      stop.signal.addEventListener('abort', () => resolve(), { once: true }),
    );
    // The listening event comes after pre-started plugins start; print the path first anyway.
    const early: SimEvent[] = [];
    let started = false;
    runtime.on('event', (e: SimEvent) => (started || e.type === 'listening' ? show(e) : early.push(e)));
    try {
      try {
        await runtime.start();
      } catch (err) {
        if (err instanceof ListenError && err.reason === 'path-too-long') throw usageError(err.message);
        if (err instanceof ListenError || err instanceof DiscoveryError) throw new UserError(err.message);
        throw err;
      }
      started = true;
      for (const e of early) show(e);

      // With --scenario the script runs (even an empty one) and then we are done, unless
      // told to stay; without one we serve until stopped.
      const scripted = scenarioFile !== undefined;
      if (scripted && !stop.signal.aborted) {
        const wanted = f['wait-for-plugins'];
        // Without a count, plugins started alongside get a moment to connect first.
        const ready =
          wanted !== undefined ? synchronizedPlugins(runtime, wanted) : new Promise((r) => setTimeout(r, 200));
        await Promise.race([ready, stopped]);
        if (!stop.signal.aborted && expectations !== undefined) {
          const { runExpectations, textReport, junitReport } = await import('../src/expect/index.js');
          const outcomes = await runExpectations(runtime, scenario.steps, expectations, stop.signal);
          failedExpectations = outcomes.filter((o) => !o.ok).length;
          if (junit) print(junitReport(outcomes, `nrictl sim --expect ${f.expect}`));
          else if (json) for (const o of outcomes) print(JSON.stringify({ type: 'expectation', ...o }));
          else print(textReport(outcomes));
          if (stop.signal.aborted) failedExpectations = Math.max(failedExpectations, 1);
        } else if (!stop.signal.aborted) {
          const r = await runScript(runtime, scenario.steps, stop.signal);
          if (!json)
            print(`script done: ${r.steps} steps, ${r.failed} failed${stop.signal.aborted ? ' (stopped)' : ''}`);
        }
      }
      if (stop.signal.aborted) return;
      if (interactive) {
        if (!json) print(INTERACTIVE_HELP);
        await runCommandLoop(runtime, process.stdin, {
          print,
          printError: (line) => void process.stderr.write(`${line}\n`),
          signal: stop.signal,
        });
      } else if (f['keep-running'] || !scripted) {
        await stopped;
      }
    } finally {
      await runtime.stop();
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    }
    if (failedExpectations > 0) {
      throw new UserError(
        stop.signal.aborted
          ? `stopped before every expectation of ${f.expect} was judged`
          : `${failedExpectations} expectation(s) of ${f.expect} failed (see the diff above)`,
      );
    }
  }
}

function duration(flag: string, text: string): number {
  return Math.ceil(parseDuration(text, { what: flag }));
}

/** Resolves once `wanted` plugins are live (synchronized and not dropped since); the caller races it against a stop. */
async function synchronizedPlugins(runtime: Runtime, wanted: number): Promise<void> {
  const live = new Set<string>();
  for (const p of runtime.plugins()) live.add(p.name); // plugins() lists the live (synchronized) ones
  if (live.size >= wanted) return;
  await new Promise<void>((resolve) => {
    const onEvent = (e: SimEvent): void => {
      if (e.type === 'synchronized') live.add(e.plugin);
      if (e.type === 'dropped') live.delete(e.plugin);
      if (live.size >= wanted) {
        runtime.off('event', onEvent);
        resolve();
      }
    };
    runtime.on('event', onEvent);
  });
}
