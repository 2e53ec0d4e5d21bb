import { Flags } from '@oclif/core';
import { containerArg, PlanCommand, planFlags, resourceFlags } from '../src/cli/index.js';
import { parseResourceFlags, planUpdate, unitWarnings } from '../src/control/index.js';
import { updateViews } from '../src/views/index.js';

export default class Update extends PlanCommand<typeof Update> {
  static override summary = "Change a running container's resources through NRI, now.";

  static override description = `Connects to the runtime as a short-lived plugin (by default 99-nrictl-update), finds the container in the runtime's Synchronize state, shows what changes (current -> new), asks for confirmation on a terminal (without one, or with CI set, it needs --yes and otherwise refuses with exit 2), sends one UpdateContainers request with only the fields given, and reports the runtime's answer. A second Synchronize then checks that the runtime shows the new values.

<container> is a full container id, a unique id prefix, pod/container or namespace/pod/container. Without it, on a terminal, a picker lists the runtime's containers.

--cpus is NRI's cpuset (which CPUs: 0-3,8), not a number of CPUs; for docker's meaning use --cpu-limit 1.5. Every value is checked before anything connects; a bad value exits 2 with nothing sent. An update the runtime does not apply exits 7. On iSulad (which crashes on it) and Docker Engine (which does not implement it) nothing is sent without --force: exit 2.

A runtime that registers nrictl and then does not answer within --timeout ends the command with exit 6 (the request may still be applied). Ctrl-C, SIGTERM or SIGHUP before the request is sent, in the picker or at the question: "cancelled: nothing was sent", exit 1.`;

  static override examples = [
    {
      description: 'Pin a container to CPUs 0-3 with 2Gi of memory',
      command: '<%= config.bin %> <%= command.id %> shop/redis-0/redis --cpus 0-3 --memory 2Gi',
    },
    {
      description: "Give one and a half CPUs' worth of time, by id prefix, without asking",
      command: '<%= config.bin %> <%= command.id %> c2c3 --cpu-limit 1.5 --yes',
    },
    {
      description: 'See the exact request without sending it',
      command: '<%= config.bin %> <%= command.id %> c2c3 --memory 1Gi --dry-run -o json',
    },
    {
      description: 'Try it on the embedded simulator, picking the container',
      command: '<%= config.bin %> <%= command.id %> --sim demo --cpus 0-1',
    },
  ];

  static override args = { container: containerArg };

  static override flags = {
    ...planFlags('nrictl-update'),
    ...resourceFlags,
    'ignore-failure': Flags.boolean({
      description: "Set the update's ignore_failure: the runtime does not report it as failed if it cannot apply it.",
    }),
  };

  protected override async execute() {
    const resources = parseResourceFlags(this.flags);
    for (const w of unitWarnings(this.flags)) this.warning(w);
    const change = { resources, ignoreFailure: this.flags['ignore-failure'] };
    return this.carryOut(await planUpdate(this.planTarget(this.args.container), change), updateViews);
  }
}
