import { Args, Flags } from '@oclif/core';
import chalk from 'chalk';
import {
  BaseCommand,
  confirmFlags,
  connectOptions,
  connectProgress,
  legacyOutputFlag,
  pluginIndexFlag,
  pluginNameFlag,
  simFlag,
  socketFlag,
  targetLabel,
  timeoutFlag,
  usageError,
} from '../src/cli/index.js';
import {
  containerLabel,
  containerStillListed,
  evictionRequest,
  requestData,
  sendToContainer,
  targetHeading,
} from '../src/control/index.js';
import { containerStateName, renderDocument } from '../src/render/index.js';

// Why, in src/runtime/README.md (Evictions): the Go adaptation never passes an eviction on.
const EVICTION_DROPPED =
  'NRI runtimes accept an eviction and drop it (the Go NRI adaptation in containerd and CRI-O passes none on; NRI v0.6 and older ignore them): the container will keep running. To stop it, use crictl stop or kubectl delete pod.';

export default class Evict extends BaseCommand<typeof Evict> {
  static override summary = 'Send a container eviction through NRI (runtimes drop it: see the description).';

  static override description = `Connects to the runtime as a short-lived plugin (by default 99-nrictl-evict), finds the container in the runtime's Synchronize state, asks for confirmation on a terminal (without one, or with CI set, it needs --yes and otherwise refuses with exit 2), and sends an UpdateContainers request carrying one ContainerEviction with the reason given, then reports whether the container is still listed.

The runtime will accept the request and ignore the eviction, and nrictl says so before sending. The Go NRI adaptation that containerd and CRI-O embed drops every eviction a plugin sends: an UpdateContainers request reaches the runtime without its evict list, and the evictions in a plugin's answers to CreateContainer and UpdateContainer are dropped when the answers are merged (containerd/nri pkg/adaptation, plugin.go and result.go, every version we could read). Runtimes with NRI v0.6 or older (containerd 1.7 before 1.7.14, iSulad) ignore evictions as well. To stop a container, use the runtime's or the orchestrator's own tools (crictl stop, kubectl delete pod).

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

  static override args = {
    container: Args.string({
      description: 'Container id, unique id prefix, pod/container or namespace/pod/container.',
      required: false,
    }),
  };

  static override flags = {
    socket: socketFlag,
    'plugin-name': pluginNameFlag('nrictl-evict'),
    'plugin-index': pluginIndexFlag('99'),
    output: legacyOutputFlag(['text', 'json', 'yaml'] as const, 'text'),
    // Required, but checked by run() so the message is ours, one line, exit 2.
    reason: Flags.string({
      char: 'r',
      description: 'Why the container is evicted (required); the runtime records it.',
      helpValue: 'TEXT',
    }),
    ...confirmFlags,
    timeout: timeoutFlag,
    sim: simFlag,
  };

  public override async run(): Promise<void> {
    const flags = this.flags;
    const { args } = await this.parse(Evict);
    if (flags.reason === undefined)
      throw usageError(
        '--reason is required: say why the container is evicted, e.g. --reason "leaking memory, INC-1234"',
      );
    const reason = flags.reason.trim();
    if (reason === '') throw usageError('--reason is empty: say why the container is evicted');
    const data = flags.output !== 'text';
    const say = (s: string): void => void (data ? process.stderr : process.stdout).write(s);
    const format = flags.output === 'yaml' ? 'yaml' : 'json';

    const progress = connectProgress(targetLabel(flags));
    const sent = await sendToContainer({
      ...connectOptions(flags),
      query: args.container,
      dryRun: flags['dry-run'],
      yes: flags.yes,
      force: flags.force,
      pickMessage: 'Container to evict',
      onProgress: progress.onProgress,
      onConnected: progress.stop,
      onWarning: (w) => this.warning(w),
      signal: this.stopSignal(),
      say,
      document: data ? (doc) => void process.stdout.write(renderDocument(doc, format)) : undefined,
      prepare: (t) => {
        const containerId = t.target.container.id ?? '';
        say(`${targetHeading('Evict', t)}\n  reason: ${reason}\n`);
        // Part of the preview, before the question: people decide knowing it.
        say(`${chalk.yellow('Warning')}: ${EVICTION_DROPPED}\n`);
        return {
          request: evictionRequest(containerId, reason),
          question: `Evict ${t.target.name}?`,
          refusal: `the runtime reported the eviction request for ${containerLabel(t.target)} as failed`,
          afterwards: (connect) => containerStillListed(connect, containerId),
        };
      },
    });
    if (!sent) return;
    const { after, target, request } = sent;
    const still = after instanceof Error ? undefined : after;
    if (data) {
      const doc = {
        container: { id: target.container.id ?? '', name: target.name },
        sent: true,
        request: requestData(request),
        afterwards:
          after instanceof Error
            ? { error: after.message }
            : { listed: Boolean(still), ...(still ? { state: containerStateName(still.state) } : {}) },
      };
      process.stdout.write(renderDocument(doc, format));
    }
    say(`${chalk.green('Sent')}: the runtime accepted the eviction request.\n`);
    if (after instanceof Error) say(`Could not take a second Synchronize to see the outcome: ${after.message}\n`);
    else if (still)
      say(
        `A new Synchronize still lists the container (${containerStateName(still.state).toLowerCase()}): as expected, the runtime did not act on the eviction.\n`,
      );
    else say('A new Synchronize no longer lists the container.\n');
  }
}
