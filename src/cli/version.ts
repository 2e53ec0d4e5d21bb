// What `nrictl version` reports: read from the package, the schema and the process.
import { NRI_SCHEMA_VERSION } from '../api/schema-version.js';
import type { VersionInfo } from '../views/index.js';

/** `version`: nrictl's, from its package.json (oclif's config.version). */
export function versionInfo(version: string): VersionInfo {
  return {
    nrictl: version,
    nriApi: NRI_SCHEMA_VERSION,
    node: process.version,
    platform: process.platform,
    arch: process.arch,
  };
}
