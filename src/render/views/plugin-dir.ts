// `nrictl validate`: the plugin directory as the runtime will read it.
import type { PlannedPlugin, PluginDirReport } from '../../checks/index.js';
import { chalk } from '../colour.js';
import type { View } from '../output.js';
import { findingsData, findingsText, summaryLine } from './findings.js';

export const pluginDirView: View<PluginDirReport> = {
  text(report, layout) {
    const heading =
      chalk.bold(`Plugin directory ${report.dir}`) +
      chalk.dim(` (configuration from ${report.confDir}${report.runtime ? `, rules of ${report.runtime}` : ''})`);
    return [
      heading,
      findingsText(report.findings, layout.width, report.dir),
      '',
      order(report),
      summaryLine(report.findings),
    ].join('\n');
  },
  data: (report) => ({ ...report, ...findingsData(report.findings) }),
  /** The plugins the runtime will launch, in its invocation order. */
  names: (report) => invocationOrder(report).map((p) => `${p.index}-${p.name}`),
};

function invocationOrder(report: PluginDirReport): PlannedPlugin[] {
  if (report.runtime === 'isulad') return report.isuladOrder;
  return report.discoveryFails ? [] : report.order;
}

function order(report: PluginDirReport): string {
  const isulad = report.runtime === 'isulad';
  const list = isulad ? report.isuladOrder : report.order;
  const who = isulad ? 'iSulad (by name, one plugin per name)' : 'containerd / CRI-O (by index)';
  if (!isulad && report.discoveryFails) {
    return chalk.red(`Invocation order, ${who}: none: plugin discovery fails, so no pre-installed plugin starts.`);
  }
  if (list.length === 0) return `Invocation order, ${who}: no plugin to launch.`;
  const lines = list.map((p, i) => {
    const config = p.config ?? chalk.dim('no configuration');
    const state = p.launches ? '' : chalk.red(' (fails to launch)');
    return `  ${String(i + 1).padStart(2)}. ${p.index}-${p.name}${state}  ${chalk.dim('config:')} ${config}`;
  });
  return [`Invocation order, ${who}:`, ...lines].join('\n');
}
