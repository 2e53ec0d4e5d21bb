// What a new plugin project is made from: the settings every template of it reads, the
// project's own files (templates.ts) and those that deploy it (deploy-templates.ts).
export interface ProjectSpec {
  /** Plugin and npm package name: lower case, digits, '.', '_', '-'. */
  name: string;
  /** Two-digit index the plugin gets in tests and in its bundle name. */
  index: string;
  /** What package.json depends on for nrictl: a semver range, or file:/path/to/nrictl.tgz. */
  nrictlSpec: string;
  typescriptVersion: string;
  typesNodeVersion: string;
}
