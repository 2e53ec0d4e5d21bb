// `nrictl update` and `nrictl evict`: the plan shown before the question, the dry run,
// and the outcome after sending. People's text and the documents of -o json/yaml.
import type {
  ControlPlan,
  EvictionOutcome,
  EvictionPlan,
  FieldChange,
  PlannedContainer,
  UpdateOutcome,
  UpdatePlan,
  VerifyResult,
} from '../control/index.js';
import { chalk, type View } from '../output/index.js';
import { shortId } from '../api/short-id.js';

/** The views of one kind of plan: shown before sending, as a dry run, and the outcome. */
export interface PlanViews<P, O> {
  plan: View<P>;
  dryRun: View<P>;
  outcome: View<O>;
}

/** Aligned lines: "  cpuset CPUs    CPUs 2,3 -> CPUs 0,1,2,3". */
export function formatDiff(changes: readonly FieldChange[], notes: Readonly<Record<string, string>> = {}): string {
  const width = Math.max(0, ...changes.map((c) => c.label.length));
  return changes
    .map((c) => {
      const note = notes[c.path] ? ` (${notes[c.path]})` : '';
      const tail = c.unchanged ? ' (unchanged)' : '';
      return `  ${c.label.padEnd(width)}  ${c.before ?? 'unset'} -> ${c.after}${note}${tail}\n`;
    })
    .join('');
}

/** "Update shop/redis-0/redis (c2c3d4e5f6a7), running on containerd 2.0.0 (NRI v0.8)". */
function heading(verb: string, plan: ControlPlan<unknown>): string {
  const runtime = plan.runtime;
  const on = runtime ? ` on ${runtime.label} (${runtime.vintage})` : '';
  return `${verb} ${plan.container.name} (${shortId(plan.container.id)}), ${plan.container.state.toLowerCase()}${on}`;
}

// Why, in src/runtime/README.md (Evictions): the Go adaptation never passes an eviction on.
const EVICTION_DROPPED =
  'NRI runtimes accept an eviction and drop it (the Go NRI adaptation in containerd and CRI-O passes none on; NRI v0.6 and older ignore them): the container will keep running. To stop it, use crictl stop or kubectl delete pod.';

const updatePreview = (p: UpdatePlan): string => `${heading('Update', p)}:\n${formatDiff(p.changes, p.notes)}`;

// Part of the preview, before the question: people decide knowing it.
const evictionPreview = (p: EvictionPlan): string =>
  `${heading('Evict', p)}\n  reason: ${p.reason}\n${chalk.yellow('Warning')}: ${EVICTION_DROPPED}\n`;

function container(c: PlannedContainer): { id: string; name: string } {
  return { id: c.id, name: c.name };
}

/** The plan as shown before sending; the runtime's danger is said here only when --force sends anyway. */
function planView<P extends ControlPlan<unknown>>(preview: (p: P) => string, details: (p: P) => object): View<P> {
  return {
    text: (p) => preview(p) + (p.unsafe && p.force ? `Warning: ${p.unsafe}; sending anyway (--force).\n` : ''),
    data: (p) => ({
      action: p.action,
      container: { ...container(p.container), state: p.container.state },
      ...(p.runtime ? { runtime: { name: p.runtime.name, version: p.runtime.version, label: p.runtime.label } } : {}),
      ...details(p),
      request: p.requestData,
      ...(p.unsafe ? { unsafe: p.unsafe } : {}),
    }),
  };
}

/** A dry run: the preview and what would stop the send; the document is the exact request. */
function dryRunView<P extends ControlPlan<unknown>>(preview: (p: P) => string): View<P> {
  return {
    text: (p) =>
      preview(p) +
      (p.unsafe ? `Warning: ${p.unsafe}; only --force would send it.\n` : '') +
      'Dry run: nothing was sent.',
    data: (p) => p.requestData,
  };
}

function verificationText(v: VerifyResult): string {
  switch (v.kind) {
    case 'checked':
      if (v.differing.length === 0)
        return `Confirmed by a new Synchronize: ${v.confirmed.length === 1 ? 'the field shows' : `all ${v.confirmed.length} fields show`} the new value.`;
      return `${chalk.yellow('Not confirmed')}: a new Synchronize still shows ${v.differing.map((c) => `${c.label} ${c.before ?? 'unset'} (requested ${c.after})`).join('; ')}. Some runtimes report the values they created the container with; check the container's cgroup.`;
    case 'gone':
      return `${chalk.yellow('Not confirmed')}: a new Synchronize no longer lists the container.`;
    default:
      return `${chalk.yellow('Not confirmed')}: could not take a second Synchronize: ${v.error.message}`;
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

export const updateViews: PlanViews<UpdatePlan, UpdateOutcome> = {
  plan: planView(updatePreview, (p) => ({
    changes: p.changes.map((c) => ({ field: c.path, current: c.before ?? null, new: c.after })),
  })),
  dryRun: dryRunView(updatePreview),
  outcome: {
    text: (o) => `${chalk.green('Applied')}: the runtime accepted the update.\n${verificationText(o.verification)}`,
    data: (o) => ({
      container: container(o.container),
      applied: true,
      request: o.requestData,
      verification: verificationData(o.verification),
    }),
  },
};

function afterwardsText(o: EvictionOutcome): string {
  const a = o.afterwards;
  if ('error' in a) return `Could not take a second Synchronize to see the outcome: ${a.error}`;
  if (a.listed)
    return `A new Synchronize still lists the container (${a.state.toLowerCase()}): as expected, the runtime did not act on the eviction.`;
  return 'A new Synchronize no longer lists the container.';
}

export const evictionViews: PlanViews<EvictionPlan, EvictionOutcome> = {
  plan: planView(evictionPreview, (p) => ({ reason: p.reason })),
  dryRun: dryRunView(evictionPreview),
  outcome: {
    text: (o) => `${chalk.green('Sent')}: the runtime accepted the eviction request.\n${afterwardsText(o)}`,
    data: (o) => ({ container: container(o.container), sent: true, request: o.requestData, afterwards: o.afterwards }),
  },
};
