// Calls the runtime must refuse, and what a refusal must leave behind.
import type { cri } from '../../cri/index.js';
import type { CheckRun } from '../check-run.js';
import { CheckFailure } from '../errors.js';
import type { Step } from '../check.js';
import type { KnownGap } from '../model.js';
import { create, type ContainerOpts } from './containers.js';
import { refusal, said, words } from './said.js';
import { heldPod } from './state.js';

/** RunPodSandbox must fail (with `containing` in its words, if given) and return no id. */
export function runPodFails(alias: string, opts: { containing?: string; config?: cri.IPodSandboxConfig } = {}): Step {
  return {
    label: `RunPodSandbox ${alias} fails`,
    run: async (r) => {
      const config = opts.config ?? r.podConfig(alias);
      let id: string;
      try {
        id = (await r.cri((c, o) => c.runPodSandbox(config, '', o))).podSandboxId;
      } catch (err) {
        refusal(err, `RunPodSandbox of pod ${r.podName(alias)}`);
        if (opts.containing !== undefined && !words(err).includes(opts.containing))
          throw new CheckFailure(`RunPodSandbox to fail with the plugin's error "${opts.containing}"`, said(err));
        return;
      }
      r.adoptPod(alias, id, config);
      throw new CheckFailure(`RunPodSandbox of pod ${r.podName(alias)} to fail`, `it succeed with pod ${id}`);
    },
  };
}

/** CreateContainer in pod `pod` must fail and return no id; a container made anyway is recorded for cleanup. */
export function createFails(
  alias: string,
  pod: string,
  opts: ContainerOpts & { known?: KnownGap[]; containing?: string } = {},
): Step {
  return {
    label: `CreateContainer ${alias} fails`,
    run: async (r) => {
      let id: string;
      try {
        id = await create(r, alias, pod, opts);
      } catch (err) {
        refusal(err, `CreateContainer of ${alias}`);
        if (opts.containing !== undefined && !words(err).includes(opts.containing))
          throw new CheckFailure(`CreateContainer to fail with the plugin's error "${opts.containing}"`, said(err));
        return;
      }
      throw new CheckFailure(
        `CreateContainer of ${alias} in pod ${r.podName(pod)} to fail`,
        `it create container ${id}`,
        opts.known,
      );
    },
  };
}

/**
 * While a RunPodSandbox hook is held: CreateContainer into the pod id the hook saw must
 * fail and return no id. One answered within the window is judged now; one that waits
 * for the hook is noted, and judged by `earlyCreateRefused` once the hook returned: a
 * runtime that waits and then refuses keeps the clause (critest judges the same way).
 */
export function createRefusedWhileHeld(alias: string, pod: string): Step {
  return {
    label: `CreateContainer ${alias} into the held pod fails`,
    run: async (r) => {
      const podId = heldPod(r);
      const sandbox = r.podConfig(pod);
      const config = r.containerConfig(alias, sandbox);
      r.start(`early:${alias}`, (unwaited) => unwaited.cri((c, o) => c.createContainer(podId, config, sandbox, o)));
      const by = performance.now() + r.timing.windowMs;
      while (!r.ended(`early:${alias}`) && performance.now() < by) await r.wait(Math.min(10, r.timing.windowMs));
      if (r.ended(`early:${alias}`)) await judgeEarlyCreate(r, alias, pod, '');
      else
        r.note(
          `CreateContainer into pod ${r.podName(pod)} had no answer within ${r.timing.windowMs} ms: it waits for the RunPodSandbox hook, and was judged once the hook returned`,
        );
    },
  };
}

/** The CreateContainer of `createRefusedWhileHeld`, once the hook returned: it must have failed. */
export function earlyCreateRefused(alias: string, pod: string): Step {
  return {
    label: `CreateContainer ${alias}, issued while the hook was held, failed`,
    run: (r) => judgeEarlyCreate(r, alias, pod, 'wait for the hook, then '),
  };
}

async function judgeEarlyCreate(r: CheckRun, alias: string, pod: string, waited: string): Promise<void> {
  const o = await r.outcome<cri.CreateContainerResponse>(`early:${alias}`);
  if (!o.ok) return refusal(o.error, `CreateContainer into pod ${r.podName(pod)}`);
  r.containers.set(alias, { alias, id: o.value.containerId, pod });
  r.suite.registry.saw(o.value.containerId);
  throw new CheckFailure(
    `CreateContainer into pod ${r.podName(pod)} to fail while its RunPodSandbox hook runs`,
    `it ${waited}create container ${o.value.containerId}`,
  );
}

/** A call that must fail (an invalid request). */
export function callFails(what: string, call: (r: CheckRun) => Promise<unknown>): Step {
  return {
    label: `${what} fails`,
    run: async (r) => {
      try {
        await call(r);
      } catch (err) {
        refusal(err, what);
        return;
      }
      throw new CheckFailure(`${what} to fail`, 'it succeed');
    },
  };
}

/** A call CRI lets succeed or fail (an idempotent teardown of something unknown): noted either way. */
export function callMayFail(what: string, call: (r: CheckRun) => Promise<unknown>): Step {
  return {
    label: what,
    run: async (r) => {
      try {
        await call(r);
        r.note(`${what} succeeded`);
      } catch (err) {
        refusal(err, what);
        r.note(`${what} failed (${said(err)})`);
      }
    },
  };
}

/**
 * StopPodSandbox or RemovePodSandbox of a pod whose plugin errs in that hook: an error
 * the call hands back is tolerated (whether it should is unsettled in the draft's review),
 * noted; the teardown is judged by what follows.
 */
export function teardownTolerated(verb: 'StopPodSandbox' | 'RemovePodSandbox', alias: string): Step {
  return {
    label: `${verb} ${alias}, an error tolerated`,
    run: async (r) => {
      const id = r.pod(alias).id;
      try {
        await r.cri((c, o) => (verb === 'StopPodSandbox' ? c.stopPodSandbox(id, o) : c.removePodSandbox(id, o)));
      } catch (err) {
        r.note(
          `${verb} of pod ${r.podName(alias)} returned an error (${said(err)}); the teardown is judged by what followed`,
        );
      }
    },
  };
}
