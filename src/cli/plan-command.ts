// What update and evict share above the library: the flags that say where the container
// is and how to treat the operator, and the one way a plan is carried out: shown, asked
// about on a terminal, sent, and its outcome returned to print.
import { Args, Command } from '@oclif/core';
import { inCI, output, type Layout, type Output, type View } from '../output/index.js';
import type { PlanViews } from '../views/index.js';
import { BaseCommand } from './base-command.js';
import {
  confirmFlags,
  connectOptions,
  outputFlag,
  pluginIndexFlag,
  pluginNameFlag,
  simFlag,
  socketFlag,
  timeoutFlag,
  type ConnectFlags,
} from './flags.js';
import { connectProgress, targetLabel } from './progress.js';

/** A plan as src/control makes them (ControlPlan): confirmed, then sent once, always closed. */
export interface SendablePlan<O> {
  /** Resolves when sending may go ahead; rejects when the operator declined or cancelled. */
  confirm(): Promise<void>;
  send(): Promise<O>;
  close(): Promise<void>;
}

/** The <container> argument of update and evict. */
export const containerArg = Args.string({
  description: 'Container id, unique id prefix, pod/container or namespace/pod/container.',
  required: false,
});

/** The flags update and evict share; `name` is the transient plugin's default name. */
export const planFlags = (name: string) => ({
  socket: socketFlag,
  'plugin-name': pluginNameFlag(name),
  'plugin-index': pluginIndexFlag('99'),
  output: outputFlag(['table', 'json', 'yaml']),
  ...confirmFlags,
  timeout: timeoutFlag,
  sim: simFlag,
});

interface PlanFlags extends ConnectFlags {
  yes: boolean;
  'dry-run': boolean;
  force: boolean;
}

/** Both ends are a terminal and no CI system says otherwise: the operator can be asked. */
function canPrompt(env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(process.stdin.isTTY) && Boolean(process.stdout.isTTY) && !inCI(env);
}

export abstract class PlanCommand<T extends typeof Command> extends BaseCommand<T> {
  /** The shared flags, whatever else the command has. */
  private get shared(): PlanFlags {
    return this.flags as unknown as PlanFlags;
  }

  /** The library's ControlTarget: the connection, the container, the terminal, the signal. */
  protected planTarget(container: string | undefined) {
    const f = this.shared;
    const progress = connectProgress(targetLabel(f));
    return {
      ...connectOptions(f),
      container,
      terminal: canPrompt(),
      ask: !f.yes && !f['dry-run'],
      force: f.force,
      signal: this.signal,
      onProgress: progress.onProgress,
      onConnected: progress.stop,
      onWarning: (line: string) => this.warning(line),
    };
  }

  /**
   * Shows the plan, has it confirmed on a terminal (unless --yes), sends it and returns
   * the outcome; a dry run returns the plan. The plan is closed on every path.
   */
  protected async carryOut<P extends SendablePlan<O>, O>(plan: P, views: PlanViews<P, O>): Promise<Output> {
    try {
      if (this.shared['dry-run']) return this.narrated(output(plan, views.dryRun));
      await this.show(output(plan, views.plan));
      await plan.confirm();
      return this.narrated(output(await plan.send(), views.outcome));
    } finally {
      await plan.close();
    }
  }

  private get documentOnStdout(): boolean {
    return this.format === 'json' || this.format === 'yaml';
  }

  /** People's text now: on stdout, or on stderr when stdout is for the document. */
  private show<V>(out: Output<V>): Promise<void> {
    const text = peopleText(out.view, out.value, this.layout());
    if (!this.documentOnStdout) return this.write(text);
    process.stderr.write(text);
    return Promise.resolve();
  }

  /** The output to print; with -o json/yaml its people's text goes to stderr first. */
  private narrated<V>(out: Output<V>): Output<V> {
    if (this.documentOnStdout) process.stderr.write(peopleText(out.view, out.value, this.layout()));
    return out;
  }
}

function peopleText<V>(view: View<V>, value: V, layout: Layout): string {
  const text = view.text(value, layout);
  return text === '' || text.endsWith('\n') ? text : `${text}\n`;
}
