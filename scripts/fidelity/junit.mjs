// critest's JUnit report (ginkgo's) read into one verdict per spec that ran. ginkgo lists
// every spec of the suite: those left out by -ginkgo.focus are "skipped" with the bare
// message "skipped", a spec's own Skip() says "skipped - <reason>". Suite nodes
// ([BeforeSuite], [SynchronizedAfterSuite], ...) are not specs.

const ENTITIES = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** XML character and entity references, decoded. */
export function decodeXml(text) {
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-z]+);/g, (whole, ref) => {
    if (ref.startsWith('#x')) return String.fromCodePoint(parseInt(ref.slice(2), 16));
    if (ref.startsWith('#')) return String.fromCodePoint(parseInt(ref.slice(1), 10));
    return ENTITIES[ref] ?? whole;
  });
}

function attribute(tag, name) {
  const m = new RegExp(`\\s${name}="([^"]*)"`).exec(tag);
  return m ? decodeXml(m[1]) : undefined;
}

const FAILED = new Set(['failed', 'panicked', 'timedout', 'aborted', 'interrupted']);

/**
 * The specs that ran: { name, status: 'pass'|'fail'|'skip', message? }, in report order, and
 * their counts. A report without a testcase is an error: a run that wrote nothing is not
 * "0 specs".
 */
export function parseCritestJunit(xml) {
  const specs = [];
  const cases = [...xml.matchAll(/<testcase\b([^>]*?)(\/>|>([\s\S]*?)<\/testcase>)/g)];
  if (cases.length === 0) throw new Error('critest JUnit report: no <testcase> in it');
  for (const [, attrs, , body = ''] of cases) {
    const raw = attribute(attrs, 'name') ?? '';
    if (!raw.startsWith('[It] ')) continue;
    const name = raw.slice('[It] '.length).trim();
    const status = attribute(attrs, 'status') ?? '';
    if (status === 'passed') {
      specs.push({ name, status: 'pass' });
    } else if (status === 'skipped') {
      const message = attribute(/<skipped\b[^>]*>/.exec(body)?.[0] ?? '', 'message') ?? 'skipped';
      if (message === 'skipped') continue; // left out by the focus: it did not run
      specs.push({ name, status: 'skip', message: message.replace(/^skipped - /, '') });
    } else if (FAILED.has(status)) {
      const failure = /<failure\b[^>]*>/.exec(body)?.[0] ?? '';
      specs.push({ name, status: 'fail', message: attribute(failure, 'message') ?? status });
    } else {
      throw new Error(`critest JUnit report: spec "${name}" has status "${status}", which this script does not know`);
    }
  }
  return { specs, counts: countSpecs(specs) };
}

/** { ran, passed, failed, skipped } of a list of spec verdicts. */
export function countSpecs(specs) {
  const of = (s) => specs.filter((x) => x.status === s).length;
  return { ran: specs.length, passed: of('pass'), failed: of('fail'), skipped: of('skip') };
}

/** "13 ran: 11 passed, 0 failed, 2 skipped", as the kit's run-critest.sh says it. */
export function critestSummary(counts) {
  return `${counts.ran} ran: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`;
}

/**
 * A spec run several times, as one verdict: its status names the outcomes seen ("pass",
 * "skip", "pass+skip"), and `runs` counts each. `runs` is the spec's verdict in each run
 * (its first run's verdict first), absent where the spec did not run.
 */
export function foldRuns(name, runs) {
  const seen = runs.filter(Boolean);
  const runsOf = Object.fromEntries(
    ['pass', 'fail', 'skip'].map((s) => [s, seen.filter((v) => v.status === s).length]).filter(([, n]) => n > 0),
  );
  const status = Object.keys(runsOf).join('+');
  const last = [...seen].reverse().find((v) => v.message);
  return { name, status, runs: runsOf, ...(last ? { message: last.message } : {}) };
}
