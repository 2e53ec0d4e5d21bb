// The last `nrictl conformance -o json` report on the node (written by a conformance
// DaemonSet or Job): its verdicts counted, the checks that failed or erred named. Read
// bounded; a report that cannot be read is an error the caller counts, not a crash.
import { statSync } from 'node:fs';
import { readInputFile } from '../checks/index.js';
import type { ConformanceReport } from '../conformance/index.js';
import type { ErrorKind } from '../errors/index.js';

/** A report's size is some kilobytes per check: far below this. */
const MAX_REPORT_BYTES = 16 * 1024 * 1024;

export interface ConformanceReading {
  byVerdict: Record<'pass' | 'fail' | 'skip' | 'error', number>;
  /** Names of the checks that failed or erred ("stop-pod/no-reuse"). */
  failed: string[];
  /** The file's modification time: the report carries no time of its own. */
  writtenAtMs: number;
}

class ConformanceReportError extends Error {
  override readonly name = 'ConformanceReportError';
  readonly kind: ErrorKind = 'usage';
}

/** Throws ConformanceReportError, its message naming the file and what is wrong. */
export function readConformanceReport(file: string): ConformanceReading {
  let text: string;
  let mtimeMs: number;
  try {
    text = readInputFile(file, { what: 'conformance report', maxBytes: MAX_REPORT_BYTES });
    mtimeMs = statSync(file).mtimeMs;
  } catch (err) {
    throw new ConformanceReportError((err as Error).message, { cause: err });
  }
  let report: Partial<ConformanceReport>;
  try {
    report = JSON.parse(text) as Partial<ConformanceReport>;
  } catch (err) {
    throw new ConformanceReportError(
      `${file}: not JSON (${(err as Error).message}): write it with nrictl conformance -o json`,
      {
        cause: err,
      },
    );
  }
  if (!Array.isArray(report?.verdicts))
    throw new ConformanceReportError(
      `${file}: not a conformance report (no "verdicts" list; a --preset all matrix is not one either): write it with nrictl conformance -o json`,
    );
  const byVerdict = { pass: 0, fail: 0, skip: 0, error: 0 };
  const failed: string[] = [];
  for (const v of report.verdicts) {
    const status = (v as { status?: unknown }).status;
    const name = (v as { name?: unknown }).name;
    if (typeof name !== 'string' || !(typeof status === 'string' && status in byVerdict))
      throw new ConformanceReportError(`${file}: a verdict without a name and a status of pass, fail, skip or error`);
    byVerdict[status as keyof typeof byVerdict]++;
    if (status === 'fail' || status === 'error') failed.push(name);
  }
  return { byVerdict, failed, writtenAtMs: mtimeMs };
}
