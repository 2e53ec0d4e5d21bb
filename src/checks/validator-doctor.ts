// doctor's reading of the built-in default validator on a live node: lint can only say
// which runtime versions know its keys and which required plugins the plugin directory
// holds; doctor also knows the running runtime's name and version (its Configure) and,
// where the runtime counts its plugins (containerd 2.3+ metrics), which are connected.
// A node without an enabled validator gets nothing from here: no false alarms.
import { readdirSync } from 'node:fs';
import { compareVersions, parseVersion, type ReleaseVersion } from '../api/release-version.js';
import type { OfflineDiagnosis } from './doctor.js';
import { finding, type Finding } from './finding.js';

/** Which plugins the runtime has connected: their NN-names, or why that is not known. */
export type ConnectedPlugins = { names: string[] } | { unknown: string };

/** The running runtime as its Configure named it; undefined: it did not answer. */
interface RunningRuntime {
  name: string;
  version: string;
}

/** The release that first knows each key, per runtime (FACTS §5: containerd/nri v0.10.0, v0.11.0; CRI-O 1.34.0). */
const CONTAINERD_TABLE = [2, 2, 0] as const;
const CONTAINERD_SYSCTL = [2, 2, 1] as const;
const CRIO_TABLE = [1, 34, 0] as const;

/**
 * Findings about the chosen config's default validator against the running runtime and
 * its plugins, and the lint notes they make moot (the version notes, once the version is known).
 */
export function validatorOnNode(
  d: OfflineDiagnosis,
  running: RunningRuntime | undefined,
  connected: ConnectedPlugins,
): { findings: Finding[]; superseded: Finding[] } {
  const chosen = d.runtimeConfigs.find((r) => r.file === d.settingsFrom);
  const v = chosen?.settings.defaultValidator;
  if (!chosen || !v) return { findings: [], superseded: [] };
  const findings: Finding[] = [];
  let superseded: Finding[] = [];
  const version = running ? releaseOf(running, chosen.format) : undefined;
  if (running && version) {
    superseded = chosen.findings.filter((f) => f.code === 'validator-key-version');
    const label = `${running.name} ${running.version}`;
    const table = chosen.format === 'crio' ? CRIO_TABLE : CONTAINERD_TABLE;
    const section = chosen.format === 'crio' ? '[crio.nri.default_validator]' : 'default_validator';
    if (before(version, table)) {
      findings.push(
        // Without enable = true the table asks for no validator, so ignoring it changes nothing.
        finding(
          v.enable ? 'warning' : 'info',
          chosen.file,
          'validator-unknown-to-runtime',
          `the running ${label} does not know ${section} (${chosen.format === 'crio' ? 'CRI-O' : 'containerd'} ${table.join('.')} and later do): it ignores the table and runs no default validator`,
          `upgrade to ${chosen.format === 'crio' ? 'CRI-O' : 'containerd'} ${table.join('.')} or later, or remove the table`,
        ),
      );
      return { findings, superseded };
    }
    if (chosen.format === 'containerd' && v.rejectSysctlAdjustment !== undefined && before(version, CONTAINERD_SYSCTL))
      findings.push(
        finding(
          'warning',
          chosen.file,
          'validator-key-unknown-to-runtime',
          `the running ${label} does not know default_validator's reject_sysctl_adjustment (containerd 2.2.1 and later do): it ignores the key and does not reject sysctl adjustments`,
          'upgrade to containerd 2.2.1 or later, or remove the key',
        ),
      );
  }
  if (v.enable && (v.requiredPlugins ?? []).length > 0)
    findings.push(...requiredPluginFindings(chosen.file, v.requiredPlugins!, d.resolved.pluginPath, connected));
  return { findings, superseded };
}

function requiredPluginFindings(
  file: string,
  required: string[],
  pluginDir: string,
  connected: ConnectedPlugins,
): Finding[] {
  const installed = installedNames(pluginDir);
  const connectedNames = 'names' in connected ? names(connected.names) : undefined;
  const out: Finding[] = [];
  if ('unknown' in connected)
    out.push(
      finding(
        'info',
        file,
        'plugins-connected-unknown',
        `could not check which plugins are connected: ${connected.unknown}; the validator's required plugins were checked against ${pluginDir} only`,
        'see the runtime\'s log ("plugin ... connected and synchronized"), or read its metrics with nrictl plugins --metrics-url',
      ),
    );
  const rejected = (name: string) =>
    `the runtime rejects every container creation (validation error: required plugin "${name}" not present)`;
  for (const name of required) {
    if (name === 'default-validator' || name === '00-default-validator') continue;
    if (connectedNames?.has(name)) continue;
    const isInstalled = installed?.has(name) ?? false;
    if (isInstalled && !connectedNames) continue;
    if (isInstalled)
      out.push(
        finding(
          'error',
          file,
          'required-plugin-not-connected',
          `required plugin "${name}" is installed in ${pluginDir} but the runtime's metrics show it not connected: ${rejected(name)}`,
          `see why it did not start in the runtime's log, then restart the runtime`,
        ),
      );
    else if (connectedNames || installed)
      out.push(
        finding(
          connectedNames ? 'error' : 'warning',
          file,
          'required-plugin-missing',
          connectedNames
            ? `required plugin "${name}" is neither installed in ${pluginDir} nor connected: ${rejected(name)}`
            : `required plugin "${name}" is not installed in ${pluginDir}: unless an external plugin of that name is connected, ${rejected(name)}`,
          `install ${name} in ${pluginDir}, run it as an external plugin, or remove it from required_plugins`,
        ),
      );
  }
  return out;
}

/** A plugin answers to its NN-name and to its name (pkg/api GetPluginMap). */
function names(list: Iterable<string>): Set<string> {
  const out = new Set<string>();
  for (const entry of list) {
    out.add(entry);
    out.add(entry.replace(/^\d\d-/, ''));
  }
  return out;
}

/** undefined when the directory cannot be listed (its own finding says why); empty when it is not there. */
function installedNames(dir: string): Set<string> | undefined {
  try {
    return names(readdirSync(dir));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? new Set() : undefined;
  }
}

/** The release as numbers, when the runtime that answered is the one the config is for. */
function releaseOf(r: RunningRuntime, format: string): ReleaseVersion | undefined {
  const kindMatches = (format === 'containerd' && r.name === 'containerd') || (format === 'crio' && r.name === 'cri-o');
  return kindMatches ? parseVersion(r.version) : undefined;
}

function before(version: ReleaseVersion, first: ReleaseVersion): boolean {
  return compareVersions(version, first) < 0;
}
