// Every error class a library layer exports reaches its exit code through its kind, and
// through nothing else: src/cli/error-table.ts maps kinds, never class names. A class
// added to a layer's index without a line here fails the first test.
import { describe, expect, it } from 'vitest';
import * as api from '../../src/api/index.js';
import * as bundle from '../../src/bundle/index.js';
import * as checks from '../../src/checks/index.js';
import * as cli from '../../src/cli/index.js';
import * as conformance from '../../src/conformance/index.js';
import * as control from '../../src/control/index.js';
import * as cri from '../../src/cri/index.js';
import * as diagnose from '../../src/diagnose/index.js';
import { isKindedError } from '../../src/errors/index.js';
import * as expectation from '../../src/expect/index.js';
import * as fleet from '../../src/fleet/index.js';
import * as mux from '../../src/mux/index.js';
import * as observe from '../../src/observe/index.js';
import * as output from '../../src/output/index.js';
import * as plugin from '../../src/plugin/index.js';
import * as runtime from '../../src/runtime/index.js';
import * as scaffold from '../../src/scaffold/index.js';
import * as session from '../../src/session/index.js';
import * as trace from '../../src/trace/index.js';
import * as ttrpc from '../../src/ttrpc/index.js';
import * as units from '../../src/units/index.js';
import * as views from '../../src/views/index.js';

const LAYERS = {
  api,
  bundle,
  checks,
  cli,
  conformance,
  control,
  cri,
  diagnose,
  expect: expectation,
  fleet,
  mux,
  observe,
  output,
  plugin,
  runtime,
  scaffold,
  session,
  trace,
  ttrpc,
  units,
  views,
};
const { ExitCode, describeError } = cli;
const { Code } = ttrpc;

