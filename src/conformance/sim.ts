// The same suite against the simulator: `nrictl sim` started in-process with its NRI and
// CRI sockets (real sockets, in a private 0700 directory removed afterwards), the checks
// run through those sockets exactly as on a node. `--preset all` runs it once per
// runtime release line and puts the verdicts side by side.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RELEASE_PRESETS, runSimulation, SimulationInputError, type SimFault } from '../runtime/index.js';
import { ConformanceError } from './errors.js';
import type { Check } from './check.js';
import type { CheckVerdict, ConformanceReport, ConformanceSummary } from './model.js';
import { prepare } from './preflight.js';
import { selectChecks } from './select.js';
import { newRunId, runSuite, type RunHooks } from './suite.js';

export interface SimConformanceOptions {
  /** A scenario whose pods and containers (and images:) the simulator starts with. */
  scenario?: string | undefined;
  /** A runtime release line (RUNTIME_PRESETS); default newest. */
  preset?: string | undefined;
  /** Clauses the simulator breaks on purpose (tests). */
  faults?: readonly SimFault[] | undefined;
  /** The simulated CRI-O verifies image signatures (`sim --signature-policy`). */
  signaturePolicy?: boolean | undefined;
  image?: string | undefined;
  pull?: boolean | undefined;
  focus?: readonly string[] | undefined;
  skip?: readonly string[] | undefined;
  onVerdict?: RunHooks['onVerdict'];
  /** --include-crashing: also the checks that send a call known to crash the runtime the preset imitates. */
  includeCrashing?: boolean | undefined;
  signal: AbortSignal;
}

/** One run of the chosen checks against one simulated runtime. */
export async function runOnSimulator(opts: SimConformanceOptions): Promise<ConformanceReport> {
  return runWith(selectChecks(opts.focus, opts.skip), opts);
}

async function runWith(checks: readonly Check[], opts: SimConformanceOptions): Promise<ConformanceReport> {
  const dir = mkdtempSync(join(tmpdir(), 'nrictl-conformance-'));
  let report: ConformanceReport | undefined;
  try {
    await runSimulation(
      {
        ...(opts.scenario !== undefined ? { scenario: opts.scenario } : {}),
        ...(opts.preset !== undefined ? { preset: opts.preset } : {}),
        socketPath: join(dir, 'nri.sock'),
        criSocketPath: join(dir, 'cri.sock'),
        callEvents: false,
        pluginOutput: 'none',
        ...(opts.faults?.length ? { faults: opts.faults } : {}),
        ...(opts.signaturePolicy ? { signaturePolicy: true } : {}),
        drive: async (runtime, signal) => {
          const prepared = await prepare({
            // The simulated node's process table: --sim looks beyond CRI as a run on a node does.
            node: runtime.node,
            criSocket: join(dir, 'cri.sock'),
            nriSocket: join(dir, 'nri.sock'),
            image: opts.image,
            pull: opts.pull,
            pace: 'sim',
            signal,
          });
          try {
            prepared.target.sim = {
              preset: opts.preset ?? 'newest',
              ...(opts.scenario !== undefined ? { scenario: opts.scenario } : {}),
              ...(opts.faults?.length ? { faults: [...opts.faults] } : {}),
            };
            report = await runSuite(prepared, checks, newRunId(), {
              signal,
              onVerdict: opts.onVerdict,
              includeCrashing: opts.includeCrashing,
            });
          } finally {
            prepared.cri.close();
          }
        },
      },
      opts.signal,
    );
  } catch (err) {
    if (err instanceof SimulationInputError && err.option === 'criSocketPath')
      // The preset's runtime serves no CRI (Docker): nothing to run the checks through.
      throw new ConformanceError(
        'bad-input',
        `${err.message.replace(/: leave out --cri-socket.*$/, '')}: the checks run through CRI`,
        'preset',
        { cause: err },
      );
    if (err instanceof SimulationInputError)
      throw new ConformanceError('bad-input', err.message, err.option, { cause: err });
    throw err;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  if (!report) throw new ConformanceError('cancelled', 'cancelled before the checks ran: nothing was created');
  return report;
}

/** One preset's column of the matrix: its verdicts, or why the suite does not apply to it. */
export interface PresetColumn {
  preset: string;
  /** "containerd v2.3.4", from the simulated runtime's CRI Version. */
  runtime?: string;
  /** The run's id, in its namespace's and its pods' names. */
  runId?: string;
  /** The suite cannot run: the preset's runtime serves no CRI (Docker). */
  notApplicable?: string;
  verdicts: CheckVerdict[];
  summary?: ConformanceSummary;
}

export interface ConformanceMatrix {
  checks: Array<Pick<Check, 'name' | 'critest' | 'clause'>>;
  presets: PresetColumn[];
  durationMs: number;
  interrupted: boolean;
  exitCode: 0 | 1;
}

/** Every release preset in turn (a preset's runtime without CRI is a column of "not applicable"). */
export async function runMatrix(
  opts: Omit<SimConformanceOptions, 'preset' | 'onVerdict'> & { onPreset?: (c: PresetColumn) => void },
): Promise<ConformanceMatrix> {
  const started = performance.now();
  const checks = selectChecks(opts.focus, opts.skip);
  const presets: PresetColumn[] = [];
  for (const preset of RELEASE_PRESETS) {
    if (opts.signal.aborted) break;
    let column: PresetColumn;
    try {
      const r = await runWith(checks, { ...opts, preset });
      column = { preset, runtime: r.target.runtime, runId: r.runId, verdicts: r.verdicts, summary: r.summary };
    } catch (err) {
      if (!(err instanceof ConformanceError && err.code === 'bad-input' && err.option === 'preset')) throw err;
      column = { preset, notApplicable: err.message, verdicts: [] };
    }
    presets.push(column);
    opts.onPreset?.(column);
  }
  const bad = presets.some((p) => p.verdicts.some((v) => v.status === 'fail' || v.status === 'error'));
  return {
    checks: checks.map((c) => ({
      name: c.name,
      ...(c.critest !== undefined ? { critest: c.critest } : {}),
      clause: c.clause,
    })),
    presets,
    durationMs: performance.now() - started,
    interrupted: opts.signal.aborted,
    exitCode: bad || opts.signal.aborted ? 1 : 0,
  };
}
