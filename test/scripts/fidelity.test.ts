// The pure parts of `npm run fidelity` (scripts/fidelity/*.mjs): reading critest's JUnit
// and conformance's JSON, stripping machine paths, carrying over kept results and
// rendering the page. The script itself runs against the real-runtimes kit, never here: only its refusal of bad arguments, which comes first.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module script without type declarations
import * as junit from '../../scripts/fidelity/junit.mjs';
// @ts-expect-error: a plain ES module script without type declarations
import * as conformance from '../../scripts/fidelity/conformance.mjs';
// @ts-expect-error: a plain ES module script without type declarations
import * as paths from '../../scripts/fidelity/paths.mjs';
// @ts-expect-error: a plain ES module script without type declarations
import * as merge from '../../scripts/fidelity/merge.mjs';
// @ts-expect-error: a plain ES module script without type declarations
import * as render from '../../scripts/fidelity/render.mjs';
// @ts-expect-error: a plain ES module script without type declarations
import * as targets from '../../scripts/fidelity/targets.mjs';

const { parseCritestJunit, critestSummary, foldRuns } = junit as any;
const { parseConformanceReport, conformanceSummary } = conformance as any;
const { pathStripper, stripPaths } = paths as any;
const { mergeResults, compareVerdicts, fisherExact } = merge as any;
const { renderPage } = render as any;
const { crioImagePolicy, CONFORMANCE_TARGETS, CRITEST_TARGETS, CRITEST_RACES } = targets as any;

// The kit's output directory of a real run; the fixtures say @OUT@ where a real report has it.
const OUT = join(tmpdir(), 'kit', 'nri-real');
const fixture = (name: string): string =>
  readFileSync(fileURLToPath(new URL(`../fixtures/fidelity/${name}`, import.meta.url)), 'utf8').replaceAll(
    '@OUT@',
    OUT,
  );

describe("critest's JUnit report", () => {
  const { specs, counts } = parseCritestJunit(fixture('critest-nri.xml'));

  it('keeps the specs that ran, with their verdicts, and leaves out suite nodes and specs the focus left out', () => {
    expect(specs.map((s: any) => [s.name.split(' should ')[0], s.status])).toEqual([
      ['[k8s.io] NRI pod sandbox lifecycle', 'pass'],
      ['[k8s.io] NRI container lifecycle', 'skip'],
      ['[k8s.io] NRI RunPodSandbox contract', 'fail'],
      ['[k8s.io] NRI plugin synchronization', 'skip'],
    ]);
    expect(counts).toEqual({ ran: 4, passed: 1, failed: 1, skipped: 2 });
    expect(critestSummary(counts)).toBe('4 ran: 1 passed, 1 failed, 2 skipped');
  });

  it("reads a skip's reason without ginkgo's prefix, and a failure's message with its references decoded", () => {
    expect(specs[1].message).toBe(
      'spec discrepancy: runtime does not populate container name in NRI CreateContainer event metadata',
    );
    expect(specs[2].message).toContain('Id or size of image "localhost/busybox:latest" is not set\nIn [BeforeEach]');
  });

  it('refuses a report with no testcase, and a status it does not know, rather than count nothing', () => {
    expect(() => parseCritestJunit('<testsuites></testsuites>')).toThrow(/no <testcase>/);
    expect(() => parseCritestJunit('<testcase name="[It] x" status="pending"></testcase>')).toThrow(
      /spec "x" has status "pending"/,
    );
  });
});

