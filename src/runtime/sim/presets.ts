// Runtimes people run, as `nrictl sim --preset` imitates them: what each one says in its
// Configure request, which generation of the Go adaptation it vendors (or follows), and
// where it departs from the Go adaptation's rules: its quirks, each seen on the real
// runtime. A plugin author meets a quirk here before a node does.
import { ISULAD_REPORTS } from '../../api/index.js';
import { NEWEST_NRI_VERSION } from '../adaptation/index.js';

/** Where a runtime does not do what the Go adaptation of its vintage would. */
export interface RuntimeQuirks {
  /** The runtime's name in messages ("iSulad"). */
  runtime: string;
  /**
   * A CreateContainerResponse without an `adjust` message aborts the whole runtime
   * (iSulad: its Rust NRI library unwraps the field).
   */
  createNeedsAdjust?: boolean;
  /**
   * Any UpdateContainers request from a plugin crashes the runtime (iSulad frees the
   * update items that the request owns).
   */
  pluginUpdatesCrash?: boolean;
  /** Environment variables a plugin adds are dropped; changing an existing one works. */
  ignoresNewEnv?: boolean;
  /** CreateContainer carries only the container's name, its pod's id and an empty `linux`. */
  sparseCreateRequest?: boolean;
}

export interface RuntimePreset {
  runtimeName: string;
  runtimeVersion: string;
  nriVersion: string;
  quirks?: RuntimeQuirks;
}

/** Real iSulad (2.1.5 up to master of 2025-07, NRI served by the Rust libisula_nri). */
const ISULAD_QUIRKS: RuntimeQuirks = Object.freeze({
  runtime: 'iSulad',
  createNeedsAdjust: true,
  pluginUpdatesCrash: true,
  ignoresNewEnv: true,
  sparseCreateRequest: true,
});

export const RUNTIME_PRESETS: Readonly<Record<string, RuntimePreset>> = Object.freeze({
  'containerd-1.7.0': { runtimeName: 'containerd', runtimeVersion: 'v1.7.0', nriVersion: 'v0.3.0' },
  'containerd-1.7.13': { runtimeName: 'containerd', runtimeVersion: 'v1.7.13', nriVersion: 'v0.4.0' },
  // iSulad copies an early containerd's name and version into Configure.
  'isulad-2.1.5': {
    runtimeName: ISULAD_REPORTS.name,
    runtimeVersion: ISULAD_REPORTS.version,
    nriVersion: 'v0.6.1',
    quirks: ISULAD_QUIRKS,
  },
  newest: { runtimeName: 'nrictl-sim', runtimeVersion: '0.1.0', nriVersion: NEWEST_NRI_VERSION },
});
