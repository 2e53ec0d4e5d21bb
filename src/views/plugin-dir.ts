// `nrictl validate`: the plugin directory as the runtime will read it.
import type { PlannedPlugin, PluginDirReport } from '../checks/index.js';
import { chalk, fitProse, fitSpans, type View } from '../output/index.js';
import { findingsData, findingsText, summaryLine } from './findings.js';

export const pluginDirView: View<PluginDirReport> = {
  text(report, { width }) {
    const heading = fitSpans(
      [
        { text: `Plugin directory ${report.dir}`, paint: chalk.bold },
        {
          text: ` (configuration from ${report.confDir}${report.runtime ? `, rules of ${report.runtime}` : ''})`,
          paint: chalk.dim,
        },
      ],
      width,
    );
    return [
      heading,
      findingsText(report.findings, width, report.dir),
      '',
      order(report, width),
      summaryLine(report.findings, width),
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

function order(report: PluginDirReport, width: number | undefined): string {
  const isulad = report.runtime === 'isulad';
  const list = isulad ? report.isuladOrder : report.order;
  const who = isulad ? 'iSulad (by name, one plugin per name)' : 'containerd / CRI-O (by index)';
  if (!isulad && report.discoveryFails) {
    return fitProse(
      `Invocation order, ${who}: none: plugin discovery fails, so no pre-installed plugin starts.`,
      width,
      chalk.red,
    );
  }
  if (list.length === 0) return fitProse(`Invocation order, ${who}: no plugin to launch.`, width);
  const lines = list.map((p, i) => {
    const config = p.config ?? chalk.dim('no configuration');
    const state = p.launches ? '' : chalk.red(' (fails to launch)');
    return `  ${String(i + 1).padStart(2)}. ${p.index}-${p.name}${state}  ${chalk.dim('config:')} ${config}`;
  });
  return [fitProse(`Invocation order, ${who}:`, width), ...lines].join('\n');
}
