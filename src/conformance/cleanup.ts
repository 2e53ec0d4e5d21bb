// Everything a check made goes on every path: its plugins disarmed first (holds
// released, so that the runtime's pending calls finish, and no rule left to act on
// cleanup's own calls), the calls it left in flight awaited (each has its deadline), its
// pods stopped and removed and the run's label swept, and only then its plugins
// disconnected: the runtime sends them the teardown of the pods they watched, and a
// plugin gone before that answers it on a closed connection, which containerd counts as
// the plugin's fatal failure (and `nrictl plugins` and the exporter would read).
// What cannot be removed is listed with the command that removes it.
import { setTimeout as sleep } from 'node:timers/promises';
import { CriError } from '../cri/index.js';
import type { CheckRun } from './check-run.js';
import type { ConformanceReport, Leftover, NodeLookSummary } from './model.js';
import { describeFinding, removalCommand, settledLook } from './node-view.js';
import { RUN_LABEL, type SuiteScope } from './suite-scope.js';

export async function cleanUpCheck(r: CheckRun): Promise<void> {
  for (const p of r.plugins.values()) p.disarm();
  let t = performance.now();
  await boundedAll(r.inFlight(), r.timing.callMs);
  r.count('criMs', t);
  t = performance.now();
  // Not the pods the check already removed (its canaries, a RemovePodSandbox step): the registry forgot them.
  for (const pod of r.pods.values()) if (r.suite.registry.pods.has(pod.id)) await removePod(r.suite, pod.id);
  await sweepListed(r.suite);
  r.count('criMs', t);
  t = performance.now();
  await Promise.all([...r.plugins.values()].map((p) => p.close().catch(() => {})));
  r.count('nriMs', t);
}

export interface Swept {
  left: Leftover[];
  unchecked?: ConformanceReport['leftoversUnchecked'];
  beyondCri: NodeLookSummary;
}

/**
 * Removes every pod of the run still listed, then looks on the node for what CRI no
 * longer lists; returns what is left, with the commands that remove it. A runtime that
 * does not answer leaves the node's view: what the run made is found there all the same.
 */
export async function sweep(suite: SuiteScope): Promise<Swept> {
  const listed = await sweepListed(suite);
  const look = await settledLook(suite.node, suite.registry.ids, suite.timing.nodeSettleMs, sleep);
  if (!look.checked) return { ...listed, beyondCri: { checked: false, why: look.why } };
  // A pod CRI still lists is removed by its crictl command, which takes its processes too.
  const inCri = listed.unchecked ? new Set<string>() : new Set(listed.left.map((l) => l.id));
  const answering = listed.unchecked === undefined;
  for (const f of look.found)
    if (!inCri.has(f.id))
      listed.left.push({
        kind: 'node',
        id: f.id,
        name: describeFinding(f),
        command: removalCommand(f, { name: suite.runtimeName, answering }),
      });
  return { ...listed, beyondCri: { checked: true, limits: look.limits } };
}

async function sweepListed(suite: SuiteScope): Promise<Omit<Swept, 'beyondCri'>> {
  const label = { [RUN_LABEL]: suite.runId };
  const listPods = () => suite.cri.listPodSandbox({ labelSelector: label }, { timeoutMs: suite.timing.callMs });
  const unchecked = (err: unknown): NonNullable<Swept['unchecked']> => ({
    reason: `the runtime did not answer the last listing (${(err as Error).message})`,
    command: crictl(suite, `pods --label ${RUN_LABEL}=${suite.runId}`),
  });
  let pods;
  try {
    pods = (await listPods()).items;
  } catch (err) {
    // The runtime does not answer: what the run knows it made is all that can be listed.
    return {
      left: [...suite.registry.pods].map(([id, p]) => podLeftover(suite, id, p.name)),
      unchecked: unchecked(err),
    };
  }
  for (const p of pods) await removePod(suite, p.id ?? '');
  if (pods.length === 0) return { left: [] };
  const left: Leftover[] = [];
  try {
    for (const p of (await listPods()).items) left.push(podLeftover(suite, p.id ?? '', p.metadata?.name ?? ''));
    const ids = new Set(left.map((l) => l.id));
    const ctrs = (await suite.cri.listContainers({ labelSelector: label }, { timeoutMs: suite.timing.callMs }))
      .containers;
    for (const c of ctrs)
      if (!ids.has(c.podSandboxId ?? ''))
        left.push({
          kind: 'container',
          id: c.id ?? '',
          name: c.metadata?.name ?? '',
          command: crictl(suite, `rm -f ${c.id ?? ''}`),
        });
  } catch (err) {
    return { left, unchecked: unchecked(err) };
  }
  return { left };
}

async function removePod(suite: SuiteScope, id: string): Promise<void> {
  const o = { timeoutMs: suite.timing.callMs };
  try {
    await suite.cri.stopPodSandbox(id, o).catch((err: unknown) => {
      if (!(err instanceof CriError && err.code === 'not-found')) throw err;
    });
    await suite.cri.removePodSandbox(id, o);
    suite.registry.forgetPod(id);
  } catch {
    // listed by the sweep if it is still there
  }
}

function podLeftover(suite: SuiteScope, id: string, name: string): Leftover {
  return { kind: 'pod', id, name, command: crictl(suite, `rmp -f ${id}`) };
}

function crictl(suite: SuiteScope, args: string): string {
  return `crictl --runtime-endpoint unix://${suite.cri.socketPath} ${args}`;
}

async function boundedAll(promises: Promise<unknown>[], ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([Promise.allSettled(promises), new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}
