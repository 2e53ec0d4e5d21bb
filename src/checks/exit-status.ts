import { countFindings, type Finding } from './finding.js';

/** 0 when no errors; 1 with errors; 3 with warnings only when strict. Mirrors ExitCode. */
export function findingsExitCode(findings: readonly Finding[], strict: boolean): 0 | 1 | 3 {
  const c = countFindings(findings);
  if (c.error) return 1;
  if (strict && c.warning) return 3;
  return 0;
}