describe("critest's race specs, run several times", () => {
  it('fold into the outcomes seen, with how often, leaving out runs where the spec did not run', () => {
    const lost = { status: 'skip', message: 'spec discrepancy: containerd loses containers' };
    expect(foldRuns('r', [{ status: 'pass' }, lost, undefined, { status: 'pass' }])).toEqual({
      name: 'r',
      status: 'pass+skip',
      runs: { pass: 2, skip: 1 },
      message: lost.message,
    });
    expect(foldRuns('r', [lost, lost]).status).toBe('skip');
  });

  it('agree unless how often each side passed differs beyond chance, or one side failed', () => {
    const of = (pass: number, skip: number, fail = 0) =>
      foldRuns('r', [
        ...Array.from({ length: pass }, () => ({ status: 'pass' })),
        ...Array.from({ length: skip }, () => ({ status: 'skip' })),
        ...Array.from({ length: fail }, () => ({ status: 'fail', message: 'x' })),
      ]);
    const agrees = (real: unknown, sim: unknown) => compareVerdicts([real], [sim]).agreeing === 1;
    expect(agrees(of(1, 5), of(4, 2))).toBe(true);
    expect(agrees(of(0, 6), of(2, 4))).toBe(true);
    expect(agrees(of(1, 5), of(0, 6))).toBe(true);
    expect(agrees(of(0, 6), of(6, 0))).toBe(false);
    expect(agrees(of(2, 10), of(0, 12))).toBe(true); // the simulator before it modelled the race: too few runs to tell
    expect(agrees(of(5, 15), of(0, 20))).toBe(false);
    expect(agrees(of(1, 4, 1), of(1, 5))).toBe(false);
  });

  it("Fisher's exact test gives the textbook values", () => {
    // Fisher's tea tasting: 3 of 4 against 1 of 4, two-sided p = 34/70.
    expect(fisherExact(3, 4, 1, 4)).toBeCloseTo(34 / 70, 10);
    expect(fisherExact(0, 6, 6, 6)).toBeCloseTo(2 / 924, 10);
    expect(fisherExact(2, 5, 2, 5)).toBeCloseTo(1, 10);
  });

  it('show on the page as the outcomes over all runs, side by side', () => {
    const record = (pass: number, skip: number) => ({
      measured: measured('2026-11-28 11:00 UTC', 'ddddddd'),
      against: 'x',
      wallMs: 1000,
      counts: { ran: 1, passed: 0, failed: 0, skipped: 1 },
      specs: [
        foldRuns('race', [
          ...Array.from({ length: pass }, () => ({ status: 'pass' })),
          ...Array.from({ length: skip }, () => ({ status: 'skip', message: 'lost' })),
        ]),
      ],
    });
    const page = renderPage({
      generated: measured('2026-11-28 11:00 UTC', 'ddddddd'),
      conformance: [],
      critest: [
        {
          target: CRITEST_TARGETS[0],
          real: { state: 'fresh', record: record(1, 5) },
          sim: { state: 'fresh', record: record(4, 2) },
        },
      ],
    });
    expect(page).toContain('| `race` | pass 1, skip 5 of 6 / pass 4, skip 2 of 6 ✓ |');
  });

  it("are critest's two Synchronize holds, named as a real run's report names them", () => {
    const kept = JSON.parse(
      readFileSync(
        fileURLToPath(new URL('../../docs/fidelity/critest-containerd-2.3-real.json', import.meta.url)),
        'utf8',
      ),
    );
    const names = kept.specs.map((s: any) => s.name);
    for (const race of CRITEST_RACES) expect(names.filter((n: string) => n.includes(race))).toHaveLength(1);
  });
});

describe("conformance's JSON report", () => {
  const r = parseConformanceReport(fixture('conformance-report.json'));

  it('keeps the runtime, the summary and each verdict with its reason and known gap', () => {
    expect(r.runtime).toBe('containerd v2.3.4');
    expect(r.nri).toBe('NRI v0.12.0');
    expect(r.verdicts).toEqual([
      { name: 'pod-lifecycle', status: 'pass' },
      {
        name: 'adjust/resources',
        status: 'fail',
        reason: 'expected ContainerStatus of c to show CPU shares 384 as the plugin set them, saw 512',
      },
      {
        name: 'container-lifecycle',
        status: 'fail',
        reason: 'expected CreateContainer of container c to carry its name "c", saw ""',
        known: 'cri-o#10011',
      },
      { name: 'update-pod/relayed', status: 'skip', reason: 'the runtime does not send UpdatePodSandbox (NRI v0.9.0)' },
    ]);
    expect(conformanceSummary(r.summary)).toBe(
      '4 checks in 41.2 s: 1 passed, 2 failed (1 known gap), 1 skipped, 0 errors',
    );
  });

  it('names what is wrong with another shape', () => {
    expect(() => parseConformanceReport('Error: no CRI socket')).toThrow(/conformance JSON: not JSON/);
    expect(() =>
      parseConformanceReport(
        '{"target":{"runtime":"x"},"summary":{"total":1},"verdicts":[{"name":"a","status":"ok"}]}',
      ),
    ).toThrow('conformance JSON: verdict a has status "ok"');
  });
});

