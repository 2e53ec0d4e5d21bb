// Start-up: only what the flags need is imported here; run() loads the simulator (see validate.ts).
import { Flags } from '@oclif/core';
import { createInterface } from 'node:readline';
import { BaseCommand } from '../src/cli/base-command.js';
import { UserError, usageError } from '../src/cli/errors.js';
import { ExitCode } from '../src/cli/exit-codes.js';
import { outputFlag } from '../src/cli/flags.js';
import { parseGoDuration } from '../src/checks/runtime-config/duration.js';
import { RUNTIME_PRESETS } from '../src/runtime/presets.js';
import { socketPathOverLimit, socketPathTooLongMessage } from '../src/api/socket-path.js';
import type { Runtime, Scenario, SimEvent } from '../src/runtime/index.js';

export default class Sim extends BaseCommand<typeof Sim> {
  static override summary = 'Run a simulated NRI runtime: accept and launch plugins, drive pod and container events, show what the plugins do.';

  static override description = `Behaves as the NRI adaptation that containerd and CRI-O embed: plugins register, are configured and synchronized with the scenario's pods and containers, then receive lifecycle events in index order. Adjustments are merged (conflicts fail the creation and name both plugins), UpdateContainers requests are applied, and a plugin that hangs past --request-timeout, answers garbage or disconnects is dropped while the others go on.

The socket path is printed first: point a plugin or \`nrictl logs --socket\` at it. Pre-started plugins come from --plugin-path (NN-name executables, launched with the socket on fd 3). With --scenario the script's steps run, then the simulator exits unless --keep-running or --interactive.`;

  static override examples = [
    { description: 'Simulate the sample scenario and watch', command: '<%= config.bin %> <%= command.id %> --scenario examples/demo.yaml --keep-running' },
    { description: 'Launch pre-started plugins against 1000 generated pods', command: '<%= config.bin %> <%= command.id %> --plugin-path ./plugins --pods 1000 --containers-per-pod 5' },
    { description: 'Drive events by hand', command: '<%= config.bin %> <%= command.id %> --interactive' },
    { description: 'Machine-readable events', command: '<%= config.bin %> <%= command.id %> --scenario s.yaml -o json' },
  ];

  static override flags = {
    socket: Flags.string({ description: 'Listen on this socket (default: a fresh 0700 directory with a 0600 socket).', helpValue: 'PATH' }),
    'plugin-path': Flags.string({ description: 'Directory of pre-started plugins to launch (NN-name executables).', helpValue: 'DIR' }),
    'plugin-config-path': Flags.string({ description: 'Drop-in configuration directory for pre-started plugins (NN-name.conf, else name.conf).', helpValue: 'DIR' }),
    'registration-timeout': Flags.string({ description: 'Time a plugin gets to register, as a Go duration.', default: '5s', helpValue: 'DURATION' }),
    'request-timeout': Flags.string({ description: 'Time a plugin gets to answer each request, as a Go duration.', default: '2s', helpValue: 'DURATION' }),
    scenario: Flags.string({ description: 'Scenario file (YAML or JSON): pods, containers and an optional steps script.', helpValue: 'FILE', exclusive: ['pods'] }),
    pods: Flags.integer({ description: 'Generate this many pods instead of reading a scenario.', min: 0 }),
    'containers-per-pod': Flags.integer({ description: 'Containers per generated pod.', default: 2, min: 0 }),
    'nri-version': Flags.string({
      description: 'Behave like the Go NRI runtime adaptation of this version: v0.3.0 and v0.4.0 (containerd 1.7.0-1.7.13), v0.6.1 (iSulad 2.1.5, later containerd 1.7), up to the newest (default).',
      helpValue: 'VERSION',
    }),
    preset: Flags.string({
      description: 'A runtime people run: sets --runtime-name, --runtime-version and --nri-version (each can still be given).',
      options: Object.keys(RUNTIME_PRESETS),
    }),
    'runtime-name': Flags.string({ description: 'Runtime name sent in Configure (default nrictl-sim).' }),
    'runtime-version': Flags.string({ description: 'Runtime version sent in Configure (default 0.1.0).' }),
    'wait-for-plugins': Flags.integer({
      description: 'Before the script starts, wait until this many plugins have registered and synchronized (launched ones included), so a plugin started in another terminal sees every scripted event. Ctrl-C stops waiting.',
      min: 1,
      helpValue: 'N',
    }),
    'keep-running': Flags.boolean({ description: 'Keep serving plugins after the script is done (until Ctrl-C).' }),
    interactive: Flags.boolean({ description: 'Read commands from stdin (default when stdin is a terminal and CI is unset).', allowNo: true }),
    output: outputFlag(['text', 'json'] as const, 'text'),
  };

