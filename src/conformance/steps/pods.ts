// Steps that make, stop and remove pods, each expecting the runtime to do it.
import type { cri } from '../../cri/index.js';
import type { CheckRun } from '../check-run.js';
import { CheckFailure } from '../errors.js';
import type { Step } from '../check.js';
import { mustSucceed } from './must-succeed.js';
import { said } from './said.js';

export const runPod = (
  alias: string,
  extra: Partial<cri.IPodSandboxConfig> = {},
  label = `RunPodSandbox ${alias}`,
): Step =>
  mustSucceed(
    label,
    (r) => `RunPodSandbox of pod ${r.podName(alias)}`,
    (r) => r.runPod(alias, extra),
  );

/** RunPodSandbox issued without waiting for it (its hook is to be held): `run:ALIAS`. */
export function startRunPod(alias: string, extra: Partial<cri.IPodSandboxConfig> = {}): Step {
  return {
    label: `RunPodSandbox ${alias} (not waited for)`,
    run: async (r) => r.start(`run:${alias}`, (unwaited) => unwaited.runPod(alias, extra)),
  };
}

/** The RunPodSandbox started by startRunPod succeeded. */
export function ranPod(alias: string): Step {
  return {
    label: `RunPodSandbox ${alias} returned`,
    run: async (r) => {
      const o = await r.outcome(`run:${alias}`);
      if (!o.ok)
        throw new CheckFailure(
          `RunPodSandbox of pod ${r.podName(alias)} to succeed once its hook returned`,
          said(o.error),
        );
    },
  };
}

export const stopPod = (alias: string): Step =>
  mustSucceed(
    `StopPodSandbox ${alias}`,
    (r) => `StopPodSandbox of pod ${r.podName(alias)}`,
    (r) => r.cri((c, o) => c.stopPodSandbox(r.pod(alias).id, o)),
  );

/** StopPodSandbox issued without waiting for it: `stop:ALIAS`. */
export function startStopPod(alias: string): Step {
  return {
    label: `StopPodSandbox ${alias} (not waited for)`,
    run: async (r) => {
      const id = r.pod(alias).id;
      r.start(`stop:${alias}`, (unwaited) => unwaited.cri((c, o) => c.stopPodSandbox(id, o)));
    },
  };
}

/** RemovePodSandbox issued without waiting for it: `remove:ALIAS`. */
export function startRemovePod(alias: string): Step {
  return {
    label: `RemovePodSandbox ${alias} (not waited for)`,
    run: async (r) => {
      const id = r.pod(alias).id;
      r.start(`remove:${alias}`, (unwaited) => unwaited.cri((c, o) => c.removePodSandbox(id, o)));
    },
  };
}

/** The call started under `key` succeeded; `what` names it in a failure (the pod by its name, not its alias). */
export function succeeded(key: string, what: (r: CheckRun) => string): Step {
  return {
    label: `${key} returned`,
    run: async (r) => {
      const o = await r.outcome(key);
      if (!o.ok) throw new CheckFailure(`${what(r)} to succeed once its hook returned`, said(o.error));
    },
  };
}

/** The StopPodSandbox or RemovePodSandbox started by startStopPod or startRemovePod succeeded. */
export const stoppedPod = (alias: string): Step =>
  succeeded(`stop:${alias}`, (r) => `StopPodSandbox of pod ${r.podName(alias)}`);
export const removedPod = (alias: string): Step =>
  succeeded(`remove:${alias}`, (r) => `RemovePodSandbox of pod ${r.podName(alias)}`);

export function removePod(alias: string): Step {
  return mustSucceed(
    `RemovePodSandbox ${alias}`,
    (r) => `RemovePodSandbox of pod ${r.podName(alias)}`,
    async (r) => {
      const id = r.pod(alias).id;
      await r.cri((c, o) => c.removePodSandbox(id, o));
      r.suite.registry.forgetPod(id);
    },
  );
}