/** One or more instances of each class, as its layer throws it, and the exit code each must give. */
const SAMPLES: Record<string, Array<[Error, number]>> = {
  EventNameError: [[new api.EventNameError('x', 'unknown event "x"'), ExitCode.USAGE]],
  PluginNameError: [[new api.PluginNameError('x', 'no-index-separator', 'bad name'), ExitCode.USAGE]],
  CpusetError: [[new units.CpusetError('x', 'no'), ExitCode.USAGE]],
  DurationError: [[new units.DurationError('5', 'no unit'), ExitCode.USAGE]],
  QuantityError: [[new units.QuantityError('x', 'no'), ExitCode.USAGE]],
  TtrpcError: [
    [new ttrpc.TtrpcError(Code.DeadlineExceeded, 'late'), ExitCode.RUNTIME_GONE],
    [new ttrpc.TtrpcError(Code.Unknown, 'no'), ExitCode.REFUSED],
    [new ttrpc.TtrpcError(Code.Canceled, 'stop'), ExitCode.FAILED],
  ],
  TtrpcClosedError: [[new ttrpc.TtrpcClosedError('closed'), ExitCode.RUNTIME_GONE]],
  TtrpcProtocolError: [[new ttrpc.TtrpcProtocolError('garbage'), ExitCode.RUNTIME_GONE]],
  MuxClosedError: [[new mux.MuxClosedError('closed'), ExitCode.RUNTIME_GONE]],
  MuxProtocolError: [[new mux.MuxProtocolError('garbage'), ExitCode.RUNTIME_GONE]],
  PluginError: [
    [new plugin.PluginError('connect', 'no-socket', 'no socket'), ExitCode.CONNECT],
    [new plugin.PluginError('register', 'rejected', 'no'), ExitCode.REGISTRATION],
    [new plugin.PluginError('update', 'timeout', 'late'), ExitCode.RUNTIME_GONE],
    [new plugin.PluginError('closed', 'closed', 'gone'), ExitCode.RUNTIME_GONE],
    [new plugin.PluginError('connect', 'path-too-long', 'long'), ExitCode.USAGE],
  ],
  ConflictError: [[new runtime.ConflictError('Env', 'A', ['10-a', '20-b'], 'c1'), ExitCode.USAGE]],
  DiscoveryError: [
    [new runtime.DiscoveryError('no dir', '/x', '/x', 'read-dir'), ExitCode.USAGE],
    [new runtime.DiscoveryError('bad name', '/x', 'x', 'bad-name'), ExitCode.USAGE],
  ],
  LaunchError: [[new runtime.LaunchError('exec failed', '/x'), ExitCode.FAILED]],
  ListenError: [
    [new runtime.ListenError('in use', '/s', 'in-use'), ExitCode.USAGE],
    [new runtime.ListenError('failed', '/s', 'listen'), ExitCode.FAILED],
  ],
  MergeError: [[new runtime.MergeError('bad', '10-a', 'c1', 'update-during-creation'), ExitCode.FAILED]],
  PluginConnectionError: [[new runtime.PluginConnectionError('closed', '10-a', 'closed'), ExitCode.FAILED]],
  RuntimeError: [[new runtime.RuntimeError('failed', 'CreateContainer'), ExitCode.FAILED]],
  ScenarioError: [[new runtime.ScenarioError('bad', 'f.yaml', ''), ExitCode.USAGE]],
  // The simulated runtime did not come up (a pre-started plugin failed on NRI before v0.7): as a failed expectation.
  RuntimeStartError: [
    [
      new runtime.RuntimeStartError(
        'containerd v1.7.13 exits at start-up: ...',
        'containerd v1.7.13',
        '10-x',
        'level=fatal',
      ),
      ExitCode.FAILED,
    ],
  ],
  SimulationInputError: [
    [new runtime.SimulationInputError('/nope does not exist', 'not-found', 'pluginDir'), ExitCode.USAGE],
    [new runtime.SimulationInputError('/f is not a directory', 'usage', 'confDir'), ExitCode.USAGE],
  ],
  StateError: [
    [new runtime.StateError('no container "x"', 'unknown-container', 'x'), ExitCode.USAGE],
    [new runtime.StateError('"x" exists', 'duplicate', 'x'), ExitCode.USAGE],
  ],
  ValidationRejectedError: [[new runtime.ValidationRejectedError('10-v', 'c1', 'no'), ExitCode.REFUSED]],
  ValidatorFailedError: [[new runtime.ValidatorFailedError('10-v', 'c1', 'timeout'), ExitCode.FAILED]],
  VintageError: [[new runtime.VintageError('bad version'), ExitCode.USAGE]],
  CheckPathError: [
    [new checks.CheckPathError('/x', 'missing'), ExitCode.USAGE],
    [new checks.CheckPathError('/x', 'unreadable', 'EACCES'), ExitCode.USAGE],
    [new checks.CheckPathError('/x', 'not-a-directory', undefined, { option: 'root' }), ExitCode.USAGE],
  ],
  UnknownConfigFormatError: [[new checks.UnknownConfigFormatError('/x'), ExitCode.USAGE]],
  InputFileError: [
    [new checks.InputFileError('/x', 'scenario', 'missing', 'does not exist'), ExitCode.USAGE],
    [
      new checks.InputFileError('/x', 'scenario', 'not-a-regular-file', 'is a fifo, not a regular file'),
      ExitCode.USAGE,
    ],
  ],
  InputDocumentError: [[new checks.InputDocumentError('line 1, column 2: bad', 1, 2, 'syntax'), ExitCode.USAGE]],
  AtomicWriteError: [[new output.AtomicWriteError('/x', 'rename', new Error('EROFS')), ExitCode.FAILED]],
  MetricsAddressError: [[new output.MetricsAddressError('bad address'), ExitCode.USAGE]],
  OutputFileError: [[new output.OutputFileError('--output-file', 'empty'), ExitCode.USAGE]],
  SessionError: [
    [new session.SessionError('no-socket', 'no socket'), ExitCode.CONNECT],
    [new session.SessionError('registration-timeout', 'late'), ExitCode.REGISTRATION],
    [new session.SessionError('call-timeout', 'late'), ExitCode.RUNTIME_GONE],
    [new session.SessionError('runtime-gone', 'gone'), ExitCode.RUNTIME_GONE],
    [new session.SessionError('update-refused', 'no'), ExitCode.REFUSED],
    [new session.SessionError('cancelled', 'cancelled'), ExitCode.FAILED],
    [new session.SessionError('bad-identity', 'bad'), ExitCode.USAGE],
  ],
  RuntimeMetricsError: [
    [new session.RuntimeMetricsError('bad-url', 'not http'), ExitCode.USAGE],
    [new session.RuntimeMetricsError('unreachable', 'ECONNREFUSED'), ExitCode.CONNECT],
    [new session.RuntimeMetricsError('timeout', 'late'), ExitCode.RUNTIME_GONE],
    [new session.RuntimeMetricsError('http-status', 'HTTP 404'), ExitCode.FAILED],
    [new session.RuntimeMetricsError('malformed', 'not a page'), ExitCode.FAILED],
  ],
  ExpositionError: [[new session.ExpositionError(3, 'not a number'), ExitCode.FAILED]],
  FilterError: [[new observe.FilterError('--label', 'bad'), ExitCode.USAGE]],
  ContainerLookupError: [
    [new control.ContainerLookupError('unknown', 'x', [], 'no container x'), ExitCode.USAGE],
    [new control.ContainerLookupError('ambiguous', 'c', [], 'ambiguous'), ExitCode.USAGE],
  ],
  ControlError: [
    [new control.ControlError('needs-yes', 'no terminal'), ExitCode.USAGE],
    [new control.ControlError('not-confirmed', 'no'), ExitCode.FAILED],
    [new control.ControlError('refused', 'refused'), ExitCode.REFUSED],
    [new control.ControlError('unsafe-runtime', 'iSulad'), ExitCode.USAGE],
    [new control.ControlError('unsafe-runtime', 'Docker Engine does not implement updates'), ExitCode.USAGE],
  ],
  ControlInputError: [[new control.ControlInputError('--cpus', 'bad'), ExitCode.USAGE]],
  CriError: [
    [new cri.CriError('no-socket', 'no CRI socket'), ExitCode.CONNECT],
    [new cri.CriError('not-cri', 'an NRI socket'), ExitCode.CONNECT],
    [new cri.CriError('no-cri', 'Docker'), ExitCode.CONNECT],
    [new cri.CriError('path-too-long', 'long'), ExitCode.USAGE],
    [new cri.CriError('no-answer', 'late'), ExitCode.RUNTIME_GONE],
    [new cri.CriError('runtime-gone', 'gone'), ExitCode.RUNTIME_GONE],
    [new cri.CriError('not-found', 'no such container'), ExitCode.USAGE],
    [new cri.CriError('unimplemented', 'no such call'), ExitCode.REFUSED],
    [new cri.CriError('refused', 'no'), ExitCode.REFUSED],
    [new cri.CriError('cancelled', 'stop'), ExitCode.FAILED],
  ],
  CriStatus: [
    [new cri.CriStatus(cri.GrpcCode.NOT_FOUND, 'not found'), ExitCode.USAGE],
    [new cri.CriStatus(cri.GrpcCode.UNIMPLEMENTED, 'not implemented'), ExitCode.REFUSED],
    [new cri.CriStatus(cri.GrpcCode.UNKNOWN, 'no'), ExitCode.REFUSED],
  ],
  PlacementError: [[new trace.PlacementError('bad index'), ExitCode.USAGE]],
  ExpectationError: [[new expectation.ExpectationError('bad', 'e.yaml'), ExitCode.USAGE]],
  BundleError: [
    [new bundle.BundleError('no entry', 'no-entry'), ExitCode.USAGE],
    [new bundle.BundleError('build failed', 'build'), ExitCode.FAILED],
  ],
  ScaffoldError: [
    [new scaffold.ScaffoldError('bad name', 'bad-name'), ExitCode.USAGE],
    [new scaffold.ScaffoldError('exists', 'exists'), ExitCode.USAGE],
    [new scaffold.ScaffoldError('write failed', 'write'), ExitCode.FAILED],
  ],
  Aborted: [[new session.Aborted('cancelled'), ExitCode.FAILED]],
  ConformanceError: [
    [new conformance.ConformanceError('bad-input', 'no NRI socket'), ExitCode.USAGE],
    [new conformance.ConformanceError('needs-yes', 'add --yes'), ExitCode.USAGE],
    [new conformance.ConformanceError('not-confirmed', 'no'), ExitCode.FAILED],
    [new conformance.ConformanceError('cancelled', 'stop'), ExitCode.FAILED],
  ],
  // fleet: a --prometheus URL that is not a Prometheus that answers is one line and exit 2.
  PrometheusError: [
    [new fleet.PrometheusError('unreachable', 'cannot reach Prometheus'), ExitCode.USAGE],
    [new fleet.PrometheusError('timeout', 'no answer'), ExitCode.USAGE],
    [new fleet.PrometheusError('not-prometheus', 'not JSON'), ExitCode.USAGE],
    [new fleet.PrometheusError('cancelled', 'stop'), ExitCode.FAILED],
  ],
  SelectorError: [[new fleet.SelectorError('bad selector'), ExitCode.USAGE]],
  UserError: [
    [new cli.UserError('failed'), ExitCode.FAILED],
    [cli.usageError('bad'), ExitCode.USAGE],
  ],
};