describe('stripping machine paths', () => {
  const repo = join(tmpdir(), 'kit', 'checkout');
  const strip = pathStripper({ [OUT]: '$NRI_REAL_OUT', [repo]: '<repo>', [tmpdir()]: '<tmp>' });

  it('names the kit, the checkout and the temporary directory, the longest first', () => {
    expect(strip(`CRI ${OUT}/crio/run/crio.sock, ${repo}/bin/run.js, ${tmpdir()}/nrictl-x/cri.sock`)).toBe(
      'CRI $NRI_REAL_OUT/crio/run/crio.sock, <repo>/bin/run.js, <tmp>/nrictl-x/cri.sock',
    );
  });

  it("replaces a directory only whole, and any other machine path, but keeps the system's own", () => {
    expect(
      strip(`at ${OUT}-2/x and "/srv/builder/go/src/nri.go:12" then /etc/containers/policy.json and /dev/null`),
    ).toBe('at <tmp>/kit/nri-real-2/x and "<path>" then /etc/containers/policy.json and /dev/null');
    expect(strip('Requested CPUs are not available - requested , available: 0-1')).toBe(
      'Requested CPUs are not available - requested , available: 0-1',
    );
  });

  it('strips every string of a parsed report, keeping its shape', () => {
    const parsed = parseConformanceReport(fixture('conformance-report.json'));
    const stripped = stripPaths({ target: JSON.parse(fixture('conformance-report.json')).target, parsed }, strip);
    expect(stripped.target.criSocket).toBe('$NRI_REAL_OUT/containerd/run/containerd.sock');
    expect(stripped.parsed).toEqual(parsed);
    const critest = stripPaths(parseCritestJunit(fixture('critest-nri.xml')), strip);
    expect(JSON.stringify(critest)).not.toContain(tmpdir());
    expect(critest.specs[2].message).toContain(
      '$NRI_REAL_OUT/critest/gopath/src/sigs.k8s.io/cri-tools/pkg/framework/util.go:373',
    );
  });
});

const measured = (date: string, nrictl: string) => ({ date, nrictl });

function conformanceRecord(id: string, verdicts: any[], m = measured('2026-11-27 10:00 UTC', 'aaaaaaa')) {
  const passed = verdicts.filter((v) => v.status === 'pass').length;
  const failed = verdicts.filter((v) => v.status === 'fail').length;
  return {
    id: `conformance-${id}`,
    kind: 'conformance',
    target: id,
    measured: m,
    wallMs: 41_000,
    runtime: 'containerd v2.3.4',
    nri: 'NRI v0.12.0',
    summary: {
      total: verdicts.length,
      passed,
      failed,
      knownGaps: 0,
      skipped: verdicts.length - passed - failed,
      errors: 0,
      durationMs: 40_000,
    },
    verdicts,
    leftovers: [],
    interrupted: false,
  };
}

describe('carrying over kept results', () => {
  const kept = { a: { kept: true }, b: { kept: true } };
  const slots = mergeResults(
    ['a', 'b', 'c'],
    kept,
    { b: { fresh: true } },
    { a: 'the runtime is not up', c: 'critest is not built' },
  );

  it('shows what this run measured, else the kept result with why it was not measured, else nothing', () => {
    expect(slots).toEqual({
      a: { state: 'carried', record: { kept: true }, why: 'the runtime is not up' },
      b: { state: 'fresh', record: { fresh: true } },
      c: { state: 'missing', why: 'critest is not built' },
    });
  });

  it('compares verdicts by name, counting agreement only where both sides judged', () => {
    const c = compareVerdicts(
      [
        { name: 'x', status: 'pass' },
        { name: 'y', status: 'fail' },
        { name: 'z', status: 'skip' },
      ],
      [
        { name: 'y', status: 'pass' },
        { name: 'x', status: 'pass' },
        { name: 'w', status: 'pass' },
      ],
    );
    expect(c.rows.map((r: any) => [r.name, r.agree])).toEqual([
      ['x', true],
      ['y', false],
      ['z', undefined],
      ['w', undefined],
    ]);
    expect([c.agreeing, c.compared]).toEqual([1, 2]);
  });
});

