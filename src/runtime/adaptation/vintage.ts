// Which generation of the Go runtime adaptation (containerd/nri pkg/adaptation) the
// simulator behaves like. Plugin authors test against what their users run: containerd
// 1.7.0-1.7.13 vendor v0.3/v0.4, later 1.7 releases and iSulad 2.1.5 speak v0.6.1, and
// containerd 2.x / CRI-O newer ones. Each flag below is a difference we read in the Go
// sources at those tags or saw in the v0.6.1 wire capture.
import type { ErrorKind } from '../../errors/index.js';
import {
  ALL_EVENTS_MASK,
  compareVersions,
  LEGACY_EVENTS_MASK,
  parseVersion,
  type ReleaseVersion,
} from '../../api/index.js';

export const NEWEST_NRI_VERSION = 'v0.12.0';

/**
 * The one untagged NRI that a runtime release vendors: CRI-O 1.33.x (go.mod). It is the
 * commit that added UpdatePodSandbox and PostUpdatePodSandbox (events 12, 13) but not yet
 * ValidateContainerAdjustment (14): its valid mask is 0x1fff, so "all events" (0x3fff) is
 * refused with `invalid plugin events: 0x2000`.
 */
export const CRIO_133_NRI_VERSION = 'v0.9.1-0.20250219030224-e597e7849f24';
const POD_UPDATE_EVENTS_MASK = 0x1fff;

export interface RuntimeVintage {
  /** As given, normalised to vMAJOR.MINOR.PATCH. */
  nriVersion: string;
  /** Registration and request timeouts in ConfigureRequest (v0.7+). */
  configureTimeouts: boolean;
  /** The runtime's own NRI version in ConfigureRequest (v0.12+). */
  configureNriVersion: boolean;
  /** Subscription bits the runtime knows; anything else is "invalid plugin events". */
  knownEventsMask: number;
  /**
   * Pod events and post-events on their own RPC, falling back to StateChange on
   * Unimplemented (v0.12+); before, they only ever go out as StateChange.
   */
  perEventRpc: boolean;
  /** Synchronize split over several messages with `more` (v0.7+); before, one message. */
  splitSync: boolean;
  /** UpdatePodSandbox / PostUpdatePodSandbox events (v0.10+). */
  podSandboxUpdates: boolean;
  /** ValidateContainerAdjustment calls to validator plugins (v0.10+). */
  validation: boolean;
  /** External names limited to [a-zA-Z0-9_.+-] (v0.12+); before, only non-empty. */
  externalNameRule: boolean;
  /**
   * A pre-started plugin that fails to start (refused events, a failed registration or
   * Configure, an exit before registering) fails the whole Start, and so the runtime's
   * start-up (v0.3.0-v0.6.1: startPlugins returns the error, v0.4.0 adaptation.go:336-338).
   * From v0.7.0 it is logged as a warning and skipped (v0.7.0 adaptation.go:350-353).
   */
  preStartFailureFatal: boolean;
  /**
   * The pre-started plugins are synchronized once all have started (v0.7.0+: startPlugins
   * hands syncFn a function that synchronizes each, v0.7.0 adaptation.go:358-379). Before,
   * only external plugins are (acceptPluginConnections, v0.6.1 adaptation.go:434): a
   * pre-started plugin gets Configure and then events, never a Synchronize.
   */
  syncLaunched: boolean;
}

const OLDEST = [0, 3, 0] as const;

export class VintageError extends Error {
  override readonly name = 'VintageError';
  readonly kind: ErrorKind = 'usage';
  /** The option at fault: AdaptationOptions.nriVersion. */
  readonly option = 'nriVersion';
}

/** A tagged version ("v0.6" is v0.6.0); a pre-release is refused (the one untagged version is matched before). */
function parse(version: string): ReleaseVersion {
  const v = parseVersion(version.trim(), { patchOptional: true, exact: true });
  if (!v)
    throw new VintageError(
      `NRI version "${version}": expected a version such as v0.6.1, v0.4.0 or ${NEWEST_NRI_VERSION} (of untagged versions only CRI-O 1.33's ${CRIO_133_NRI_VERSION})`,
    );
  return v;
}

function atLeast(v: ReleaseVersion, min: ReleaseVersion): boolean {
  return compareVersions(v, min) >= 0;
}

/** The behaviour of the adaptation at `version` (default: the newest we follow). */
export function runtimeVintage(version: string = NEWEST_NRI_VERSION): RuntimeVintage {
  if (/^v?0\.9\.1-0\.\d{14}-e597e7849f24$/.test(version.trim())) return podUpdatePreRelease();
  const v = parse(version);
  if (!atLeast(v, OLDEST)) {
    throw new VintageError(
      `NRI version "${version}" is older than v0.3.0, the first runtime adaptation with the socket protocol this simulator speaks`,
    );
  }
  const newest = parse(NEWEST_NRI_VERSION);
  if (atLeast(v, [newest[0], newest[1] + 1, 0])) {
    throw new VintageError(
      `NRI version "${version}" is newer than ${NEWEST_NRI_VERSION}, the newest runtime behaviour this simulator knows`,
    );
  }
  const from = (minor: number): boolean => atLeast(v, [0, minor, 0]);
  return {
    nriVersion: `v${v.join('.')}`,
    configureTimeouts: from(7),
    configureNriVersion: from(12),
    knownEventsMask: from(10) ? ALL_EVENTS_MASK : LEGACY_EVENTS_MASK,
    perEventRpc: from(12),
    splitSync: from(7),
    podSandboxUpdates: from(10),
    validation: from(10),
    externalNameRule: from(12),
    preStartFailureFatal: !from(7),
    syncLaunched: from(7),
  };
}

/** CRI-O 1.33's NRI (CRIO_133_NRI_VERSION): v0.9.0 plus the two pod update events. */
function podUpdatePreRelease(): RuntimeVintage {
  return {
    ...runtimeVintage('v0.9.0'),
    nriVersion: CRIO_133_NRI_VERSION,
    knownEventsMask: POD_UPDATE_EVENTS_MASK,
    podSandboxUpdates: true,
  };
}
