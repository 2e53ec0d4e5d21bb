// Which preset imitates the runtime a recording was made on, from the name and version it
// gave in Configure: the release line its version belongs to (the lines of presets.ts).
import { ISULAD_REPORTS, parseVersion, type ReleaseVersion } from '../../api/index.js';

function containerdLine([major, minor, patch]: ReleaseVersion): string | undefined {
  if (major === 1 && minor === 7) {
    if (patch <= 6) return 'containerd-1.7.0';
    if (patch <= 13) return 'containerd-1.7.13';
    if (patch <= 25) return 'containerd-1.7.25';
    return 'containerd-1.7.34';
  }
  if (major === 2 && minor === 0) return 'containerd-2.0';
  if (major === 2 && minor === 1) return 'containerd-2.1';
  if (major === 2 && minor === 2) return patch === 0 ? 'containerd-2.2.0' : 'containerd-2.2.1';
  if (major === 2 && minor >= 3) return 'containerd-2.3';
  return undefined;
}

function crioLine([major, minor]: ReleaseVersion): string | undefined {
  if (major !== 1 || minor < 32) return undefined;
  return `crio-1.${Math.min(minor, 36)}`;
}

/**
 * The preset of the release line a runtime's Configure names ("containerd", "v2.2.7" ->
 * containerd-2.2.1), or undefined for a runtime no preset imitates (then the Go
 * adaptation's rules of its NRI version apply, without quirks).
 */
export function presetForRuntime(name: string, version: string): string | undefined {
  if (name === ISULAD_REPORTS.name && version === ISULAD_REPORTS.version) return 'isulad-2.1.5';
  if (name === 'nrictl-sim') return 'newest';
  // "v1.7.20", "1.33.4", "29.7.2"; "1.33" is 1.33.0, and a suffix ("2.2.0-rc.1") is passed over.
  const v = parseVersion(version.trim(), { patchOptional: true });
  if (v === undefined) return undefined;
  if (name === 'containerd') return containerdLine(v);
  if (name === 'cri-o') return crioLine(v);
  if (name === 'docker' && v[0] >= 29) return 'docker-29';
  return undefined;
}
