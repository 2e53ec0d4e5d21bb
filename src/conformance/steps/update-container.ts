// UpdateContainerResources, and what the plugins were told of it.
import { getOptionalUInt64 } from '../../api/index.js';
import type { cri } from '../../cri/index.js';
import { CheckFailure } from '../errors.js';
import type { Step } from '../check.js';
import { aboutContainer } from './events.js';
import { mustSucceed } from './must-succeed.js';

export const updateContainer = (alias: string, linux: cri.ILinuxContainerResources): Step =>
  mustSucceed(
    `UpdateContainerResources ${alias}`,
    () => `UpdateContainerResources of ${alias}`,
    (r) => r.cri((c, o) => c.updateContainerResources(r.ctr(alias).id, linux, undefined, o)),
  );

/** The UpdateContainer event carried the CPU shares asked for. */
export function expectUpdateCarried(index: string, alias: string, shares: number): Step {
  return {
    label: `UpdateContainer of ${alias} carried CPU shares ${shares}`,
    run: async (r) => {
      const s = r.events(index).find((e) => e.event === 'UpdateContainer' && aboutContainer(r, alias)(e));
      const got = getOptionalUInt64(s?.resources?.cpu?.shares);
      if (got !== shares)
        throw new CheckFailure(
          `UpdateContainer of ${alias} to carry CPU shares ${shares}`,
          got === undefined ? 'none' : `${got}`,
        );
    },
  };
}