function exportedErrorClasses(): string[] {
  const names = new Set<string>();
  for (const mod of Object.values(LAYERS)) {
    for (const [name, value] of Object.entries(mod)) {
      if (typeof value === 'function' && (value as { prototype?: unknown }).prototype instanceof Error) names.add(name);
    }
  }
  return [...names].sort();
}

describe('error kinds', () => {
  it('every error class a layer exports has its samples here', () => {
    expect(exportedErrorClasses()).toEqual(Object.keys(SAMPLES).sort());
  });

  for (const [name, samples] of Object.entries(SAMPLES)) {
    it(`${name} says its kind, and the kind gives the exit code`, () => {
      for (const [err, code] of samples) {
        expect({ name, kinded: isKindedError(err) }).toEqual({ name, kinded: true });
        expect({ name, message: err.message, exitCode: describeError(err).exitCode }).toEqual({
          name,
          message: err.message,
          exitCode: code,
        });
      }
    });
  }

  it('an error without a kind is an internal error, exit 70, and says to report it', () => {
    expect(describeError(new TypeError('x is undefined'))).toEqual({
      exitCode: ExitCode.INTERNAL,
      message: 'internal error: x is undefined (run again with --debug and report it)',
    });
  });

  it('a library option named in an error becomes its flag in the message', () => {
    const err = Object.assign(new Error('/nope does not exist'), { kind: 'not-found', option: 'pluginDir' });
    expect(describeError(err, cli.flagOfOption).message).toBe('--plugin-dir: /nope does not exist');
    const root = new checks.CheckPathError('/etc/passwd', 'not-a-directory', undefined, { option: 'root' });
    expect(describeError(root, cli.flagOfOption)).toEqual({
      exitCode: ExitCode.USAGE,
      message: '--root: /etc/passwd is not a directory',
    });
  });
});
