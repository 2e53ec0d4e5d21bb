// Pod resource updates (CRI UpdatePodSandboxResources; NRI UpdatePodSandbox and
// PostUpdatePodSandbox): the value sets critest uses, the calls, and what must follow.
import { getOptionalInt64, getOptionalUInt64, type nri } from '../../api/index.js';
import type { cri } from '../../cri/index.js';
import type { CheckRun } from '../check-run.js';
import { CheckFailure, CheckSkip } from '../errors.js';
import type { Step } from '../check.js';
import type { KnownGap } from '../model.js';
import { runPod } from './pods.js';
import { refusal, said, words } from './said.js';

const MiB = 1024 * 1024;
const PERIOD = 100_000;

export interface PodResources {
  overhead: cri.ILinuxContainerResources;
  resources: cri.ILinuxContainerResources;
}

const set = (shares: number, quota: number, mib: number): cri.ILinuxContainerResources => ({
  cpuShares: shares,
  cpuQuota: quota,
  cpuPeriod: PERIOD,
  memoryLimitInBytes: mib * MiB,
});

/** critest's three value sets (nri-contract.md, I). */
export const INITIAL: PodResources = { overhead: set(10, 5000, 64), resources: set(256, 25000, 512) };
export const UPDATED: PodResources = { overhead: set(20, 10000, 128), resources: set(512, 50000, 1024) };
export const RETRIED: PodResources = { overhead: set(30, 15000, 192), resources: set(768, 75000, 1536) };

const NAMES = new Map<PodResources, string>([
  [INITIAL, 'the initial values'],
  [UPDATED, 'the updated values'],
  [RETRIED, 'the retried values'],
]);

/** "shares 512, quota 50000, period 100000, memory 1024 MiB" */
function show(r: cri.ILinuxContainerResources | undefined): string {
  if (!r) return 'none';
  return `shares ${r.cpuShares ?? 0}, quota ${r.cpuQuota ?? 0}, period ${r.cpuPeriod ?? 0}, memory ${Math.round((r.memoryLimitInBytes ?? 0) / MiB)} MiB`;
}

function fromNri(r: nri.ILinuxResources | null | undefined): cri.ILinuxContainerResources | undefined {
  if (!r) return undefined;
  return {
    cpuShares: getOptionalUInt64(r.cpu?.shares) ?? 0,
    cpuQuota: getOptionalInt64(r.cpu?.quota) ?? 0,
    cpuPeriod: getOptionalUInt64(r.cpu?.period) ?? 0,
    memoryLimitInBytes: getOptionalInt64(r.memory?.limit) ?? 0,
  };
}

function same(a: cri.ILinuxContainerResources | undefined, b: cri.ILinuxContainerResources): boolean {
  return show(a) === show(b);
}

export const runPodWith = (alias: string, values: PodResources): Step =>
  runPod(
    alias,
    { linux: { overhead: values.overhead, resources: values.resources } },
    `RunPodSandbox ${alias} with pod resources`,
  );

function update(r: CheckRun, alias: string, values: PodResources) {
  return r.cri((c, o) => c.updatePodSandboxResources(r.pod(alias).id, values, o));
}

export function updatePod(alias: string, values: PodResources): Step {
  return {
    label: `UpdatePodSandboxResources ${alias} to ${NAMES.get(values)}`,
    run: async (r) => {
      try {
        await update(r, alias, values);
      } catch (err) {
        throw new CheckFailure(
          `UpdatePodSandboxResources of pod ${r.podName(alias)} to ${NAMES.get(values)} to succeed`,
          said(err),
        );
      }
    },
  };
}

/** The update fails, and its error carries the plugin's words. */
export function updatePodFails(alias: string, values: PodResources, containing: string): Step {
  return {
    label: `UpdatePodSandboxResources ${alias} fails`,
    run: async (r) => {
      try {
        await update(r, alias, values);
      } catch (err) {
        refusal(err, `UpdatePodSandboxResources of pod ${r.podName(alias)}`);
        if (!words(err).includes(containing))
          throw new CheckFailure(
            `UpdatePodSandboxResources to fail with the plugin's error "${containing}"`,
            said(err),
          );
        return;
      }
      throw new CheckFailure(
        `UpdatePodSandboxResources of pod ${r.podName(alias)} to fail with the plugin's error`,
        'it succeed',
      );
    },
  };
}

