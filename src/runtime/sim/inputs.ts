// Everything `nrictl sim` is given, checked and read before anything starts: the socket
// path, the plugin and configuration directories (and the plugins' names in one), the
// runtime imitated, the scenario and the expectation file with the steps it names. A
// mistake in any of them ends the run here, before a socket exists or a plugin runs.
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { nri } from '../../api/index.js';
import { socketPathOverLimit, socketPathTooLongMessage } from '../../api/socket-path.js';
import { lintRuntimeConfigs, type DefaultValidatorSettings } from '../../checks/index.js';
import type { ErrorKind } from '../../errors/index.js';
import { loadExpectations, placeExpectations, type ExpectationFile } from '../../expect/index.js';
import { discoverPlugins, runtimeVintage } from '../adaptation/index.js';
import { generateScenario } from './generate.js';
import { RUNTIME_PRESETS } from './presets.js';
import type { RuntimeOptions } from './runtime.js';
import type { SimFault } from './faults.js';
import { loadScenario, parseScenarioResources, type Scenario } from './scenario.js';
import { stepLabel, type Steps } from './script.js';

export const PLUGIN_DIR_HOLDS = 'the NN-name plugin executables';

/** A simulation's input that cannot be used; names the option at fault. Nothing was started. */
export class SimulationInputError extends Error {
  override readonly name = 'SimulationInputError';
  constructor(
    message: string,
    readonly kind: ErrorKind,
    /** The SimulationOptions field: "pluginDir", "confDir", "socketPath", ... */
    readonly option: string,
  ) {
    super(message);
  }
}

/** Everything a simulation is given that planSimulation checks (run.ts's SimulationOptions adds how the run is driven). */
export interface SimulationInputs {
  /** A scenario file, or a built-in one by name (demo): its pods and containers, and its steps as the script. */
  scenario?: string;
  /** Generated pods and containers instead of a scenario (no script: served until stopped). */
  generate?: { pods: number; containersPerPod: number };
  /** An expectation file: the scenario's steps are run one by one and judged (its scenario: key names one, if `scenario` does not). */
  expect?: string;
  /** Listen here; else a fresh 0700 directory with a 0600 socket, removed on the way out. */
  socketPath?: string;
  /**
   * Also serve CRI (the subset of src/cri) on this socket, so that crictl or any CRI
   * client drives the simulator. It serves as long as the run does: until the signal
   * without a scenario (or with keepRunning), else until the script is done.
   */
  criSocketPath?: string;
  /**
   * The node verifies image signatures (crio.conf's `signature_policy` is set): the CRI
   * face refuses CreateContainer without user_specified_image as the preset's runtime does
   * (RuntimeQuirks.signaturePolicyRefusal); only for a preset that has that refusal, with a CRI socket.
   */
  signaturePolicy?: boolean;
  /** Pre-started plugins: a directory of NN-name executables, which must exist. */
  pluginDir?: string;
  /** Their drop-in configuration directory (NN-name.conf, else name.conf), which must exist. */
  confDir?: string;
  registrationTimeoutMs?: number;
  requestTimeoutMs?: number;
  /** A runtime people run (RUNTIME_PRESETS), default newest: its name, version, NRI version and quirks. */
  preset?: string;
  nriVersion?: string;
  /**
   * A runtime config (containerd's config.toml, CRI-O's crio.conf) whose default_validator
   * table sets up the built-in default validator, as that runtime would (NRI v0.10+).
   */
  validator?: string;
  runtimeName?: string;
  runtimeVersion?: string;
  /** Report every call to a plugin as an `invoke` record (default true); off, a relayed call costs no record. */
  callEvents?: boolean;
  /** Pre-started plugins' output: plugin-output events per line, or not read at all. */
  pluginOutput?: 'events' | 'none';
  /** Clauses of the NRI contract to break on purpose (faults.ts): for testing `nrictl conformance`. */
  faults?: readonly SimFault[];
  /** Instead of a scenario file: its pods, containers and steps as values (a recording replayed). */
  source?: ScenarioSource;
}

