// Calls the runtime must refuse, and what a refusal must leave behind.
import type { cri } from '../../cri/index.js';
import type { CheckRun } from '../check-run.js';
import { CheckFailure } from '../errors.js';
import type { KnownGap, Step } from '../model.js';
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
        refusal(err, `RunPodSandbox of pod ${alias}`);
        if (opts.containing !== undefined && !words(err).includes(opts.containing))
          throw new CheckFailure(`RunPodSandbox to fail with the plugin's error "${opts.containing}"`, said(err));
        return;
      }
      r.adoptPod(alias, id, config);
      throw new CheckFailure(`RunPodSandbox of pod ${alias} to fail`, `it succeed with pod ${id}`);
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
        `CreateContainer of ${alias} in pod ${pod} to fail`,
        `it create container ${id}`,
        opts.known,
      );
    },
  };
}

/**
 * While a RunPodSandbox hook is held: CreateContainer into the pod id the hook saw must
 * fail at once. One that waits for the hook and is let through afterwards is a failure
 * too (the runtime knew the pod before its hook returned); it is awaited by the cleanup.
 */
export function createRefusedWhileHeld(alias: string, pod: string): Step {
  return {
    label: `CreateContainer ${alias} into the held pod fails`,
    run: async (r) => {
      const podId = heldPod(r);
      const config = r.containerConfig(alias);
      const sandbox = r.podConfig(pod);
      r.start(`early:${alias}`, () => r.cri((c, o) => c.createContainer(podId, config, sandbox, o)));
      const by = performance.now() + r.timing.windowMs;
      while (!r.ended(`early:${alias}`) && performance.now() < by) await r.wait(Math.min(10, r.timing.windowMs));
      if (!r.ended(`early:${alias}`))
        throw new CheckFailure(
          `CreateContainer into pod ${pod} to fail while its RunPodSandbox hook runs`,
          `it wait ${r.timing.windowMs} ms without an answer (the runtime knows the pod before its hook returned)`,
        );
      const o = await r.outcome<cri.CreateContainerResponse>(`early:${alias}`);
      if (o.ok) {
        r.containers.set(alias, { alias, id: o.value.containerId, pod });
        throw new CheckFailure(
          `CreateContainer into pod ${pod} to fail while its RunPodSandbox hook runs`,
          `it create container ${o.value.containerId}`,
        );
      }
      refusal(o.error, `CreateContainer into pod ${pod}`);
    },
  };
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

/** A teardown call whose failure is tolerated (a plugin's error may or may not be handed back): noted. */
export function tolerated(what: string, call: (r: CheckRun) => Promise<unknown>): Step {
  return {
    label: what,
    run: async (r) => {
      try {
        await call(r);
      } catch (err) {
        r.note(`${what} returned an error (${said(err)}); the teardown is judged by what followed`);
      }
    },
  };
}
