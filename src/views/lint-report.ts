// `nrictl lint`: the configuration directory and the runtime configs linted, each with
// its findings, and one summary line.
import type { LintReport } from '../checks/index.js';
import { chalk, fitProse, fitSpans, type View } from '../output/index.js';
import { findingsData, findingsText, summaryLine } from './findings.js';

export const lintView: View<LintReport> = {
  text(report, { width }) {
    const { confDir, confDirMissing: missing, runtimeConfigs } = report;
    const out: string[] = [];
    if (!confDir && runtimeConfigs.length === 0 && !missing)
      out.push(fitProse('Nothing to lint: no configuration directory and no runtime config found.', width));
    if (missing) {
      out.push(fitProse(`Configuration directory ${missing.path}`, width, chalk.bold));
      out.push(findingsText([missing], width));
    }
    if (confDir) {
      out.push(
        fitSpans(
          [
            { text: `Configuration directory ${confDir.dir}`, paint: chalk.bold },
            { text: ` (plugins from ${confDir.pluginDir})`, paint: chalk.dim },
          ],
          width,
        ),
      );
      out.push(findingsText(confDir.findings, width, confDir.dir));
    }
    for (const c of runtimeConfigs) {
      out.push(fitProse(`${c.format} config ${c.file}`, width, chalk.bold));
      out.push(findingsText(c.findings, width));
    }
    out.push(summaryLine(report.findings, width));
    return out.join('\n');
  },
  data: (report) => ({
    ...(report.confDir ? { confDir: report.confDir } : {}),
    runtimeConfigs: report.runtimeConfigs,
    ...findingsData(report.findings),
  }),
};
