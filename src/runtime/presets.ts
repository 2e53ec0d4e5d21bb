// The runtimes `nrictl sim --preset` can pose as. Imports nothing: sim's flag
// definitions list the presets, and oclif loads every command file at start-up.

export const NEWEST_NRI_VERSION = 'v0.12.0';

/** Runtimes people run, as name, version and the NRI adaptation they vendor. */
export const RUNTIME_PRESETS: Readonly<Record<string, { runtimeName: string; runtimeVersion: string; nriVersion: string }>> = Object.freeze({
  'containerd-1.7.0': { runtimeName: 'containerd', runtimeVersion: 'v1.7.0', nriVersion: 'v0.3.0' },
  'containerd-1.7.13': { runtimeName: 'containerd', runtimeVersion: 'v1.7.13', nriVersion: 'v0.4.0' },
  'isulad-2.1.5': { runtimeName: 'iSulad', runtimeVersion: '2.1.5', nriVersion: 'v0.6.1' },
  newest: { runtimeName: 'nrictl-sim', runtimeVersion: '0.1.0', nriVersion: NEWEST_NRI_VERSION },
});
