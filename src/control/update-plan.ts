// `nrictl update` below the command line: what changes in the container's resources,
// current -> new, and after sending, whether a second Synchronize shows the new values.
import type { nri } from '../api/index.js';
import { diffResources, type FieldChange } from './diff.js';
import { ControlInputError } from './errors.js';
import { ControlPlan, openPlanTarget, type ControlTarget, type PlannedContainer } from './plan.js';
import { updateRequest } from './request.js';
import {
  buildLinuxResources,
  describeCpuLimit,
  isEmptyChange,
  RESOURCE_FLAG_NAMES,
  type ResourceChange,
} from './resource-flags.js';
import type { Target } from './target.js';
import { verifyUpdate, type Reconnect, type VerifyResult } from './verify.js';

export interface UpdateChange {
  resources: ResourceChange;
  /** Set the update's ignore_failure: the runtime does not report it as failed if it cannot apply it. */
  ignoreFailure: boolean;
}

export interface UpdateOutcome {
  container: PlannedContainer;
  requestData: unknown;
  verification: VerifyResult;
}

export class UpdatePlan extends ControlPlan<UpdateOutcome> {
  readonly action = 'update';
  /** current -> new for every field the update sets. */
  readonly changes: FieldChange[];
  /** What a field's new value stands for, by path: --cpu-limit 1.5 is the quota of "1.5 CPUs". */
  readonly notes: Readonly<Record<string, string>>;

  constructor(
    opened: Target,
    target: ControlTarget,
    private readonly resources: nri.ILinuxResources,
    change: UpdateChange,
  ) {
    super(opened, target, updateRequest(opened.target.container.id ?? '', resources, change.ignoreFailure));
    this.changes = diffResources(opened.target.container.linux?.resources, resources);
    const cpuLimit = describeCpuLimit(change.resources);
    this.notes = cpuLimit ? { 'cpu.quota': cpuLimit } : {};
  }

  protected get question(): string {
    return `Send this update to ${this.container.name}?`;
  }

  protected get refusal(): string {
    return `the runtime did not apply the update to ${this.label}: it reported it as failed (NRI carries no reason; the runtime's log may say more, e.g. the container is gone or not running)`;
  }

  protected async afterwards(connect: Reconnect): Promise<UpdateOutcome> {
    const verification = await verifyUpdate(connect, this.container.id, this.resources);
    return { container: this.container, requestData: this.requestData, verification };
  }
}

/**
 * Connects, finds the container (or lets the operator pick it) and plans the update:
 * only the fields the change sets. An empty change is refused before connecting.
 */
export async function planUpdate(target: ControlTarget, change: UpdateChange): Promise<UpdatePlan> {
  if (isEmptyChange(change.resources)) {
    throw new ControlInputError(
      '',
      `nothing to update: give at least one of ${RESOURCE_FLAG_NAMES.map((f) => `--${f}`).join(', ')}`,
    );
  }
  const opened = await openPlanTarget(target, 'update');
  try {
    const resources = buildLinuxResources(change.resources, opened.target.container.linux?.resources);
    return new UpdatePlan(opened, target, resources, change);
  } catch (err) {
    await opened.session.close();
    throw err;
  }
}
