// `nrictl doctor`: the runtime config the node runs with and the paths it names, every
// finding, whether the runtime answered, and the verdict.
import type { Diagnosis } from '../checks/index.js';
import { chalk, fitProse, type View } from '../output/index.js';
import { findingsData, findingsText, summaryLine } from './findings.js';

export const diagnosisView: View<Diagnosis> = {
  text(d, { width }) {
    const { offline } = d;
    const where = offline.root === '/' ? '' : ` under ${offline.root}`;
    const node = offline.node;
    return [
      fitProse(
        offline.settingsFrom
          ? `Runtime config ${offline.settingsFrom} (${offline.settings.runtime}): ${nriState(d)}`
          : `No runtime config found${where}: default paths`,
        width,
        chalk.bold,
      ),
      fitProse(
        `plugins ${node.pluginPath}, configuration ${node.pluginConfigPath}, socket ${node.socketPath}${where}`,
        width,
        chalk.dim,
      ),
      findingsText(d.findings, width, offline.root === '/' ? undefined : offline.root),
      '',
      runtimeLine(d, width),
      summaryLine(d.findings, width),
      fitProse(`Verdict: ${d.verdict.status}: ${d.verdict.reason}`, width, VERDICT_PAINT[d.verdict.status]),
    ].join('\n');
  },
  data: (d) => {
    const { offline, connection } = d;
    return {
      root: offline.root,
      runtimeConfig: offline.settingsFrom ?? null,
      settings: offline.settings,
      paths: offline.node,
      connection: connection.status,
      runtime: runtimeOf(d),
      ...findingsData(d.findings),
      verdict: d.verdict,
    };
  },
};

const VERDICT_PAINT = { broken: chalk.red, warnings: chalk.yellow, healthy: chalk.green } as const;

function nriState({ offline: { settings } }: Diagnosis): string {
  if (settings.invalid.enabled !== undefined) return `NRI on or off: invalid (${settings.invalid.enabled})`;
  if (settings.enabled === undefined) return "NRI on or off by the runtime's version";
  return settings.enabled ? 'NRI enabled' : 'NRI disabled';
}

/** The runtime that answered, as the session named it, with what it holds; null: it did not answer. */
function runtimeOf({ connection: c }: Diagnosis) {
  if (c.status !== 'answered') return null;
  const named = c.runtime ?? { name: '', version: '', vintage: '', kind: 'other' as const, label: 'unnamed' };
  return { ...named, pods: c.pods, containers: c.containers };
}

function runtimeLine(d: Diagnosis, width: number | undefined): string {
  const runtime = runtimeOf(d);
  if (runtime)
    return fitProse(
      `Runtime: ${runtime.label} (${runtime.vintage}), ${runtime.pods} pods, ${runtime.containers} containers`,
      width,
    );
  if (d.connection.status === 'failed')
    return fitProse(`Runtime: not answering on ${d.connection.socketPath}`, width, chalk.red);
  return fitProse('Runtime: not asked (no socket to connect to)', width, chalk.dim);
}
