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
  RESOURCE_FLAG_NAMES,
  buildLinuxResources,
  containerLabel,
  describeCpuLimit,
  diffResources,
  formatDiff,
  isEmptyChange,
  parseResourceFlags,
  requestData,
  sendToContainer,
  targetHeading,
  unitWarnings,
  updateRequest,
  verifyUpdate,
  type VerifyResult,
} from '../src/control/index.js';
import { renderDocument } from '../src/render/index.js';

// The flags that become LinuxResources fields. Values are taken as text and judged by
// parseResourceFlags, so every bad value gets our message (and exit 2) before anything connects.
const text = (description: string, helpValue: string, extra: { aliases?: string[] } = {}) =>
  Flags.string({ description, helpValue, helpGroup: 'RESOURCE', ...extra });

const resourceFlags = {
  cpus: text(
    "CPUs the container may run on, a cpuset list such as 0-3,8 (NRI's cpuset; for a number of CPUs' worth of time use --cpu-limit).",
    'CPUSET',
    {
      aliases: ['cpuset-cpus'],
    },
  ),
  mems: text('Memory nodes the container may allocate from, a list such as 0-1.', 'NODES', {
    aliases: ['cpuset-mems'],
  }),
  'cpu-shares': text("Relative CPU weight (cpu.shares, 2 to 262144; 1024 is one CPU's worth).", 'N', {
    aliases: ['cpu-share'],
  }),
  'cpu-quota': text('CFS quota: microseconds of CPU time per period (-1: no limit).', 'MICROSECONDS'),
  'cpu-period': text('CFS period in microseconds (1000 to 1000000).', 'MICROSECONDS'),
  'cpu-limit': text(
    "CPUs' worth of time, docker-style: 1.5 sets the quota to 1.5 periods (of --cpu-period, the container's period, or 100000).",
    'CPUS',
  ),
  'cpu-realtime-runtime': text(
    'Realtime scheduling runtime in microseconds per realtime period (-1: no limit).',
    'MICROSECONDS',
  ),
  'cpu-realtime-period': text('Realtime scheduling period in microseconds.', 'MICROSECONDS'),
  memory: text(
    'Memory limit: a Kubernetes quantity (512Mi, 2G) or bytes; -1 for no limit. A bare number under 1Mi draws a warning (a missing unit).',
    'SIZE',
  ),
  'memory-reservation': text('Memory soft limit (reservation), a quantity such as 256Mi.', 'SIZE'),
  'memory-swap': text('Memory plus swap limit, a quantity; -1 for no limit.', 'SIZE'),
  swappiness: text('Memory swappiness, 0 to 100.', 'N'),
  'hugepage-limit': Flags.string({
    description: 'Hugepage limit per page size, SIZE=LIMIT such as 2MB=1Gi (repeat for several sizes).',
    helpValue: 'SIZE=LIMIT',
    helpGroup: 'RESOURCE',
    multiple: true,
  }),
  'blockio-class': text("Block I/O class (as configured in the runtime's blockio configuration).", 'CLASS'),
  'rdt-class': text('RDT (Intel RDT / resctrl) class.', 'CLASS'),
  'pids-limit': text('Maximum number of processes (-1: no limit).', 'N'),
  unified: Flags.string({
    description: 'A cgroup v2 file and its value, KEY=VALUE such as memory.high=1G (repeat for several).',
    helpValue: 'KEY=VALUE',
    helpGroup: 'RESOURCE',
    multiple: true,
  }),
};

export default class Update extends BaseCommand<typeof Update> {
  static override summary = "Change a running container's resources through NRI, now.";

