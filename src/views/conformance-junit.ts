// `nrictl conformance --junit FILE`: the verdicts as JUnit XML, as critest gives them to CI
// systems. A failure known upstream says so in its message; a skip is <skipped/>, a check
// that could not be judged an <error/>. --preset all gives one test suite per preset.
import type { CheckVerdict, ConformanceMatrix, ConformanceReport } from '../conformance/index.js';
import { reasonOf } from './conformance.js';
import { xmlText as xml } from '../output/index.js';

const seconds = (ms: number): string => (ms / 1000).toFixed(3);

function testcase(v: CheckVerdict): string {
  const open = `    <testcase classname="nrictl.conformance.${xml(v.name.split('/')[0])}" name="${xml(v.name)}" time="${seconds(v.durationMs)}"`;
  const text = reasonOf(v);
  switch (v.status) {
    case 'pass':
      return `${open}/>`;
    case 'skip':
      return `${open}>\n      <skipped message="${xml(text)}"/>\n    </testcase>`;
    case 'fail':
      return `${open}>\n      <failure message="${xml(text)}" type="${v.known ? 'known-gap' : 'contract'}">${xml(`${v.clause}\n${text}`)}</failure>\n    </testcase>`;
    case 'error':
      return `${open}>\n      <error message="${xml(text)}">${xml(text)}</error>\n    </testcase>`;
  }
}

function suite(name: string, verdicts: readonly CheckVerdict[], ms: number): string[] {
  const n = (s: CheckVerdict['status']) => verdicts.filter((v) => v.status === s).length;
  return [
    `  <testsuite name="${xml(name)}" tests="${verdicts.length}" failures="${n('fail')}" errors="${n('error')}" skipped="${n('skip')}" time="${seconds(ms)}">`,
    ...verdicts.map(testcase),
    '  </testsuite>',
  ];
}

function document(suites: string[][], verdicts: readonly CheckVerdict[]): string {
  const n = (s: CheckVerdict['status']) => verdicts.filter((v) => v.status === s).length;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="nrictl conformance" tests="${verdicts.length}" failures="${n('fail')}" errors="${n('error')}" skipped="${n('skip')}">`,
    ...suites.flat(),
    '</testsuites>',
    '',
  ].join('\n');
}

export function conformanceJunit(r: ConformanceReport): string {
  return document([suite(`nrictl conformance: ${r.target.runtime}`, r.verdicts, r.summary.durationMs)], r.verdicts);
}

export function conformanceMatrixJunit(m: ConformanceMatrix): string {
  const ran = m.presets.filter((p) => !p.notApplicable);
  return document(
    ran.map((p) =>
      suite(
        `nrictl conformance --sim --preset ${p.preset}: ${p.runtime ?? ''}`,
        p.verdicts,
        p.summary?.durationMs ?? 0,
      ),
    ),
    ran.flatMap((p) => p.verdicts),
  );
}
