// Which runtime is at the other end, from what its Configure request says. The name and
// version are the runtime's own words, except iSulad's: it sends the name and version of
// an early containerd (src/daemon/nri/plugin.cc, "same as containerd"), so that pair is
// how iSulad is told apart.

/** What iSulad sends as its runtime name and version in Configure. */
export const ISULAD_REPORTS = Object.freeze({ name: 'v2', version: '2.0.0-beta.2+unknown' });

export type ConnectedRuntimeKind = 'containerd' | 'isulad' | 'docker' | 'other';

export interface RuntimeIdentity {
  kind: ConnectedRuntimeKind;
  /** How to name it to people: "containerd v2.1.5", "iSulad (reports v2 2.0.0-beta.2+unknown)". */
  label: string;
}

/** Which runtime a name and version are, from NRI's Configure or CRI's Version: both APIs' names. */
export type RuntimeFamily = 'containerd' | 'cri-o' | 'isulad' | 'docker' | 'other';

export function identifyRuntime(name: string, version: string): RuntimeIdentity {
  if (name === ISULAD_REPORTS.name && version === ISULAD_REPORTS.version) {
    return { kind: 'isulad', label: `iSulad (reports ${name} ${version})` };
  }
  // Docker Engine (moby daemon/internal/nri) names itself "docker" and its bare version: 29.7.2.
  if (name === 'docker') return { kind: 'docker', label: `Docker Engine ${version}`.trim() };
  const label = `${name || 'runtime'} ${version}`.trim();
  return { kind: name === 'containerd' ? 'containerd' : 'other', label };
}

/**
 * Why nrictl must not send this runtime an UpdateContainers request, or undefined when it
 * may. Real iSulad crashes on any plugin-initiated update or eviction: it frees update
 * items that the request owns (NRIAdaptation::updateContainers, src/daemon/nri/nri_adaption.cc).
 * Docker Engine 29 cannot apply one: its updateFn answers "not implemented"
 * (moby daemon/internal/nri/nri.go), so sending it only ends in a refusal.
 */
export function pluginUpdatesUnsafe(identity: RuntimeIdentity): string | undefined {
  if (identity.kind === 'isulad')
    return 'iSulad crashes on any update or eviction a plugin sends through NRI (it frees memory the request owns): use isula update or crictl update instead';
  if (identity.kind === 'docker')
    return 'Docker Engine does not implement updates or evictions from plugins (it answers UpdateContainers with "not implemented"): use docker update, or docker stop, instead';
  return undefined;
}

/**
 * The setting that bounds how long a runtime waits for a plugin's answer (its request
 * timeout, past which the Go adaptation and iSulad close the plugin), in words that say
 * where to write it; by the runtime's name and version from Configure. iSulad reads the
 * misspelt key only (lcr's daemon.json schema).
 */
export function requestTimeoutSetting(name: string, version: string): string {
  const { kind } = identifyRuntime(name, version);
  if (kind === 'containerd')
    return `plugin_request_timeout in containerd's config.toml ([plugins."io.containerd.nri.v1.nri"])`;
  if (kind === 'isulad')
    return `"plugin-requst-timeout" in iSulad's daemon.json (so spelt: "plugin-request-timeout" is not read), in seconds`;
  if (kind === 'docker') return "none: Docker Engine keeps NRI's default of 2 s";
  if (name === 'cri-o') return "nri_plugin_request_timeout in CRI-O's crio.conf ([crio.nri])";
  if (name === 'nrictl-sim') return "nrictl sim's --request-timeout";
  return "the runtime's NRI request timeout (containerd's plugin_request_timeout, CRI-O's nri_plugin_request_timeout, iSulad's plugin-requst-timeout)";
}

/** What a late answer costs and what to do about it, after "ran past the request timeout": the SDK, doctor and trace say it alike. */
export function lateAnswerConsequence(setting: string): string {
  return `the runtime drops a plugin whose answer is late; answer within it (do slow work after answering), or raise it: ${setting}`;
}

/**
 * The family of a runtime by the name and version it gives over NRI or CRI. CRI-O names
 * itself "cri-o" on both; iSulad "iSulad" over CRI and an early containerd over NRI.
 */
export function runtimeFamily(name: string, version: string): RuntimeFamily {
  const { kind } = identifyRuntime(name, version);
  if (kind !== 'other') return kind;
  const lower = name.toLowerCase();
  if (lower === 'cri-o') return 'cri-o';
  if (lower === 'isulad') return 'isulad';
  return 'other';
}
