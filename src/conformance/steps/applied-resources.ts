// What a plugin's CPU shares and memory limit became, judged where the runtime shows
// what it applied: the OCI spec in verbose ContainerStatus (linux.resources). The
// status's own resources need not follow: containerd and iSulad report the CRI request's
// values there whatever plugins set (kubernetes#130598), which the verdict then says, in
// what it means for those who read them.
import { formatBytes } from '../../units/index.js';
import type { cri } from '../../cri/index.js';
import { CheckFailure, CheckSkip } from '../errors.js';
import type { Step } from '../check.js';
import { createContainer, startContainer, type ContainerOpts } from './containers.js';
import { NO_SPEC, verboseStatus } from './container-spec.js';

interface CpuAndMemory {
  cpuShares: number;
  memoryLimitInBytes: number;
}

const words = (v: Partial<CpuAndMemory>): string =>
  `CPU shares ${v.cpuShares ?? 'unset'} and a memory limit of ${v.memoryLimitInBytes === undefined ? 'none' : formatBytes(v.memoryLimitInBytes)}`;

const same = (a: Partial<CpuAndMemory>, b: CpuAndMemory): boolean =>
  a.cpuShares === b.cpuShares && a.memoryLimitInBytes === b.memoryLimitInBytes;

/** The container runs with `set` (the plugin's values over the CRI request's `asked`). */
export function expectResourcesApplied(alias: string, set: CpuAndMemory, asked: CpuAndMemory): Step {
  return {
    label: `${alias} runs with the resources the plugin set`,
    run: async (r) => {
      const { status, spec } = await verboseStatus(r, alias);
      const reported = fromStatus(status);
      if (!spec) {
        // Without the spec, only a status that shows the plugin's values tells anything.
        if (reported && same(reported, set)) {
          r.note('judged from ContainerStatus.resources: the runtime shows no OCI spec in its verbose ContainerStatus');
          return;
        }
        throw new CheckSkip(
          `${NO_SPEC}, and ContainerStatus.resources (${reported ? words(reported) : 'none'}) may be the CRI request's whatever plugins set`,
        );
      }
      const res = spec.linux?.resources;
      const applied = { cpuShares: res?.cpu?.shares, memoryLimitInBytes: res?.memory?.limit };
      if (!same(applied, set))
        throw new CheckFailure(`container ${alias}'s OCI spec with ${words(set)}`, words(applied));
      if (!reported) return;
      if (same(reported, set)) return;
      const whose = same(reported, asked)
        ? "the CRI request's values, not what plugins set"
        : "values that are neither the CRI request's nor what plugins set";
      r.note(
        `ContainerStatus reports ${whose}: a kubelet or tool reading it sees ${words(reported)}; the container runs with ${words(set)}`,
      );
    },
  };
}

function fromStatus(status: cri.IContainerStatus | null | undefined): Partial<CpuAndMemory> | undefined {
  const linux = status?.resources?.linux;
  if (!linux) return undefined;
  return { cpuShares: Number(linux.cpuShares ?? 0), memoryLimitInBytes: Number(linux.memoryLimitInBytes ?? 0) };
}

/**
 * The container the plugin adjusts, made and started. Where the runtime refuses it as
 * having an empty cpuset, the verdict says whose: the plugin sets CPU shares and no
 * cpuset, and nrictl sends none (iSulad's bridge turns the absent one into "").
 */
export function runAdjustedContainer(alias: string, pod: string, opts: ContainerOpts): Step[] {
  const create = createContainer(alias, pod, opts);
  return [
    {
      label: create.label,
      run: async (r) => {
        try {
          await create.run(r);
        } catch (err) {
          if (err instanceof CheckFailure && /requested CPUs are not available - requested ,/i.test(err.saw))
            r.note(
              'the plugin sets CPU shares and no cpuset, and none is sent: the runtime made the empty cpuset itself (iSulad turns an absent one into "": isula-rust-extensions nri c_transfer.rs), so on it a plugin that sets a CPU value must also set cpus and mems',
            );
          throw err;
        }
      },
    },
    startContainer(alias),
  ];
}