/** The plugin already had `n` UpdatePodSandbox for the pod when the call returned, the last with these values, name and uid. */
export function expectUpdateRelayed(index: string, alias: string, values: PodResources, n: number): Step {
  return {
    label: `plugin ${index} got UpdatePodSandbox of ${alias}`,
    run: async (r) => {
      // No settle: the event is synchronous, it must be there when the call returned.
      const got = r.podEvents(index, alias).filter((s) => s.event === 'UpdatePodSandbox');
      if (got.length !== n)
        throw new CheckFailure(
          `${n} UpdatePodSandbox of pod ${r.podName(alias)} by the time the CRI call returned`,
          `${got.length}`,
        );
      const last = got[got.length - 1];
      const pod = r.pod(alias).config.metadata;
      if (last.podName !== pod?.name || last.podUid !== pod?.uid)
        throw new CheckFailure(`UpdatePodSandbox to carry the pod's name and uid`, `${last.podName}/${last.podUid}`);
      if (!same(fromNri(last.resources), values.resources) || !same(fromNri(last.overhead), values.overhead))
        throw new CheckFailure(
          `UpdatePodSandbox with resources (${show(values.resources)}) and overhead (${show(values.overhead)})`,
          `resources (${show(fromNri(last.resources))}) and overhead (${show(fromNri(last.overhead))})`,
        );
    },
  };
}

/** Exactly `n` PostUpdatePodSandbox for the pod (waited for, then counted once everything arrived). */
export function expectPostUpdates(index: string, alias: string, n: number, known: KnownGap[]): Step {
  return {
    label: `plugin ${index} got ${n} PostUpdatePodSandbox of ${alias}`,
    run: async (r) => {
      const of = (s: { event: string; podName: string; podUid: string }) =>
        s.event === 'PostUpdatePodSandbox' && r.isPod(s, alias);
      // Sent before the update call returned: once the canary arrived, it has too.
      await r.settle();
      const count = r.podEvents(index, alias).filter(of).length;
      if (count !== n)
        throw new CheckFailure(
          `${n} PostUpdatePodSandbox of pod ${r.podName(alias)}`,
          count === 0 ? 'none' : `${count}`,
          known,
        );
    },
  };
}

/** What PodSandboxStatus's verbose info says is applied: containerd's `overhead` and `resources` keys. */
async function applied(r: CheckRun, alias: string): Promise<PodResources | undefined> {
  const s = await r.cri((c, o) => c.podSandboxStatus(r.pod(alias).id, true, o), false);
  let info: { overhead?: { linux?: GoResources }; resources?: { linux?: GoResources } };
  try {
    info = JSON.parse(s.info?.info ?? '{}') as typeof info;
  } catch {
    return undefined;
  }
  if (!info.resources?.linux || !info.overhead?.linux) return undefined;
  return { overhead: fromGo(info.overhead.linux), resources: fromGo(info.resources.linux) };
}

interface GoResources {
  cpu_shares?: number;
  cpu_quota?: number;
  cpu_period?: number;
  memory_limit_in_bytes?: number;
}

function fromGo(g: GoResources): cri.ILinuxContainerResources {
  return {
    cpuShares: g.cpu_shares ?? 0,
    cpuQuota: g.cpu_quota ?? 0,
    cpuPeriod: g.cpu_period ?? 0,
    memoryLimitInBytes: g.memory_limit_in_bytes ?? 0,
  };
}

/**
 * The pod's applied values are these. A runtime that does not report them: `essential`
 * skips the check (what it is about cannot be seen), else a note says it was not checked.
 */
export function expectApplied(alias: string, values: PodResources, essential = false): Step {
  return {
    label: `pod ${alias} has ${NAMES.get(values)}`,
    run: async (r) => {
      const now = await applied(r, alias);
      if (!now) {
        const why =
          "the runtime does not report a pod's applied resources (PodSandboxStatus verbose info has no overhead and resources)";
        if (essential) throw new CheckSkip(why);
        r.note(`applied values not checked: ${why}`);
        return;
      }
      if (!same(now.resources, values.resources) || !same(now.overhead, values.overhead))
        throw new CheckFailure(
          `pod ${r.podName(alias)} to have ${NAMES.get(values)} applied (resources ${show(values.resources)})`,
          `resources ${show(now.resources)}, overhead ${show(now.overhead)}`,
        );
    },
  };
}

/** The late plugin's Synchronize carried the pod with these values as its pod resources and overhead. */
export function expectSyncedPodResources(index: string, alias: string, values: PodResources): Step {
  return {
    label: `plugin ${index} synchronized with ${alias}'s ${NAMES.get(values)}`,
    run: async (r) => {
      const sync = r.plugin(index).seen.find((s) => s.event === 'Synchronize');
      const pod = sync?.syncPods?.find((p) => p.id === r.pod(alias).id);
      if (!pod)
        throw new CheckFailure(`plugin ${index}'s Synchronize to list pod ${r.podName(alias)}`, 'it without it');
      const res = fromNri(pod.linux?.podResources);
      if (!same(res, values.resources))
        throw new CheckFailure(
          `pod ${r.podName(alias)} synchronized with ${NAMES.get(values)} (resources ${show(values.resources)})`,
          show(res),
        );
    },
  };
}
