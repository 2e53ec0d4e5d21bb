// Expectation outcomes (`nrictl sim --expect`) for people, a diff per failure, and for CI
// systems, JUnit XML.
import type { Outcome } from '../expect/index.js';
import { xmlText as xml } from '../output/index.js';

export function textReport(outcomes: readonly Outcome[]): string {
  const lines: string[] = [];
  for (const o of outcomes) {
    lines.push(`${o.ok ? 'PASS' : 'FAIL'} ${o.name}`);
    for (const d of o.diffs) lines.push(`  ${d}`);
  }
  const failed = outcomes.filter((o) => !o.ok).length;
  lines.push(`expectations: ${outcomes.length - failed} passed, ${failed} failed`);
  return lines.join('\n');
}

export function junitReport(outcomes: readonly Outcome[], suite: string): string {
  const failed = outcomes.filter((o) => !o.ok).length;
  const cases = outcomes.map((o) =>
    o.ok
      ? `    <testcase classname="${xml(suite)}" name="${xml(o.name)}"/>`
      : `    <testcase classname="${xml(suite)}" name="${xml(o.name)}">\n      <failure message="${xml(o.diffs[0] ?? 'failed')}">${xml(o.diffs.join('\n'))}</failure>\n    </testcase>`,
  );
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites tests="${outcomes.length}" failures="${failed}">`,
    `  <testsuite name="${xml(suite)}" tests="${outcomes.length}" failures="${failed}">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
  ].join('\n');
}
