// `nrictl doctor`: the runtime config the node runs with and the paths it names, every
// finding, whether the runtime answered, and the verdict.
import type { DoctorDiagnosis, ViewsComparison } from '../diagnose/index.js';
import { chalk, fitProse, type View } from '../output/index.js';
import { findingsData, findingsText, summaryLine } from './findings.js';
import { plural } from '../units/index.js';

export const diagnosisView: View<DoctorDiagnosis> = {
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
      ...viewsLines(d.views, width),
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
      views: d.views,
      ...findingsData(d.findings),
      verdict: d.verdict,
    };
  },
};

const VERDICT_PAINT = { broken: chalk.red, warnings: chalk.yellow, healthy: chalk.green } as const;

function nriState({ offline: { settings } }: DoctorDiagnosis): string {
  if (settings.invalid.enabled !== undefined) return `NRI on or off: invalid (${settings.invalid.enabled})`;
  if (settings.enabled === undefined) return "NRI on or off by the runtime's version";
  return settings.enabled ? 'NRI enabled' : 'NRI disabled';
}

/** The runtime that answered, as the session named it, with what it holds; null: it did not answer. */
function runtimeOf({ connection: c }: DoctorDiagnosis) {
  if (c.status !== 'answered') return null;
  const named = c.runtime ?? { name: '', version: '', vintage: '', kind: 'other' as const, label: 'unnamed' };
  return { ...named, pods: c.pods, containers: c.containers };
}

function runtimeLine(d: DoctorDiagnosis, width: number | undefined): string {
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

/** Differences listed in the table before "and N more": -o json lists them all. */
const DIFFERENCES_SHOWN = 20;

/** What CRI lists against what NRI handed plugins: agreeing, each difference and why, or not checked and why. */
function viewsLines(v: ViewsComparison, width: number | undefined): string[] {
  if (v.status === 'not-checked') return [fitProse(`CRI: not checked: ${v.reason}`, width, chalk.dim)];
  const lists = (c: { pods: number; containers: number }): string =>
    `${plural(c.pods, 'pod')}, ${plural(c.containers, 'container')}`;
  const changed = v.changed.pods + v.changed.containers;
  const meanwhile = changed > 0 ? `; ${changed} came or went while doctor looked (not counted)` : '';
  const head = `CRI: ${v.criChoice}: ${v.criRuntime} lists ${lists(v.cri)}`;
  if (v.differences.length === 0) return [fitProse(`${head}; NRI handed plugins the same${meanwhile}`, width)];
  const out = [
    fitProse(
      `${head}; NRI handed plugins ${lists(v.nri)}; they differ in ${plural(v.differences.length, 'object')}${meanwhile}:`,
      width,
    ),
  ];
  for (const d of v.differences.slice(0, DIFFERENCES_SHOWN)) {
    const where = d.in === 'cri' ? `CRI only${d.state ? ` (${d.state})` : ''}` : 'NRI only';
    out.push(
      fitProse(
        `  ${d.object} ${d.name} ${d.id.slice(0, 13)}, ${where}: ${d.explanation}`,
        width,
        d.expected ? chalk.dim : chalk.yellow,
      ),
    );
  }
  if (v.differences.length > DIFFERENCES_SHOWN)
    out.push(
      fitProse(`  and ${v.differences.length - DIFFERENCES_SHOWN} more (-o json lists them all)`, width, chalk.dim),
    );
  return out;
}
