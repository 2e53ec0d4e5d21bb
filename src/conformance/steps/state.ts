// Expectations on what the runtime reports over CRI: listings and statuses.
import { CriContainerState, CriPodState } from '../../cri/index.js';
import type { CheckRun } from '../check-run.js';
import { CheckFailure, CheckSkip } from '../errors.js';
import type { Step } from '../check.js';
import { refusal, said } from './said.js';

type IdOf = (r: CheckRun) => string;

/** The pod a held hook is about: it must carry the pod's id, or nothing about the pod could be looked up by it. */
export const heldPod: IdOf = (r) => {
  const id = r.hold?.seen.podId ?? '';
  if (id === '') throw new CheckFailure(`the held ${r.hold?.seen.event ?? ''} hook to carry the pod's id`, 'none');
  return id;
};
/** The container a held hook is about ("" where the runtime sends no id with it). */
export const heldContainer: IdOf = (r) => r.hold?.seen.containerId ?? '';
const podId =
  (alias: string): IdOf =>
  (r) =>
    r.pod(alias).id;

const POD_STATE = ['SANDBOX_READY', 'SANDBOX_NOTREADY'];
const CTR_STATE = ['CONTAINER_CREATED', 'CONTAINER_RUNNING', 'CONTAINER_EXITED', 'CONTAINER_UNKNOWN'];

/** ListPodSandbox shows neither the pod's id nor any pod of the run named `alias`. */
export function expectPodNotListed(idOf: IdOf, alias: string, when: string): Step {
  return {
    label: `pod ${alias} not listed ${when}`,
    run: async (r) => {
      const id = idOf(r);
      const name = r.podName(alias);
      const items = (await r.cri((c, o) => c.listPodSandbox(undefined, o), false)).items;
      const found = items.find(
        (p) => (id !== '' && p.id === id) || (p.metadata?.name === name && p.metadata.namespace === r.namespace),
      );
      if (found)
        throw new CheckFailure(
          `no pod ${r.podName(alias)} in ListPodSandbox ${when}`,
          `${found.id} (${POD_STATE[found.state ?? 0]})`,
        );
    },
  };
}

/** PodSandboxStatus fails (preferred), or says the pod is not ready. */
export function expectPodNotReady(idOf: IdOf, alias: string, when: string): Step {
  return {
    label: `pod ${alias} not ready ${when}`,
    run: async (r) => {
      const id = idOf(r);
      let state: number;
      try {
        state = (await r.cri((c, o) => c.podSandboxStatus(id, false, o), false)).status?.state ?? -1;
      } catch (err) {
        refusal(err, `PodSandboxStatus of pod ${r.podName(alias)}`);
        return;
      }
      if (state === CriPodState.READY)
        throw new CheckFailure(
          `PodSandboxStatus of pod ${r.podName(alias)} to fail or not say SANDBOX_READY ${when}`,
          'SANDBOX_READY',
        );
    },
  };
}

export function expectPodState(alias: string, want: 'SANDBOX_READY' | 'SANDBOX_NOTREADY', when = ''): Step {
  return {
    label: `pod ${alias} ${want}`,
    run: async (r) => {
      const id = r.pod(alias).id;
      let state: number;
      try {
        state = (await r.cri((c, o) => c.podSandboxStatus(id, false, o), false)).status?.state ?? -1;
      } catch (err) {
        throw new CheckFailure(`PodSandboxStatus of pod ${r.podName(alias)} to say ${want}${when}`, said(err));
      }
      if (POD_STATE[state] !== want)
        throw new CheckFailure(`pod ${r.podName(alias)} ${want}${when}`, POD_STATE[state] ?? `state ${state}`);
    },
  };
}

/** PodSandboxStatus still answers for the pod, with its id. */
export function expectPodStatusAnswers(alias: string, when: string): Step {
  return {
    label: `PodSandboxStatus of ${alias} answers ${when}`,
    run: async (r) => {
      const id = r.pod(alias).id;
      try {
        const s = await r.cri((c, o) => c.podSandboxStatus(id, false, o), false);
        if (s.status?.id !== id) throw new Error(`a status for ${s.status?.id || 'no pod'}`);
      } catch (err) {
        throw new CheckFailure(`PodSandboxStatus of pod ${r.podName(alias)} to answer ${when}`, said(err));
      }
    },
  };
}

/** The pod is no longer listed (after RemovePodSandbox). */
export function expectPodGone(alias: string): Step {
  return expectPodNotListed(podId(alias), alias, 'after RemovePodSandbox');
}

/** ListContainers(pod) is not empty and every container in it has exited. */
export function expectContainersExited(pod: string, when: string): Step {
  return {
    label: `containers of ${pod} exited ${when}`,
    run: async (r) => {
      const id = r.pod(pod).id;
      const list = (await r.cri((c, o) => c.listContainers({ podSandboxId: id }, o), false)).containers;
      if (list.length === 0)
        throw new CheckFailure(`the containers of pod ${r.podName(pod)} still listed ${when}`, 'none');
      const running = list.find((c) => c.state !== CriContainerState.EXITED);
      if (running)
        throw new CheckFailure(
          `every container of pod ${r.podName(pod)} CONTAINER_EXITED ${when}`,
          `${running.metadata?.name ?? running.id} ${CTR_STATE[running.state ?? 3]}`,
        );
    },
  };
}

