// docs/fidelity.md from the results: per table, where each column's results come from
// (measured in this run, carried over from an earlier one, or never measured), one row per
// check or spec with the real runtime's verdict next to the imitation's, then the
// differences with their reasons.
import { conformanceSummary } from './conformance.mjs';
import { critestSummary } from './junit.mjs';
import { compareVerdicts } from './merge.mjs';

const SHOWN = { pass: 'pass', fail: 'FAIL', skip: 'skip', error: 'ERROR' };

function cellText(text) {
  return String(text).replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

function seconds(ms) {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** Where a slot's result comes from, in words. */
export function provenance(slot) {
  if (slot.state === 'missing') return `**not measured**: ${slot.why}`;
  const m = slot.record.measured;
  const when = `${m.date}, nrictl ${m.nrictl}`;
  return slot.state === 'fresh'
    ? `measured ${when}`
    : `**carried over** from ${when} (not measured again: ${slot.why})`;
}

/** "pass / pass ✓", "FAIL / pass ✗", "— / skip": the real verdict, then the imitation's. */
function pairCell(row) {
  if (!row) return '—';
  const show = (v) => (!v ? '—' : v.runs ? runsText(v.runs) : SHOWN[v.status]);
  const mark = row.agree === undefined ? '' : row.agree ? ' ✓' : ' ✗';
  return `${show(row.real)} / ${show(row.other)}${mark}`;
}

/** "pass 2, skip 4 of 6": a race's outcomes over its runs. */
function runsText(runs) {
  const total = Object.values(runs).reduce((a, b) => a + b, 0);
  return `${Object.entries(runs)
    .map(([s, n]) => `${SHOWN[s]} ${n}`)
    .join(', ')} of ${total}`;
}

function reasonOf(v) {
  if (!v) return 'not run';
  const why = v.reason ?? v.message;
  const verdict = v.runs ? runsText(v.runs) : SHOWN[v.status];
  return `${verdict}${why ? `: ${cellText(why)}` : ''}${v.known ? ` [known: ${v.known}]` : ''}`;
}

function agreement(c, slotState) {
  if (slotState === 'missing' || c.compared === 0) return '—';
  return `${c.agreeing} of ${c.compared}`;
}

function grid(names, columns) {
  if (names.length === 0) return ['No result on either side.'];
  const head = `| | ${columns.map((c) => cellText(c.title)).join(' | ')} |`;
  const rule = `|---|${columns.map(() => '---').join('|')}|`;
  const body = names.map((n) => `| \`${n}\` | ${columns.map((c) => pairCell(c.rows.get(n))).join(' | ')} |`);
  return [head, rule, ...body];
}

function unionNames(comparisons) {
  const names = [];
  for (const c of comparisons) for (const r of c.rows) if (!names.includes(r.name)) names.push(r.name);
  return names;
}

function differences(entries, otherName) {
  const lines = [];
  for (const { title, comparison } of entries) {
    if (comparison.compared === 0) {
      lines.push(`- ${cellText(title)}: not compared: there is no result on both sides.`);
      continue;
    }
    for (const r of comparison.rows.filter((x) => x.agree === false))
      lines.push(`- ${cellText(title)}, \`${r.name}\`: real ${reasonOf(r.real)}; ${otherName} ${reasonOf(r.other)}`);
  }
  return lines.length > 0 ? lines : [`None: on every check compared, the ${otherName} and the real runtime agree.`];
}

function conformanceSection(entries) {
  const lines = [
    '## Conformance, check by check',
    '',
    '`nrictl conformance --image localhost/busybox:latest --yes` against the real runtime, and',
    '`nrictl conformance --sim --preset P` (the preset measured in the same run as the page).',
    '',
    '| preset | real runtime | real result | wall time | preset result | preset agrees on |',
    '|---|---|---|---|---|---|',
  ];
  const compared = entries.map((e) => {
    const real = e.slot.record;
    const comparison = compareVerdicts(real?.verdicts, e.preset.report?.verdicts);
    const realText = real ? `${conformanceSummary(real.summary)}; ${provenance(e.slot)}` : provenance(e.slot);
    const presetText = e.preset.report
      ? conformanceSummary(e.preset.report.summary)
      : `**not measured**: ${e.preset.error}`;
    lines.push(
      `| ${cellText(e.target.title)} | ${cellText(real ? `${real.runtime} (${real.nri})` : '—')} | ${cellText(realText)} | ${real ? seconds(real.wallMs) : '—'} | ${cellText(presetText)} | ${agreement(comparison, e.slot.state)} |`,
    );
    return { title: e.target.title, comparison };
  });
  const columns = compared.map((c) => ({
    title: `${c.title} (real / preset)`,
    rows: new Map(c.comparison.rows.map((r) => [r.name, r])),
  }));
  lines.push('', ...grid(unionNames(compared.map((c) => c.comparison)), columns));
  lines.push('', '### Where the preset differs from the real runtime', '', ...differences(compared, 'preset'));
  const left = entries.filter(
    (e) => e.slot.record && (e.slot.record.leftovers.length || e.slot.record.leftoversUnchecked),
  );
  if (left.length > 0) {
    lines.push('', '### Left on the real runtime', '');
    for (const e of left) {
      const r = e.slot.record;
      if (r.leftovers.length) lines.push(`- ${cellText(e.target.title)}: ${cellText(r.leftovers.join(', '))}`);
      if (r.leftoversUnchecked)
        lines.push(`- ${cellText(e.target.title)}: not checked: ${cellText(r.leftoversUnchecked)}`);
    }
  }
  return lines;
}

function critestCell(slot) {
  if (!slot.record) return provenance(slot);
  return `${critestSummary(slot.record.counts)} in ${seconds(slot.record.wallMs)}; ${provenance(slot)}`;
}

function critestSection(entries) {
  const lines = [
    "## critest's NRI specs, spec by spec",
    '',
    "critest (cri-tools, `-ginkgo.focus '\\[k8s\\.io\\] NRI'`, the kit's run-critest.sh) against the real runtime, and",
    'against `nrictl sim --cri-socket --preset P` with its default request timeout. The specs whose',
    "outcome is a race on the runtime (they hold a plugin's Synchronize exactly the request timeout)",
    'are run again on their own, and a cell gives the outcomes seen over all runs: the simulator agrees',
    "unless how often each side passed differs beyond chance (Fisher's exact test, p < 0.05).",
    '',
    '| preset | real runtime | critest on the real runtime | critest on the simulator | simulator agrees on |',
    '|---|---|---|---|---|',
  ];
  const compared = entries.map((e) => {
    const comparison = compareVerdicts(e.real.record?.specs, e.sim.record?.specs);
    const state = e.real.state === 'missing' || e.sim.state === 'missing' ? 'missing' : 'measured';
    lines.push(
      `| ${cellText(e.target.title)} | ${cellText(e.real.record?.against ?? '—')} | ${cellText(critestCell(e.real))} | ${cellText(critestCell(e.sim))} | ${agreement(comparison, state)} |`,
    );
    return { title: e.target.title, comparison };
  });
  const columns = compared.map((c) => ({
    title: `${c.title} (real / sim)`,
    rows: new Map(c.comparison.rows.map((r) => [r.name, r])),
  }));
  lines.push('', ...grid(unionNames(compared.map((c) => c.comparison)), columns));
  lines.push('', '### Where the simulator differs from the real runtime', '', ...differences(compared, 'simulator'));
  return lines;
}

/** The whole page. */
export function renderPage({ generated, conformance, critest }) {
  return [
    '# Fidelity: the presets held to real runtimes',
    '',
    '<!-- Generated by `npm run fidelity` (scripts/fidelity.mjs) from docs/fidelity/*.json. Do not edit by hand. -->',
    '',
    `Generated ${generated.date} with nrictl ${generated.nrictl}. Each preset of \`nrictl sim\` and`,
    '`nrictl conformance --sim` that imitates a runtime of the real-runtimes kit (real containerd 2.3.4,',
    'CRI-O 1.32.13 and iSulad, built from their sources) is run next to that runtime, and the verdicts',
    'are compared: a cell reads "real / imitation", ✓ when they agree, ✗ when they differ. A real result',
    'that this run could not measure (the runtime was not up, critest was not built) is carried over from',
    'the run that measured it, with its date and nrictl commit; a result never measured is left empty.',
    'The real results are kept in [fidelity/](fidelity/), one JSON file per column.',
    '',
    'Regenerate with `NRI_REAL_OUT=<kit output dir> npm run fidelity` (`node scripts/fidelity.mjs --help`).',
    '',
    ...conformanceSection(conformance),
    '',
    ...critestSection(critest),
    '',
  ].join('\n');
}
