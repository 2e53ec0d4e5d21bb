import { Flags } from '@oclif/core';
import { containerArg, PlanCommand, planFlags } from '../src/cli/index.js';
import { planEviction } from '../src/control/index.js';
import { evictionViews } from '../src/views/index.js';

export default class Evict extends PlanCommand<typeof Evict> {
  static override summary = 'Send a container eviction through NRI (runtimes drop it: see the description).';

  static override description = `Connects to the runtime as a short-lived plugin (by default 99-nrictl-evict), finds the container in the runtime's Synchronize state, asks for confirmation on a terminal (without one, or with CI set, it needs --yes and otherwise refuses with exit 2), and sends an UpdateContainers request carrying one ContainerEviction with the reason given, then reports whether the container is still listed.

The runtime will accept the request and ignore the eviction, and nrictl says so before sending. The Go NRI adaptation that containerd and CRI-O embed drops every eviction a plugin sends: an UpdateContainers request reaches the runtime without its evict list, and the evictions in a plugin's answers to CreateContainer and UpdateContainer are dropped when the answers are merged (containerd/nri pkg/adaptation, plugin.go and result.go, every version we could read). Runtimes with NRI v0.6 or older (containerd 1.7 before 1.7.14, iSulad) ignore evictions as well. To stop a container, use the runtime's or the orchestrator's own tools (crictl stop, kubectl delete pod). On iSulad (which crashes on it) and Docker Engine (which does not implement UpdateContainers) nothing is sent without --force: exit 2.

<container> is resolved as for nrictl update: full id, unique id prefix, pod/container or namespace/pod/container, or a picker on a terminal.

A runtime that registers nrictl and then does not answer within --timeout ends the command with exit 6. Ctrl-C, SIGTERM or SIGHUP before the request is sent, in the picker or at the question: "cancelled: nothing was sent", exit 1.`;

  static override examples = [
    {
      description: 'Evict a container that leaks memory',
      command:
        '<%= config.bin %> <%= command.id %> shop/redis-0/redis-exporter --reason "leaking memory, see INC-1234"',
    },
    {
      description: 'Show the request without sending it',
      command: '<%= config.bin %> <%= command.id %> c3d4 --reason test --dry-run -o json',
    },
  ];

  static override args = { container: containerArg };

  static override flags = {
    ...planFlags('nrictl-evict'),
    // Required, but checked by the library so the message is ours, one line, exit 2.
    reason: Flags.string({
      char: 'r',
      description: 'Why the container is evicted (required); the runtime records it.',
      helpValue: 'TEXT',
    }),
  };

  protected override async execute() {
    const plan = await planEviction(this.planTarget(this.args.container), this.flags.reason);
    return this.carryOut(plan, evictionViews);
  }
}
