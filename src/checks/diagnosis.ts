// What `nrictl doctor` concludes, as one value: the offline diagnosis (doctor.ts), what
// the runtime answered, every finding and the verdict. src/diagnose makes it (it may reach
// the session and the tracer, which this layer may not); src/views shows it.
import { statSync } from 'node:fs';
import {
  connectionFindings,
  doctorVerdict,
  type ConnectionOutcome,
  type OfflineDiagnosis,
  type Verdict,
} from './doctor.js';
import { CheckPathError, pathErrorFrom } from './errors.js';
import { finding, type Finding } from './finding.js';

export interface Diagnosis {
  offline: OfflineDiagnosis;
  connection: ConnectionOutcome;
  /** The offline findings, the connection's, and the latency trace's (doctor --trace). */
  findings: Finding[];
  verdict: Verdict;
}

/** The diagnosis once the runtime was asked (or not), with what else was measured. */
export function concludeDiagnosis(
  offline: OfflineDiagnosis,
  connection: ConnectionOutcome,
  measured: readonly Finding[] = [],
): Diagnosis {
  const findings = [...offline.findings, ...connectionFindings(connection), ...measured];
  return { offline, connection, findings, verdict: doctorVerdict(findings, connection) };
}

/** doctor --trace when the runtime did not answer: there was nothing to trace. */
export function latencyUnmeasured(socketPath: string): Finding {
  return finding(
    'info',
    socketPath,
    'plugin-latency-unmeasured',
    'the runtime did not answer: plugin latency not measured',
    'fix the connection first, then run doctor --trace again',
  );
}

/**
 * The node's root must be a directory: / or where a node image is mounted. Throws
 * CheckPathError naming the `root` option (the command line's --root).
 */
export function checkNodeRoot(root: string): void {
  let isDirectory: boolean;
  try {
    isDirectory = statSync(root).isDirectory();
  } catch (err) {
    throw pathErrorFrom(root, err, undefined, 'root');
  }
  if (!isDirectory)
    throw new CheckPathError(
      root,
      'not-a-directory',
      "the node's root directory: /, or where a node image is mounted",
      {
        option: 'root',
      },
    );
}
