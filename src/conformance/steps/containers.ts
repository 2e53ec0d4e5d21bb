// Steps that create, start, stop and remove containers, each expecting the runtime to do it.
import type { cri } from '../../cri/index.js';
import type { CheckRun } from '../check-run.js';
import type { Step } from '../check.js';
import { mustSucceed } from './must-succeed.js';

export interface ContainerOpts {
  /** Exits by itself with the run image's code. */
  exits?: boolean;
  extra?: Partial<cri.IContainerConfig>;
}

/** Creates a container in a pod (aliases) and records it; rejects with the CRI error. */
export async function create(r: CheckRun, alias: string, pod: string, opts: ContainerOpts = {}): Promise<string> {
  const p = r.pod(pod);
  const config = r.containerConfig(alias, p.config, {
    ...(opts.exits ? { exits: r.exitCode } : {}),
    ...(opts.extra ? { extra: opts.extra } : {}),
  });
  const res = await r.cri((c, o) => c.createContainer(p.id, config, p.config, o));
  r.containers.set(alias, { alias, id: res.containerId, pod });
  r.suite.registry.saw(res.containerId);
  return res.containerId;
}

export const createContainer = (alias: string, pod: string, opts: ContainerOpts = {}): Step =>
  mustSucceed(
    `CreateContainer ${alias}`,
    () => `CreateContainer of ${alias}`,
    (r) => create(r, alias, pod, opts),
  );

/** CreateContainer issued without waiting for it: `create:ALIAS`. */
export function startCreate(alias: string, pod: string, opts: ContainerOpts = {}): Step {
  return {
    label: `CreateContainer ${alias} (not waited for)`,
    run: async (r) => r.start(`create:${alias}`, (unwaited) => create(unwaited, alias, pod, opts)),
  };
}

/** CreateContainer then StartContainer, not waited for: `up:ALIAS`. */
export function startCreateAndStart(alias: string, pod: string): Step {
  return {
    label: `CreateContainer and StartContainer ${alias} (not waited for)`,
    run: async (r) =>
      r.start(`up:${alias}`, async (unwaited) => {
        const id = await create(unwaited, alias, pod);
        await unwaited.cri((c, o) => c.startContainer(id, o));
      }),
  };
}

function ctrCall(
  verb: 'StartContainer' | 'StopContainer' | 'RemoveContainer',
  alias: string,
  call: (c: CheckRun['suite']['cri'], id: string, o: { timeoutMs: number }) => Promise<unknown>,
): Step {
  return mustSucceed(
    `${verb} ${alias}`,
    () => `${verb} of ${alias}`,
    (r) => r.cri((c, o) => call(c, r.ctr(alias).id, o)),
  );
}

export const startContainer = (alias: string): Step =>
  ctrCall('StartContainer', alias, (c, id, o) => c.startContainer(id, o));
export const stopContainer = (alias: string): Step =>
  ctrCall('StopContainer', alias, (c, id, o) => c.stopContainer(id, 0, o));
export const removeContainer = (alias: string): Step =>
  ctrCall('RemoveContainer', alias, (c, id, o) => c.removeContainer(id, o));

/** A running container: created and started. */
export function runContainer(alias: string, pod: string, opts: ContainerOpts = {}): Step[] {
  return [createContainer(alias, pod, opts), startContainer(alias)];
}
