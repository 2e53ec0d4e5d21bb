import { Args } from '@oclif/core';
import * as cli from '../src/cli/index.js';
import { ConformancePlan, runMatrix, runOnSimulator } from '../src/conformance/index.js';
import { output, writeFileAtomic } from '../src/output/index.js';
import { RUNTIME_PRESETS, SIM_FAULTS, type SimFault } from '../src/runtime/index.js';
import * as views from '../src/views/index.js';
import { plural } from '../src/units/index.js';

const PRESETS = Object.keys(RUNTIME_PRESETS);

export default class Conformance extends cli.BaseCommand<typeof Conformance> {
  static override summary =
    'Check, clause by clause, that the runtime keeps the NRI contract: critest’s NRI checks and more.';

  static override description = `Drives pods and containers through the runtime's CRI socket while one to three short-lived test plugins on its NRI socket observe, hold, fail or adjust an event, and judges what CRI reported and what the plugins saw: critest's 24 NRI checks, the clauses of the draft pod sandbox contract (containerd/nri#286) that critest leaves out, and adjustments, updates and post-events. Each check passes, fails with one line (expected X, saw Y; a failure known upstream names its issue), is skipped with the reason, or is an error when it could not be judged; exit 0 only when every check that ran passed, 1 otherwise, 2 for bad input (no CRI socket, one that is not CRI, a runtime without NRI, a missing image, a --focus that matches nothing), with nothing created.

It never hurts the node: everything it makes is in the namespace nrictl-conformance-<run id> with the label nrictl.io/conformance-run, and is removed on every way out, Ctrl-C and SIGTERM included (what could not be is listed with the crictl command that removes it). A held hook is released within half the runtime's request timeout (from Configure, else its config, else 2 s), never at it, and before anything is called not delivered a throwaway canary pod proves the plugin still receives. It asks on a terminal; without one, or with CI set, it needs --yes. The test image is the runtime's own pause image unless --image; nothing is pulled without --pull.

--sim runs the same checks against the simulator over real sockets; --preset all prints one matrix, checks by runtime release lines, each reproducing what its real runtime is known to do.`;

  static override examples = [
    cli.example('Check the node’s runtime (asks first)'),
    cli.example('In CI: no question, JUnit for the CI system', '--yes --junit conformance.xml'),
    cli.example('Only the RunPodSandbox and Synchronize checks, with their reasons', '--focus run-pod,sync -o wide'),
    cli.example('Every runtime release line the simulator imitates, as a matrix', '--sim --preset all'),
    cli.example('The simulator as containerd 2.1, as JSON', '--sim --preset containerd-2.1 -o json'),
  ];

  static override args = {
    scenario: Args.string({
      description: 'With --sim: a scenario the simulator starts with (its pods, containers and images).',
    }),
  };

  static override flags = cli.conformanceFlags(PRESETS, SIM_FAULTS);

  protected override async execute() {
    const f = this.flags;
    cli.checkConformanceFlags(f, this.args.scenario, PRESETS);
    const onVerdict = cli.conformanceProgress((t) => this.note(t));
    const sim = { scenario: this.args.scenario, faults: f.fault as SimFault[] | undefined };
    const common = {
      image: f.image,
      pull: f.pull,
      focus: f.focus,
      skip: f.skip,
      includeCrashing: f['include-crashing'],
      signal: this.signal,
    };
    if (f.sim && f.preset === 'all') {
      const onPreset = onVerdict && ((p: { preset: string }) => this.note(`preset ${p.preset} done`));
      const matrix = await runMatrix({ ...sim, ...common, ...(onPreset ? { onPreset } : {}) });
      if (f.junit !== undefined) await writeFileAtomic(f.junit, views.conformanceMatrixJunit(matrix));
      return output(matrix, views.conformanceMatrixView, matrix.exitCode);
    }
    let report;
    if (f.sim) report = await runOnSimulator({ ...sim, ...common, preset: f.preset, onVerdict });
    else {
      const plan = await ConformancePlan.open({
        ...common,
        criSocket: f['cri-socket'],
        nriSocket: f.socket,
        pace: 'node',
        terminal: cli.canPrompt(),
        ask: !f.yes,
      });
      try {
        this.note(
          `${plural(plan.checks.length, 'check')} in namespace ${plan.namespace}: ${views.targetText(plan.target, plan.holdBoundMs)}`,
        );
        await plan.confirm();
        report = await plan.run(onVerdict);
      } finally {
        plan.close();
      }
    }
    if (f.junit !== undefined) await writeFileAtomic(f.junit, views.conformanceJunit(report));
    return output(report, views.conformanceView, report.exitCode);
  }
}