  public async run(): Promise<void> {
    const f = this.flags;
    const registrationTimeoutMs = duration('--registration-timeout', f['registration-timeout']);
    const requestTimeoutMs = duration('--request-timeout', f['request-timeout']);
    const tooLong = f.socket === undefined ? undefined : socketPathOverLimit(f.socket);
    if (tooLong !== undefined) throw usageError(`--socket: ${socketPathTooLongMessage(f.socket!, tooLong)}; pick a shorter path`);
    const {
      CommandError, DiscoveryError, executeCommand, formatSimEvent, generateScenario, INTERACTIVE_HELP, ListenError, loadScenario, parseCommand,
      Runtime, runScript, runtimeVintage, ScenarioError, SimState, VintageError,
    } = await import('../src/runtime/index.js');
    const preset = RUNTIME_PRESETS[f.preset ?? 'newest']!;
    const nriVersion = f['nri-version'] ?? preset.nriVersion;
    try {
      runtimeVintage(nriVersion);
    } catch (err) {
      if (err instanceof VintageError) throw usageError(`--nri-version: ${err.message}`);
      throw err;
    }
    let scenario: Scenario = { file: '', pods: [], containers: [], steps: [] };
    try {
      if (f.scenario) scenario = await loadScenario(f.scenario);
      else if (f.pods !== undefined) scenario = generateScenario({ pods: f.pods, containersPerPod: f['containers-per-pod'] });
    } catch (err) {
      if (err instanceof ScenarioError) throw new UserError(err.message, ExitCode.USAGE);
      throw err;
    }
    const interactive = f.interactive ?? (Boolean(process.stdin.isTTY) && !process.env.CI);
    const json = f.output === 'json';
    const print = (line: string): void => void process.stdout.write(`${line}\n`);
    const show = (e: SimEvent): void => print(json ? JSON.stringify(e) : formatSimEvent(e));

    const runtime = new Runtime(new SimState({ pods: scenario.pods, containers: scenario.containers }), {
      ...(f.socket ? { socketPath: f.socket } : {}),
      ...(f['plugin-path'] ? { pluginPath: f['plugin-path'] } : {}),
      ...(f['plugin-config-path'] ? { pluginConfigPath: f['plugin-config-path'] } : {}),
      registrationTimeoutMs,
      requestTimeoutMs,
      runtimeName: f['runtime-name'] ?? preset.runtimeName,
      runtimeVersion: f['runtime-version'] ?? preset.runtimeVersion,
      nriVersion,
    });
    // Signals are caught before the socket path is printed: whoever read it may stop us at
    // once, and the socket and its directory must still be removed.
    let quit!: () => void;
    const done = new Promise<void>((resolve) => (quit = resolve));
    process.once('SIGINT', quit);
    process.once('SIGTERM', quit);
    // The listening event comes after pre-started plugins start; print the path first anyway.
    const early: SimEvent[] = [];
    let started = false;
    runtime.on('event', (e: SimEvent) => (started || e.type === 'listening' ? show(e) : early.push(e)));
    try {
      await runtime.start();
    } catch (err) {
      await runtime.stop();
      if (err instanceof ListenError && err.reason === 'path-too-long') throw usageError(err.message);
      if (err instanceof ListenError || err instanceof DiscoveryError) throw new UserError(err.message);
      throw err;
    }
    started = true;
    for (const e of early) show(e);

    if (scenario.steps.length > 0) {
      const wanted = f['wait-for-plugins'];
      if (wanted !== undefined) {
        if (!(await synchronizedPlugins(runtime, wanted, done))) return;
      } else {
        // Give plugins started alongside a moment to connect before the script begins.
        await new Promise((r) => setTimeout(r, 200));
      }
      const r = await runScript(runtime, scenario.steps);
      if (!json) print(`script done: ${r.steps} steps, ${r.failed} failed`);
    }
    if (interactive) {
      if (!json) print(INTERACTIVE_HELP);
      // End of input ends the loop below once every line read so far has run; quitting
      // on readline's 'close' instead stopped the runtime under the commands still queued.
      const rl = createInterface({ input: process.stdin });
      void (async () => {
        for await (const line of rl) {
          try {
            const out = await executeCommand(runtime, parseCommand(line));
            if (out === 'quit') break;
            if (out) print(out);
          } catch (err) {
            process.stderr.write(`${err instanceof CommandError ? '' : 'failed: '}${(err as Error).message}\n`);
          }
        }
        quit();
      })();
      await done;
    } else if (f['keep-running'] || scenario.steps.length === 0) {
      await done;
    }
    await runtime.stop();
  }
}

function duration(flag: string, text: string): number {
  const ms = parseGoDuration(text);
  if (ms === undefined || ms <= 0) throw usageError(`${flag} ${text}: expected a positive duration such as 5s, 2s or 500ms`);
  return ms;
}

/**
 * Resolves true once `wanted` plugins are live (synchronized and not dropped since), or
 * false if `stop` settles first (Ctrl-C while waiting).
 */
async function synchronizedPlugins(runtime: Runtime, wanted: number, stop: Promise<void>): Promise<boolean> {
  const live = new Set<string>();
  let onEvent: (e: SimEvent) => void = () => {};
  const enough = new Promise<boolean>((resolve) => {
    onEvent = (e) => {
      if (e.type === 'synchronized') live.add(e.plugin);
      if (e.type === 'dropped') live.delete(e.plugin);
      if (live.size >= wanted) resolve(true);
    };
  });
  for (const p of runtime.plugins()) live.add(p.name); // plugins() lists the live (synchronized) ones
  if (live.size >= wanted) return true;
  runtime.on('event', onEvent);
  try {
    return await Promise.race([enough, stop.then(() => false)]);
  } finally {
    runtime.off('event', onEvent);
  }
}