/** ListContainers(pod) lists nothing. */
export function expectNoContainers(pod: string, when: string): Step {
  return {
    label: `no container of ${pod} listed ${when}`,
    run: async (r) => {
      const id = r.pod(pod).id;
      const list = (await r.cri((c, o) => c.listContainers({ podSandboxId: id }, o), false)).containers;
      if (list.length > 0)
        throw new CheckFailure(
          `no container of pod ${r.podName(pod)} listed ${when}`,
          list.map((c) => `${c.metadata?.name ?? c.id} ${CTR_STATE[c.state ?? 3]}`).join(', '),
        );
    },
  };
}

/** ListContainers(pod) shows neither the container's id nor a container named `alias`. */
export function expectContainerNotListed(idOf: IdOf, alias: string, pod: string, when: string): Step {
  return {
    label: `container ${alias} not listed ${when}`,
    run: async (r) => {
      const id = idOf(r);
      const podId = r.pod(pod).id;
      const list = (await r.cri((c, o) => c.listContainers({ podSandboxId: podId }, o), false)).containers;
      const found = list.find((c) => (id !== '' && c.id === id) || c.metadata?.name === alias);
      if (found)
        throw new CheckFailure(
          `no container ${alias} in ListContainers ${when}`,
          `${found.id} (${CTR_STATE[found.state ?? 3]})`,
        );
    },
  };
}

/** ContainerStatus fails, or does not say CONTAINER_CREATED (where the hook told an id). */
export function expectContainerNotCreated(idOf: IdOf, alias: string, when: string): Step {
  return {
    label: `container ${alias} not created ${when}`,
    run: async (r) => {
      const id = idOf(r);
      if (id === '') return; // the hook carried no id (iSulad): the listing above is what can be looked at
      let state: number;
      try {
        state = (await r.cri((c, o) => c.containerStatus(id, false, o), false)).status?.state ?? -1;
      } catch (err) {
        refusal(err, `ContainerStatus of ${alias}`);
        return;
      }
      if (state === CriContainerState.CREATED)
        throw new CheckFailure(
          `ContainerStatus of ${alias} to fail or not say CONTAINER_CREATED ${when}`,
          'CONTAINER_CREATED',
        );
    },
  };
}

export function expectContainerState(alias: string, want: 'CONTAINER_CREATED' | 'CONTAINER_RUNNING'): Step {
  return {
    label: `container ${alias} ${want}`,
    run: async (r) => {
      const id = r.ctr(alias).id;
      let state: number;
      try {
        state = (await r.cri((c, o) => c.containerStatus(id, false, o), false)).status?.state ?? -1;
      } catch (err) {
        throw new CheckFailure(`ContainerStatus of ${alias} to say ${want}`, said(err));
      }
      if (CTR_STATE[state] !== want)
        throw new CheckFailure(`container ${alias} ${want}`, CTR_STATE[state] ?? `state ${state}`);
    },
  };
}

/** The container exits by itself (polled), with the exit code of the run's image. */
export function expectExits(alias: string): Step {
  return {
    label: `container ${alias} exits by itself`,
    run: async (r) => {
      const id = r.ctr(alias).id;
      const until = performance.now() + r.timing.exitWaitMs;
      const every = Math.max(10, Math.min(500, Math.floor(r.timing.exitWaitMs / 100)));
      for (;;) {
        const s = (await r.cri((c, o) => c.containerStatus(id, false, o), false)).status;
        if (s?.state === CriContainerState.EXITED) {
          if (s.exitCode !== r.exitCode)
            throw new CheckFailure(`container ${alias} to exit with code ${r.exitCode}`, `code ${s.exitCode}`);
          return;
        }
        if (performance.now() >= until)
          throw new CheckFailure(
            `container ${alias} to exit by itself within ${r.timing.exitWaitMs} ms`,
            CTR_STATE[s?.state ?? 3] ?? 'no state',
          );
        if (r.suite.signal.aborted) return;
        await r.wait(every);
      }
    },
  };
}

/** Skips when the image cannot run a container that exits by itself: StartContainer's failure says so. */
export function startExiting(alias: string): Step {
  return {
    label: `StartContainer ${alias}`,
    run: async (r) => {
      const id = r.ctr(alias).id;
      try {
        await r.cri((c, o) => c.startContainer(id, o));
      } catch (err) {
        const text = said(err);
        // The image's executable (sh, /pause) missing or unrunnable: runc's and crun's
        // "exec: ... executable file not found", "no such file or directory". A container
        // or pod the runtime says it cannot find is no reason to skip: it is judged.
        if (/\bexec|no such file/i.test(text))
          throw new CheckSkip(`the image ${r.suite.image} cannot run a container that exits by itself (${text})`);
        throw new CheckFailure(`StartContainer of ${alias} to succeed`, text);
      }
    },
  };
}