describe('the page', () => {
  const [ctd, crio, verify, isulad] = CONFORMANCE_TARGETS;
  const real = conformanceRecord('containerd-2.3', [
    { name: 'pod-lifecycle', status: 'pass' },
    { name: 'adjust/resources', status: 'error', reason: 'could not read cpu.shares | stale' },
  ]);
  const preset = { report: parseConformanceReport(fixture('conformance-report.json')) };
  const critestReal = {
    id: 'critest-containerd-2.3-real',
    kind: 'critest',
    measured: measured('2026-11-28 04:50 UTC', 'bbbbbbb'),
    against: 'containerd v2.3.4',
    wallMs: 52_000,
    ...parseCritestJunit(fixture('critest-nri.xml').replace('status="failed"', 'status="passed"')),
  };
  const page = renderPage({
    generated: measured('2026-11-28 05:00 UTC', 'ccccccc'),
    conformance: [
      { target: ctd, slot: { state: 'carried', record: real, why: 'containerd of the kit is not up' }, preset },
      {
        target: crio,
        slot: { state: 'fresh', record: { ...real, measured: measured('2026-11-28 05:00 UTC', 'ccccccc') } },
        preset,
      },
      { target: verify, slot: { state: 'missing', why: 'CRI-O runs with the stock image policy' }, preset },
      {
        target: isulad,
        slot: { state: 'missing', why: 'isulad of the kit is not up' },
        preset: { error: 'conformance exited 2' },
      },
    ],
    critest: [
      {
        target: CRITEST_TARGETS[0],
        real: { state: 'fresh', record: critestReal },
        sim: { state: 'fresh', record: { ...critestReal, ...parseCritestJunit(fixture('critest-nri.xml')) } },
      },
      {
        target: CRITEST_TARGETS[1],
        real: { state: 'missing', why: 'critest is not built' },
        sim: { state: 'missing', why: 'critest is not built' },
      },
    ],
  });

  it('marks a carried-over result with the date and commit it was measured with, and why it was not measured again', () => {
    expect(page).toContain(
      '**carried over** from 2026-11-27 10:00 UTC, nrictl aaaaaaa (not measured again: containerd of the kit is not up)',
    );
    expect(page).toContain('measured 2026-11-28 05:00 UTC, nrictl ccccccc');
    expect(page).toContain('**not measured**: CRI-O runs with the stock image policy');
    expect(page).toContain('**not measured**: conformance exited 2');
  });

  it('shows real against preset per check, with how many agree and why they differ', () => {
    expect(page).toMatch(/\| `pod-lifecycle` \| pass \/ pass ✓ \| pass \/ pass ✓ \| — \/ pass \| — \|/);
    expect(page).toMatch(/\| `adjust\/resources` \| ERROR \/ FAIL ✗ \| ERROR \/ FAIL ✗ \|/);
    expect(page).toMatch(/\| `container-lifecycle` \| — \/ FAIL \|/);
    expect(page).toMatch(
      /\| containerd-2\.3 \| containerd v2\.3\.4 \(NRI v0\.12\.0\) \| 2 checks in 40\.0 s: 1 passed, 0 failed, 1 skipped, 0 errors; \*\*carried over\*\*.* \| 41\.0 s \| 4 checks in 41\.2 s: .* \| 1 of 2 \|/,
    );
    expect(page).toContain('- crio-1.32, verifying images: not compared: there is no result on both sides.');
    expect(page).toContain(
      '- containerd-2.3, `adjust/resources`: real ERROR: could not read cpu.shares \\| stale; preset FAIL: expected ContainerStatus of c to show CPU shares 384 as the plugin set them, saw 512',
    );
  });

  it("shows critest's specs real against simulator, and lists where they differ", () => {
    expect(page).toContain(
      '| containerd-2.3 | containerd v2.3.4 | 4 ran: 2 passed, 0 failed, 2 skipped in 52.0 s; measured 2026-11-28 04:50 UTC, nrictl bbbbbbb | 4 ran: 1 passed, 1 failed, 2 skipped in 52.0 s;',
    );
    expect(page).toMatch(
      /\| `\[k8s\.io\] NRI RunPodSandbox contract should not expose sandbox while RunPodSandbox hook is in progress` \| pass \/ FAIL ✗ \| — \|/,
    );
    expect(page).toContain(
      '- containerd-2.3, `[k8s.io] NRI RunPodSandbox contract should not expose sandbox while RunPodSandbox hook is in progress`: real pass; simulator FAIL: [FAILED] failed to get image status',
    );
    expect(page).toContain('- crio-1.32: not compared: there is no result on both sides.');
  });
});

describe("CRI-O's image policy, from the crio.conf the kit rendered", () => {
  it('is stock with an empty signature_policy, verifying with a file, unknown without the key', () => {
    expect(crioImagePolicy('[crio.image]\nsignature_policy = ""\nsignature_policy_dir = "/x"\n')).toBe('stock');
    expect(crioImagePolicy('[crio.image]\nsignature_policy = "/x/policy.json"\n')).toBe('verify');
    expect(crioImagePolicy('[crio.image]\n# signature_policy = "/x"\n')).toBeUndefined();
  });
});

// The script's own arguments, refused before it looks for nrictl's build or the kit.
describe('npm run fidelity, given a bad argument', () => {
  const script = fileURLToPath(new URL('../../scripts/fidelity.mjs', import.meta.url));
  it.each([
    [['--race-runs', 'x'], 'fidelity: --race-runs: x is not a whole number; see --help\n'],
    [['--race-runs'], 'fidelity: --race-runs: (none) is not a whole number; see --help\n'],
    [['--race-runs=-1'], 'fidelity: --race-runs: -1 is not a whole number; see --help\n'],
    [['--only', 'nosuch'], 'fidelity: --only: unknown runtime nosuch; see --help\n'],
  ])('%j: one line naming it, exit 2', (args, line) => {
    const r = spawnSync(process.execPath, [script, ...args], {
      encoding: 'utf8',
      env: { ...process.env, NRI_REAL_OUT: '' },
    });
    expect(r.stderr).toBe(line);
    expect(r.status).toBe(2);
  });
});
