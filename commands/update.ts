// Start-up: only what the flags need is imported here; run() loads the control layer
// (the plugin SDK, the protobuf bindings, the prompts) and the renderers (see validate.ts).
import { Args, Flags } from '@oclif/core';
import chalk from 'chalk';
import { BaseCommand } from '../src/cli/base-command.js';
import { usageError } from '../src/cli/errors.js';
import { outputFlag, pluginIndexFlag, pluginNameFlag, socketFlag } from '../src/cli/flags.js';
import type { ResourceChange, VerifyResult } from '../src/control/index.js';
import { confirmFlags, resourceFlags, sendFlagOptions } from '../src/control/cli-flags.js';
import { simFlag } from '../src/observe/cli-flags.js';

export default class Update extends BaseCommand<typeof Update> {
  static override summary = 'Change a running container\'s resources through NRI, now.';

  static override description = `Connects to the runtime as a short-lived plugin (by default 99-nrictl-update), finds the container in the runtime's Synchronize state, shows what changes (current -> new), asks for confirmation on a terminal, sends one UpdateContainers request with only the fields given, and reports the runtime's answer. A second Synchronize then checks that the runtime shows the new values.

<container> is a full container id, a unique id prefix, pod/container or namespace/pod/container. Without it, on a terminal, a picker lists the runtime's containers.

--cpus is NRI's cpuset (which CPUs: 0-3,8), not a number of CPUs; for docker's meaning use --cpu-limit 1.5. Every value is checked before anything connects; a bad value exits 2 with nothing sent. An update the runtime does not apply exits 7.`;

  static override examples = [
    { description: 'Pin a container to CPUs 0-3 with 2Gi of memory', command: '<%= config.bin %> <%= command.id %> shop/redis-0/redis --cpus 0-3 --memory 2Gi' },
    { description: 'Give one and a half CPUs\' worth of time, by id prefix, without asking', command: '<%= config.bin %> <%= command.id %> c2c3 --cpu-limit 1.5 --yes' },
    { description: 'See the exact request without sending it', command: '<%= config.bin %> <%= command.id %> c2c3 --memory 1Gi --dry-run -o json' },
    { description: 'Try it on the embedded simulator, picking the container', command: '<%= config.bin %> <%= command.id %> --sim examples/demo.yaml --cpus 0-1' },
  ];

  static override args = {
    container: Args.string({ description: 'Container id, unique id prefix, pod/container or namespace/pod/container.', required: false }),
  };

  static override flags = {
    socket: socketFlag,
    'plugin-name': pluginNameFlag('nrictl-update'),
    'plugin-index': pluginIndexFlag('99'),
    output: outputFlag(['text', 'json', 'yaml'] as const, 'text'),
    ...resourceFlags,
    'ignore-failure': Flags.boolean({ description: 'Set the update\'s ignore_failure: the runtime does not report it as failed if it cannot apply it.' }),
    ...confirmFlags,
    sim: simFlag,
  };

  public async run(): Promise<void> {
    const { flags, args } = { flags: this.flags, args: (await this.parse(Update)).args };
    const {
      RESOURCE_FLAG_NAMES, buildLinuxResources, containerLabel, describeCpuLimit, diffResources, formatDiff, isEmptyChange,
      parseResourceFlags, requestData, sendToContainer, targetHeading, toControlUserError, updateRequest, verifyUpdate,
    } = await import('../src/control/index.js');
    const { renderDocument } = await import('../src/render/format.js');
    let change: ResourceChange;
    try {
      change = parseResourceFlags(flags);
    } catch (err) {
      throw toControlUserError(err);
    }
    if (isEmptyChange(change)) {
      throw usageError(`nothing to update: give at least one of ${RESOURCE_FLAG_NAMES.map((f) => `--${f}`).join(', ')}`);
    }
    const data = flags.output !== 'text';
    // Data output keeps stdout for the document; people's text goes to stderr then.
    const say = (s: string): void => void (data ? process.stderr : process.stdout).write(s);
    const format = flags.output === 'yaml' ? 'yaml' : 'json';

    if (!flags.sim) await this.warnIfSocketExposed(flags.socket);
    const sent = await sendToContainer({
      ...sendFlagOptions(flags, args.container),
      pickMessage: 'Container to update',
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
      const doc = { container: { id: sent.target.container.id ?? '', name: sent.target.name }, applied: true, request: requestData(sent.request), verification: verificationData(sent.after) };
      process.stdout.write(renderDocument(doc, format));
    }
    say(`${chalk.green('Applied')}: the runtime accepted the update.\n`);
    say(describeVerification(sent.after));
  }
}

function verificationData(v: VerifyResult): unknown {
  switch (v.kind) {
    case 'checked':
      return { confirmed: v.confirmed.map((c) => c.path), differing: v.differing.map((c) => ({ field: c.path, shows: c.before ?? null, requested: c.after })) };
    case 'gone':
      return { error: 'the container is no longer listed' };
    default:
      return { error: v.error.message };
  }
}

function describeVerification(v: VerifyResult): string {
  switch (v.kind) {
    case 'checked':
      if (v.differing.length === 0) return `Confirmed by a new Synchronize: ${v.confirmed.length === 1 ? 'the field shows' : `all ${v.confirmed.length} fields show`} the new value.\n`;
      return `${chalk.yellow('Not confirmed')}: a new Synchronize still shows ${v.differing.map((c) => `${c.label} ${c.before ?? 'unset'} (requested ${c.after})`).join('; ')}. Some runtimes report the values they created the container with; check the container's cgroup.\n`;
    case 'gone':
      return `${chalk.yellow('Not confirmed')}: a new Synchronize no longer lists the container.\n`;
    default:
      return `${chalk.yellow('Not confirmed')}: could not take a second Synchronize: ${v.error.message}\n`;
  }
}
