// What the runtime reports of a container as it was made: ContainerStatus's resources,
// and the OCI spec in its verbose info (containerd, CRI-O and the simulator put it under
// "info" -> runtimeSpec), where a plugin's adjustment shows.
import { getOptionalInt64, getOptionalUInt64, type nri } from '../../api/index.js';
import type { cri } from '../../cri/index.js';
import { CheckFailure, CheckSkip } from '../errors.js';
import type { Step } from '../check.js';
import type { CheckRun } from '../check-run.js';

interface OciSpec {
  process?: { env?: string[] };
  annotations?: Record<string, string>;
  mounts?: Array<{ destination?: string; type?: string }>;
  linux?: { resources?: { cpu?: { shares?: number }; memory?: { limit?: number } } };
}

export const NO_SPEC =
  "the runtime does not show a container's OCI spec in ContainerStatus (no runtimeSpec in its verbose info)";

/** Verbose ContainerStatus: the status, and the OCI spec where the runtime shows it. */
export async function verboseStatus(
  r: CheckRun,
  alias: string,
): Promise<{ status: cri.IContainerStatus | null | undefined; spec: OciSpec | undefined }> {
  const s = await r.cri((c, o) => c.containerStatus(r.ctr(alias).id, true, o), false);
  let spec: OciSpec | undefined;
  try {
    spec = (JSON.parse(s.info?.info ?? '{}') as { runtimeSpec?: OciSpec }).runtimeSpec;
  } catch {
    spec = undefined;
  }
  return { status: s.status, spec };
}

async function ociSpec(r: CheckRun, alias: string): Promise<OciSpec> {
  const { spec } = await verboseStatus(r, alias);
  if (!spec) throw new CheckSkip(NO_SPEC);
  return spec;
}

/** The adjustment shows in the container's spec: `find` says what it looks for and whether it is there. */
export function expectInSpec(alias: string, what: string, find: (spec: OciSpec) => string | undefined): Step {
  return {
    label: `${what} in ${alias}'s spec`,
    run: async (r) => {
      const saw = find(await ociSpec(r, alias));
      if (saw !== undefined) throw new CheckFailure(`${what} in container ${alias}'s spec`, saw);
    },
  };
}

/** ContainerStatus reports these resources (CPU shares, memory limit). */
export function expectResources(alias: string, want: nri.ILinuxResources, why: string): Step {
  const shares = getOptionalUInt64(want.cpu?.shares);
  const limit = getOptionalInt64(want.memory?.limit);
  return {
    label: `${alias}'s resources ${why}`,
    run: async (r) => {
      const s = await r.cri((c, o) => c.containerStatus(r.ctr(alias).id, false, o), false);
      const linux = s.status?.resources?.linux;
      if (!linux)
        throw new CheckSkip(
          "the runtime does not report a container's resources in ContainerStatus (no status.resources)",
        );
      const saw = `CPU shares ${linux.cpuShares ?? 0}, memory limit ${linux.memoryLimitInBytes ?? 0}`;
      if (
        (shares !== undefined && linux.cpuShares !== shares) ||
        (limit !== undefined && linux.memoryLimitInBytes !== limit)
      )
        throw new CheckFailure(
          `container ${alias} with ${[shares !== undefined ? `CPU shares ${shares}` : '', limit !== undefined ? `memory limit ${limit}` : ''].filter(Boolean).join(', ')} ${why}`,
          saw,
        );
    },
  };
}
