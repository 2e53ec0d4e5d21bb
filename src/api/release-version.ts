// A release version ("v1.7.20", "2.2.0-rc.1", "1.33") read as numbers and put in order:
// what decides which NRI generation a runtime vendors, which preset imitates it, which
// known gap or validator key applies to it. Callers differ on what they accept (whether a
// patch number may be missing, whether anything may follow it), so they say so; reading
// and ordering are the same for all of them.
//
// This file imports nothing of this project, so the checks may load it directly.

/** [major, minor, patch]. */
export type ReleaseVersion = readonly [number, number, number];

export interface VersionReading {
  /** "v0.6" reads as v0.6.0; without this a version needs all three numbers. */
  patchOptional?: boolean;
  /** Nothing may follow the numbers ("2.2.0-rc.1" is then unreadable); without this whatever follows is passed over. */
  exact?: boolean;
}

/**
 * The numbers of a version with an optional leading "v", or undefined when it has none
 * ("unknown", "", "1", " 1.7.0": the caller trims if it wants to). A pre-release or build
 * suffix is passed over unless `exact`, so "2.2.0-rc.1" reads as 2.2.0.
 */
export function parseVersion(text: string, how: VersionReading = {}): ReleaseVersion | undefined {
  const patch = how.patchOptional ? String.raw`(?:\.(\d+))?` : String.raw`\.(\d+)`;
  const m = new RegExp(String.raw`^v?(\d+)\.(\d+)${patch}${how.exact ? '$' : ''}`).exec(text);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)] : undefined;
}

/** Negative when a is the older release, positive when it is the newer, 0 when they are the same. */
export function compareVersions(a: ReleaseVersion, b: ReleaseVersion): number {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}
