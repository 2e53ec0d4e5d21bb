// What the runtimes with quirks (presets.ts) do where the Go adaptation would do otherwise.
// Each function judges one answer or request; runtime.ts hands them to the adaptation.
import { cpus } from 'node:os';
import { nri } from '../../api/index.js';
import { PluginConnectionError } from '../adaptation/index.js';
import type { RuntimeQuirks } from './presets.js';
import { plural } from '../../units/index.js';

/** The container as iSulad hands it to CreateContainer: name, pod id and an empty linux. */
export function sparseCreateRequest(ctr: nri.IContainer): nri.IContainer {
  return { name: ctr.name ?? '', podSandboxId: ctr.podSandboxId ?? '', linux: {} };
}

/** The crash an answer without `adjust` causes (quirks.createNeedsAdjust), or undefined. */
export function wouldAbortOnCreate(
  quirks: RuntimeQuirks,
  plugin: string,
  rsp: nri.ICreateContainerResponse | null,
): PluginConnectionError | undefined {
  if (rsp?.adjust) return undefined;
  return new PluginConnectionError(
    `this would abort ${quirks.runtime}: plugin ${plugin} answered CreateContainer without an adjust message, which ${quirks.runtime}'s NRI library unwraps; answer with an adjustment, empty when nothing changes`,
    plugin,
    'runtime-crash',
    'CreateContainer',
  );
}

/** The crash a plugin's UpdateContainers request causes (quirks.pluginUpdatesCrash). */
export function wouldCrashOnUpdate(
  quirks: RuntimeQuirks,
  plugin: string,
  req: nri.IUpdateContainersRequest,
): PluginConnectionError {
  const what = [
    req.update?.length ? plural(req.update.length, 'update') : '',
    req.evict?.length ? plural(req.evict.length, 'eviction') : '',
  ]
    .filter(Boolean)
    .join(' and ');
  return new PluginConnectionError(
    `this would crash ${quirks.runtime}: plugin ${plugin} sent UpdateContainers${what ? ` (${what})` : ''}, and ${quirks.runtime} frees memory the request owns; a plugin for ${quirks.runtime} must not send UpdateContainers`,
    plugin,
    'runtime-crash',
    'UpdateContainers',
  );
}

/**
 * Takes out of `adjust` the environment variables the container does not have yet, as
 * a runtime with quirks.ignoresNewEnv does; returns one notice per variable dropped.
 */
export function dropNewEnv(
  quirks: RuntimeQuirks,
  adjust: nri.IContainerAdjustment,
  ctr: nri.IContainer,
  ownerOf: (key: string) => string | undefined,
): Array<{ plugin?: string; message: string }> {
  if (!adjust.env?.length) return [];
  const existing = new Set((ctr.env ?? []).map((e) => e.split('=', 1)[0]));
  const notices: Array<{ plugin?: string; message: string }> = [];
  adjust.env = adjust.env.filter((kv) => {
    const key = kv.key ?? '';
    if (key.startsWith('-') || existing.has(key)) return true;
    const plugin = ownerOf(key);
    notices.push({
      ...(plugin ? { plugin } : {}),
      message: `${quirks.runtime} ignores the new environment variable ${key}: it only changes variables the container already has`,
    });
    return false;
  });
  return notices;
}

/**
 * The container's name as CRI-O shows it to plugins (server/nri-api.go GetName): the
 * OCI spec annotation `label`, which CRI-O fills from the CRI annotations and then the
 * CRI labels (the label wins); empty when neither carries it.
 */
export function labelledName(label: string, ctr: nri.IContainer): string {
  return ctr.labels?.[label] ?? ctr.annotations?.[label] ?? '';
}

const CPU_VALUES = ['shares', 'quota', 'period', 'realtimeRuntime', 'realtimePeriod'] as const;

/**
 * iSulad's refusal of a plugin's CPU adjustment that names no cpuset (quirks.emptyCpusetRefused),
 * in its words (src/daemon/modules/spec/verify.c verify_resources_cpuset), or undefined. Its
 * bridge hands every string of the CPU message on, absent ones as "": an empty cpuset, then
 * empty memory nodes, fail its check of the OCI spec. `adjust` is the merged adjustment,
 * in which a CPU value or cpuset is set only where a plugin sent a CPU message.
 */
export function emptyCpusetRefusal(adjust: nri.IContainerAdjustment | null | undefined): string | undefined {
  const cpu = adjust?.linux?.resources?.cpu;
  if (!cpu || !(CPU_VALUES.some((k) => cpu[k] != null) || cpu.cpus || cpu.mems)) return undefined;
  if (!cpu.cpus)
    return `Requested CPUs are not available - requested , available: 0-${Math.max(cpus().length - 1, 0)}.`;
  if (!cpu.mems) return 'Requested memory nodes are not available - requested , available: 0.';
  return undefined;
}
