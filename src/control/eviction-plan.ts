// `nrictl evict` below the command line: one ContainerEviction with the reason given,
// and after sending, whether the runtime still lists the container (it will: NRI
// runtimes drop evictions, see src/runtime/README.md, Evictions).
import { containerStateName } from '../output/index.js';
import { ControlInputError } from './errors.js';
import { ControlPlan, openPlanTarget, type ControlTarget, type PlannedContainer } from './plan.js';
import { evictionRequest } from './request.js';
import type { Target } from './target.js';
import { containerStillListed, type Reconnect } from './verify.js';

/** What a second Synchronize showed after the eviction. */
export type EvictionAfterwards = { listed: true; state: string } | { listed: false } | { error: string };

export interface EvictionOutcome {
  container: PlannedContainer;
  requestData: unknown;
  afterwards: EvictionAfterwards;
}

export class EvictionPlan extends ControlPlan<EvictionOutcome> {
  readonly action = 'evict';

  constructor(
    opened: Target,
    target: ControlTarget,
    readonly reason: string,
  ) {
    super(opened, target, evictionRequest(opened.target.container.id ?? '', reason));
  }

  protected get question(): string {
    return `Evict ${this.container.name}?`;
  }

  protected get refusal(): string {
    return `the runtime reported the eviction request for ${this.label} as failed`;
  }

  protected async afterwards(connect: Reconnect): Promise<EvictionOutcome> {
    const after = await containerStillListed(connect, this.container.id);
    const afterwards: EvictionAfterwards =
      after instanceof Error
        ? { error: after.message }
        : after
          ? { listed: true, state: containerStateName(after.state) }
          : { listed: false };
    return { container: this.container, requestData: this.requestData, afterwards };
  }
}

/** Connects, finds the container (or lets the operator pick it) and plans its eviction. */
export async function planEviction(target: ControlTarget, reason: string | undefined): Promise<EvictionPlan> {
  if (reason === undefined) {
    throw new ControlInputError(
      '--reason',
      '--reason is required: say why the container is evicted, e.g. --reason "leaking memory, INC-1234"',
    );
  }
  const why = reason.trim();
  if (why === '') throw new ControlInputError('--reason', '--reason is empty: say why the container is evicted');
  const opened = await openPlanTarget(target, 'evict');
  return new EvictionPlan(opened, target, why);
}
