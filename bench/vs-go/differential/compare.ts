// Runs every differential case under nrictl sim with the Go sample plugins and compares
// with what the Go adaptation did (the fixtures in test/fixtures/go-reference, recorded
// by record.ts): plugins called, each plugin's adjustment, the merged adjustment, the
// outcome and its message, and what a logging plugin was handed. Prints each difference.
//   NRI_GO_REFERENCE=DIR node --import tsx bench/vs-go/differential/compare.ts [CASE...]
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { loadGoFixtures } from '../../../test/runtime/differential/fixture.js';
import { fromGo } from '../../../test/runtime/differential/nri-json.js';
import { handedFields } from '../../../test/runtime/differential/replay.js';
import { requireGoReference } from '../reference.js';
import { CASES } from '../../../test/runtime/differential/cases.js';
import { hooksMissing } from './hooks.js';
import { runUnderSim } from './sim-run.js';

const ref = requireGoReference();
const only = process.argv.slice(2);
/** The logger puts its pid in what it adds; runs differ only in that. */
const samePid = (v: unknown): unknown => JSON.parse(JSON.stringify(v ?? {}).replace(/logger-pid-\d+/g, 'logger-pid-N'));
const fixtures = new Map(loadGoFixtures().map((f) => [f.case, f]));
let differences = 0;
for (const c of CASES) {
  if (only.length > 0 && !only.includes(c.name)) continue;
  const fixture = fixtures.get(c.name);
  if (!fixture) {
    console.log(`${c.name}: no fixture (run record.ts)`);
    continue;
  }
  if (c.needsHooks && hooksMissing()) {
    console.log(`${c.name}: skipped: ${hooksMissing()}`);
    continue;
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sim-diff-'));
  const found: string[] = [];
  const notes = new Set<string>();
  const differ = (what: string, go: unknown, sim: unknown): void => {
    if (!isDeepStrictEqual(samePid(go), samePid(sim)))
      found.push(`${what}\n      Go:  ${JSON.stringify(samePid(go))}\n      sim: ${JSON.stringify(samePid(sim))}`);
  };
  try {
    const sim = await runUnderSim(c, ref, dir);
    for (const go of fixture.go.creates) {
      const s = sim.find((x) => x.container === go.container)!;
      const id = go.container;
      differ(
        `${id}: plugins called`,
        go.calls.map((x) => x.plugin),
        s.calls,
      );
      for (const [i, call] of go.calls.entries()) {
        if (!call.adjust) continue;
        // The simulator reports an adjustment once merged: the answer that conflicted has no event.
        const conflicted = !go.ok && !call.failed && i === go.calls.length - 1;
        if (conflicted && !s.adjusted[call.plugin])
          notes.add(`the adjustment that conflicted (${id}, ${call.plugin}) is not reported by nrictl sim`);
        else
          differ(
            `${id}: ${call.plugin}'s adjustment`,
            fromGo('ContainerAdjustment', call.adjust),
            s.adjusted[call.plugin] ?? {},
          );
      }
      differ(`${id}: outcome`, go.ok ? 'created' : 'failed', s.ok ? 'created' : 'failed');
      if (!go.ok) differ(`${id}: message`, go.error, s.messages.join(' | '));
      if (go.ok) differ(`${id}: merged adjustment`, fromGo('ContainerAdjustment', go.adjust ?? {}), s.merged);
      for (const [plugin, seen] of Object.entries(go.seen ?? {})) {
        differ(
          `${id}: container handed to ${plugin}`,
          handedFields(fromGo('Container', seen)),
          s.seen[plugin] ? handedFields(fromGo('Container', s.seen[plugin])) : undefined,
        );
      }
    }
  } catch (err) {
    found.push(`run failed: ${(err as Error).message}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  differences += found.length;
  console.log(`${c.name}: ${found.length === 0 ? 'same as Go' : `${found.length} difference(s)`}`);
  for (const f of found) console.log(`  - ${f}`);
  for (const n of notes) console.log(`  (note: ${n})`);
}
console.log(`${differences} difference(s) in all`);