/** A scenario given as values: the state to start from and the steps, which may come as the run goes. */
export interface ScenarioSource {
  /** What it is called in messages (the recording's file). */
  file: string;
  pods: nri.IPodSandbox[];
  containers: nri.IContainer[];
  steps: Steps;
  /** The steps' labels in order, for an expectation file to name them before anything runs. */
  labels?: readonly string[];
}

/** What a simulation runs, read and checked. */
export interface SimulationPlan {
  scenario: Scenario;
  /** The script: the scenario's steps, or a source's. */
  steps: Steps;
  /** The steps' labels, where an expectation file names them. */
  labels: readonly string[];
  /** A scenario was named: its steps run (none, if it has none), then the run ends unless told to stay. */
  scripted: boolean;
  expectations?: ExpectationFile;
  runtime: RuntimeOptions;
}

export async function planSimulation(opts: SimulationInputs): Promise<SimulationPlan> {
  if (opts.socketPath !== undefined) {
    const bytes = socketPathOverLimit(opts.socketPath);
    if (bytes !== undefined)
      throw new SimulationInputError(
        `${socketPathTooLongMessage(opts.socketPath, bytes)}; pick a shorter path`,
        'usage',
        'socketPath',
      );
  }
  if (opts.criSocketPath !== undefined) checkCriSocket(opts);
  if (opts.pluginDir !== undefined) await mustBeDirectory(opts.pluginDir, 'pluginDir', PLUGIN_DIR_HOLDS);
  if (opts.confDir !== undefined) await mustBeDirectory(opts.confDir, 'confDir', 'the plugins’ configuration files');
  // The plugins' names too: one the runtime cannot parse fails its start-up, so it fails ours now.
  if (opts.pluginDir !== undefined) await discoverPlugins(opts.pluginDir, opts.confDir);
  const preset = RUNTIME_PRESETS[opts.preset ?? 'newest'];
  if (preset === undefined)
    throw new SimulationInputError(
      `unknown preset "${opts.preset}" (known: ${Object.keys(RUNTIME_PRESETS).join(', ')})`,
      'usage',
      'preset',
    );
  if (opts.criSocketPath !== undefined && preset.quirks?.docker)
    throw new SimulationInputError(
      'Docker serves no CRI (the kubelet reaches it through cri-dockerd): leave out --cri-socket, or pick a containerd, CRI-O or iSulad preset',
      'usage',
      'criSocketPath',
    );
  if (opts.signaturePolicy && !preset.quirks?.signaturePolicyRefusal)
    throw new SimulationInputError(
      `--signature-policy imitates CRI-O's signature_policy, and preset ${opts.preset ?? 'newest'} is not CRI-O: pick a crio-* preset, or leave it out`,
      'usage',
      'signaturePolicy',
    );
  if (opts.signaturePolicy && opts.criSocketPath === undefined)
    throw new SimulationInputError(
      '--signature-policy acts on CRI CreateContainer: give --cri-socket too',
      'usage',
      'signaturePolicy',
    );
  const nriVersion = opts.nriVersion ?? preset.nriVersion;
  const vintage = runtimeVintage(nriVersion);
  const defaultValidator = opts.validator === undefined ? undefined : readValidator(opts.validator);
  if (defaultValidator && (!vintage.validation || preset.quirks?.docker))
    throw new SimulationInputError(
      `${preset.quirks?.docker ? 'Docker' : `NRI ${vintage.nriVersion}`} has no default validator: it comes with NRI v0.10 (containerd 2.2, CRI-O 1.34) and later`,
      'usage',
      'validator',
    );
  if (opts.scenario !== undefined && opts.generate !== undefined)
    throw new SimulationInputError('give a scenario or generated pods, not both', 'usage', 'generate');
  const source = opts.source;
  if (source && (opts.scenario !== undefined || opts.generate !== undefined))
    throw new SimulationInputError(
      `${source.file} is replayed: give no scenario or generated pods too`,
      'usage',
      'scenario',
    );

  let expectations: ExpectationFile | undefined;
  if (opts.expect !== undefined) {
    expectations = await loadExpectations(opts.expect, parseScenarioResources);
    if (source && expectations.scenario !== undefined)
      throw new SimulationInputError(
        `${opts.expect} names a scenario (${expectations.scenario}), but ${source.file} is replayed: remove its scenario: key`,
        'usage',
        'expect',
      );
    if (opts.scenario === undefined && expectations.scenario === undefined && !source)
      throw new SimulationInputError(
        `${opts.expect}: name the scenario, with scenario: in the file or as the SCENARIO argument`,
        'usage',
        'expect',
      );
  }
  const scenarioFile = opts.scenario ?? expectations?.scenario;
  let scenario: Scenario = { file: '', pods: [], containers: [], steps: [] };
  if (source) scenario = { file: source.file, pods: source.pods, containers: source.containers, steps: [] };
  else if (scenarioFile !== undefined) scenario = await loadScenario(scenarioFile);
  else if (opts.generate !== undefined) scenario = generateScenario(opts.generate);
  const labels = !expectations ? [] : source ? (source.labels ?? []) : scenario.steps.map(stepLabel);
  // An expectation after a step the scenario does not have is found now, not after the run.
  if (expectations) placeExpectations(expectations, labels);

  return {
    scenario,
    steps: source ? source.steps : scenario.steps,
    labels,
    scripted: scenarioFile !== undefined || source !== undefined,
    ...(expectations ? { expectations } : {}),
    runtime: {
      ...(opts.socketPath !== undefined ? { socketPath: opts.socketPath } : {}),
      ...(opts.pluginDir !== undefined ? { pluginPath: opts.pluginDir } : {}),
      ...(opts.confDir !== undefined ? { pluginConfigPath: opts.confDir } : {}),
      ...(opts.registrationTimeoutMs !== undefined ? { registrationTimeoutMs: opts.registrationTimeoutMs } : {}),
      ...(opts.requestTimeoutMs !== undefined ? { requestTimeoutMs: opts.requestTimeoutMs } : {}),
      runtimeName: opts.runtimeName ?? preset.runtimeName,
      runtimeVersion: opts.runtimeVersion ?? preset.runtimeVersion,
      nriVersion,
      pluginOutput: opts.pluginOutput ?? 'events',
      ...(opts.callEvents !== undefined ? { callEvents: opts.callEvents } : {}),
      ...(defaultValidator ? { defaultValidator } : {}),
      ...(preset.quirks ? { quirks: preset.quirks } : {}),
      ...(opts.faults?.length ? { faults: opts.faults } : {}),
    },
  };
}