  static override description = `Connects to the runtime as a short-lived plugin (by default 99-nrictl-update), finds the container in the runtime's Synchronize state, shows what changes (current -> new), asks for confirmation on a terminal (without one, or with CI set, it needs --yes and otherwise refuses with exit 2), sends one UpdateContainers request with only the fields given, and reports the runtime's answer. A second Synchronize then checks that the runtime shows the new values.

<container> is a full container id, a unique id prefix, pod/container or namespace/pod/container. Without it, on a terminal, a picker lists the runtime's containers.

--cpus is NRI's cpuset (which CPUs: 0-3,8), not a number of CPUs; for docker's meaning use --cpu-limit 1.5. Every value is checked before anything connects; a bad value exits 2 with nothing sent. An update the runtime does not apply exits 7.

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

  static override args = {
    container: Args.string({
      description: 'Container id, unique id prefix, pod/container or namespace/pod/container.',
      required: false,
    }),
  };

  static override flags = {
    socket: socketFlag,
    'plugin-name': pluginNameFlag('nrictl-update'),
    'plugin-index': pluginIndexFlag('99'),
    output: legacyOutputFlag(['text', 'json', 'yaml'] as const, 'text'),
    ...resourceFlags,
    'ignore-failure': Flags.boolean({
      description: "Set the update's ignore_failure: the runtime does not report it as failed if it cannot apply it.",
    }),
    ...confirmFlags,
    timeout: timeoutFlag,
    sim: simFlag,
  };

  public override async run(): Promise<void> {
    const { flags, args } = { flags: this.flags, args: (await this.parse(Update)).args };
    const change = parseResourceFlags(flags);
    if (isEmptyChange(change)) {
      throw usageError(
        `nothing to update: give at least one of ${RESOURCE_FLAG_NAMES.map((f) => `--${f}`).join(', ')}`,
      );
    }
    for (const w of unitWarnings(flags)) this.warning(w);
    const data = flags.output !== 'text';
    // Data output keeps stdout for the document; people's text goes to stderr then.
    const say = (s: string): void => void (data ? process.stderr : process.stdout).write(s);
    const format = flags.output === 'yaml' ? 'yaml' : 'json';
    const progress = connectProgress(targetLabel(flags));

    const sent = await sendToContainer({
      ...connectOptions(flags),
      query: args.container,
      dryRun: flags['dry-run'],
      yes: flags.yes,
      force: flags.force,
      pickMessage: 'Container to update',
      onProgress: progress.onProgress,
      onConnected: progress.stop,
      onWarning: (w) => this.warning(w),
      signal: this.stopSignal(),
      say,
      document: data ? (doc) => void process.stdout.write(renderDocument(doc, format)) : undefined,
      prepare: (t) => {
        const containerId = t.target.container.id ?? '';
        const current = t.target.container.linux?.resources;
        const resources = buildLinuxResources(change, current);
        const cpuLimit = describeCpuLimit(change);
        say(`${targetHeading('Update', t)}:\n`);
        say(formatDiff(diffResources(current, resources), cpuLimit ? { 'cpu.quota': cpuLimit } : {}));
        return {
          request: updateRequest(containerId, resources, flags['ignore-failure']),
          question: `Send this update to ${t.target.name}?`,
          refusal: `the runtime did not apply the update to ${containerLabel(t.target)}: it reported it as failed (NRI carries no reason; the runtime's log may say more, e.g. the container is gone or not running)`,
          afterwards: (connect) => verifyUpdate(connect, containerId, resources),
        };
      },
    });
    if (!sent) return;
    if (data) {
      const doc = {
        container: { id: sent.target.container.id ?? '', name: sent.target.name },
        applied: true,
        request: requestData(sent.request),
        verification: verificationData(sent.after),
      };
      process.stdout.write(renderDocument(doc, format));
    }
    say(`${chalk.green('Applied')}: the runtime accepted the update.\n`);
    say(describeVerification(sent.after));
  }
}

function verificationData(v: VerifyResult): unknown {
  switch (v.kind) {
    case 'checked':
      return {
        confirmed: v.confirmed.map((c) => c.path),
        differing: v.differing.map((c) => ({ field: c.path, shows: c.before ?? null, requested: c.after })),
      };
    case 'gone':
      return { error: 'the container is no longer listed' };
    default:
      return { error: v.error.message };
  }
}

function describeVerification(v: VerifyResult): string {
  switch (v.kind) {
    case 'checked':
      if (v.differing.length === 0)
        return `Confirmed by a new Synchronize: ${v.confirmed.length === 1 ? 'the field shows' : `all ${v.confirmed.length} fields show`} the new value.\n`;
      return `${chalk.yellow('Not confirmed')}: a new Synchronize still shows ${v.differing.map((c) => `${c.label} ${c.before ?? 'unset'} (requested ${c.after})`).join('; ')}. Some runtimes report the values they created the container with; check the container's cgroup.\n`;
    case 'gone':
      return `${chalk.yellow('Not confirmed')}: a new Synchronize no longer lists the container.\n`;
    default:
      return `${chalk.yellow('Not confirmed')}: could not take a second Synchronize: ${v.error.message}\n`;
  }
}
