// Records the Go reference's results for every differential case into
// test/fixtures/go-reference/<case>.json (see the README there). Needs the Go reference:
//   NRI_GO_REFERENCE=DIR node --import tsx bench/vs-go/differential/record.ts [CASE...]
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { GO_REFERENCE_FIXTURES, type GoFixture } from '../../../test/runtime/differential/fixture.js';
import { requireGoReference } from '../reference.js';
import { CASES, DIFF_POD as POD } from '../../../test/runtime/differential/cases.js';
import { hooksMissing } from './hooks.js';
import { runUnderRefrt } from './reference-run.js';

const ref = requireGoReference();
const only = process.argv.slice(2);
const buildInfo = readFileSync(path.join(ref.dir, 'BUILD-INFO.txt'), 'utf8').split('\n');
const nri = buildInfo.find((l) => l.startsWith('nri: '))?.slice(5) ?? 'unknown';
const go = buildInfo.find((l) => l.startsWith('go: '))?.slice(4) ?? 'unknown';
const noHooks = hooksMissing();
let failed = 0;
for (const c of CASES) {
  if (only.length > 0 && !only.includes(c.name)) continue;
  if (c.needsHooks && noHooks) {
    console.log(`${c.name}: not recorded: ${noHooks}`);
    failed++;
    continue;
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'go-diff-'));
  try {
    const run = runUnderRefrt(c, ref, dir);
    const fixture: GoFixture = {
      case: c.name,
      about: c.about,
      recorded: {
        date: new Date().toISOString().slice(0, 10),
        nri,
        refrt: `refrt of nri-go-reference (${go})`,
        commands: [run.command],
      },
      plugins: c.plugins,
      pod: { ...POD, annotations: c.podAnnotations },
      containers: c.containers,
      go: { creates: run.creates, containers: run.containers },
    };
    writeFileSync(path.join(GO_REFERENCE_FIXTURES, `${c.name}.json`), `${JSON.stringify(fixture, null, 1)}\n`);
    console.log(
      `${c.name}: ${run.creates.map((x) => `${x.container} ${x.ok ? 'ok' : `failed (${x.error})`}`).join('; ')}`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
writeChecksums();
process.exitCode = failed ? 1 : 0;

/** SHA256SUMS of every fixture and hook file (sha256sum's format), which a test checks. */
function writeChecksums(): void {
  const files = [
    ...readdirSync(GO_REFERENCE_FIXTURES).filter((f) => f.endsWith('.json')),
    ...readdirSync(path.join(GO_REFERENCE_FIXTURES, 'hooks.d')).map((f) => `hooks.d/${f}`),
  ].sort();
  const sum = (f: string): string =>
    createHash('sha256')
      .update(readFileSync(path.join(GO_REFERENCE_FIXTURES, f)))
      .digest('hex');
  writeFileSync(path.join(GO_REFERENCE_FIXTURES, 'SHA256SUMS'), files.map((f) => `${sum(f)}  ${f}\n`).join(''));
}