/** --cri-socket: a path a unix socket can have, and not the NRI socket's. */
function checkCriSocket(opts: SimulationInputs): void {
  const criSocket = opts.criSocketPath ?? '';
  const bytes = socketPathOverLimit(criSocket);
  if (bytes !== undefined)
    throw new SimulationInputError(
      `${socketPathTooLongMessage(criSocket, bytes)}; pick a shorter path`,
      'usage',
      'criSocketPath',
    );
  if (opts.socketPath !== undefined && path.resolve(opts.socketPath) === path.resolve(criSocket))
    throw new SimulationInputError(
      'the CRI socket cannot be the NRI socket: give --cri-socket a path of its own',
      'usage',
      'criSocketPath',
    );
}

/** The default_validator table of a runtime config; the file must have one. */
function readValidator(file: string): DefaultValidatorSettings {
  const settings = lintRuntimeConfigs([file]).at(-1)?.settings.defaultValidator;
  if (settings === undefined)
    throw new SimulationInputError(
      `${file} has no default_validator table: give a containerd config.toml with [plugins."io.containerd.nri.v1.nri".default_validator] or a crio.conf with [crio.nri.default_validator]`,
      'usage',
      'validator',
    );
  return settings;
}

/** A directory the caller named must be one: missing is not-found, anything else usage. */
export async function mustBeDirectory(dir: string, option: string, holding: string): Promise<void> {
  let isDir: boolean;
  try {
    isDir = (await stat(dir)).isDirectory();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT')
      throw new SimulationInputError(`${dir} does not exist: give the directory of ${holding}`, 'not-found', option);
    throw new SimulationInputError(`cannot read ${dir}: ${code ?? (err as Error).message}`, 'usage', option);
  }
  if (!isDir)
    throw new SimulationInputError(`${dir} is not a directory: give the directory of ${holding}`, 'usage', option);
}
