/**
 * One thing an offline check found: what the runtime will do about it, and how to fix it.
 * `code` is a stable kebab-case id that scripts may match on; messages may be reworded.
 */
export type Severity = 'error' | 'warning' | 'info';

export interface Finding {
  severity: Severity;
  path: string;
  code: string;
  /** What the runtime will do (or what is wrong), in one sentence. */
  message: string;
  /** How to fix it, in one line. */
  fix: string;
}

const RANK: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

export function finding(severity: Severity, path: string, code: string, message: string, fix: string): Finding {
  return { severity, path, code, message: bounded(oneLine(message)), fix: bounded(oneLine(fix)) };
}

/**
 * The sites that quote input cut it to an excerpt; this is the backstop, so that no
 * finding ever carries a file's worth of text.
 */
const FINDING_TEXT_MAX = 4096;
function bounded(text: string): string {
  return text.length > FINDING_TEXT_MAX ? `${text.slice(0, FINDING_TEXT_MAX)}…` : text;
}

/**
 * Messages quote what they found (a parser's error, a file's text), which may hold line
 * breaks; a finding is one line wherever it is shown, a table cell included.
 */
function oneLine(text: string): string {
  return text.replace(/\s*[\r\n\u2028\u2029]+\s*/g, ' ');
}

/** Errors first, then warnings, then notes; within a severity by path, so output is stable. */
export function sortFindings(findings: Finding[]): Finding[] {
  return [...findings].sort(
    (a, b) => RANK[a.severity] - RANK[b.severity] || a.path.localeCompare(b.path) || a.code.localeCompare(b.code),
  );
}

export interface FindingCounts {
  error: number;
  warning: number;
  info: number;
}

export function countFindings(findings: readonly Finding[]): FindingCounts {
  const counts: FindingCounts = { error: 0, warning: 0, info: 0 };
  for (const f of findings) counts[f.severity]++;
  return counts;
}

/**
 * Which runtime the findings are for. The Go adaptation (containerd, CRI-O) and iSulad treat
 * some entries differently (Docker Engine runs the Go adaptation); without a runtime, Go behaviour decides the severity and
 * iSulad-only differences are notes.
 */
export type RuntimeKind = 'containerd' | 'crio' | 'isulad' | 'docker';
