// Differential checks against the Go NRI adaptation, without Go: each fixture in
// test/fixtures/go-reference holds what the Go adaptation (containerd/nri v0.12.2
// pkg/adaptation, run by refrt) made of the NRI sample plugins' answers on a pod and some
// containers. The same answers are replayed here by SDK plugins against the simulator,
// which must call the same plugins in the same order, hand each the container as Go
// handed it, merge the same adjustment, and fail the same creations for the same reason.
// How the fixtures were made: test/fixtures/go-reference/README.md.
import { beforeAll, describe, expect, it } from 'vitest';
import { CASES, DIFF_POD } from './differential/cases.js';
import { loadGoFixtures } from './differential/fixture.js';
import { fromGo } from './differential/nri-json.js';
import { GO_PLUGIN_ERROR_PREFIX, goConflict, handedFields, replay, type Replayed } from './differential/replay.js';

describe('the Go reference fixtures', () => {
  // A case edited without recording it again under Go would test nothing it claims to.
  it('hold every differential case, recorded from its current definition', () => {
    const fixtures = loadGoFixtures();
    expect(fixtures.map((f) => f.case).sort()).toEqual(CASES.map((c) => c.name).sort());
    for (const c of CASES) {
      const f = fixtures.find((x) => x.case === c.name)!;
      expect({ plugins: f.plugins, pod: f.pod, containers: f.containers }).toEqual({
        plugins: c.plugins,
        pod: { ...DIFF_POD, annotations: c.podAnnotations },
        containers: c.containers,
      });
      expect(f.go.creates.map((x) => x.container)).toEqual(c.containers.map((x) => x.id));
    }
  });
});

for (const f of loadGoFixtures()) {
  describe(`against Go: ${f.case}`, () => {
    let replayed: Replayed[] = [];
    beforeAll(async () => {
      replayed = await replay(f);
    });
    const sim = (container: string): Replayed => replayed.find((r) => r.container === container)!;

    for (const go of f.go.creates) {
      const id = go.container;
      it(`${id}: the plugins Go called are called, in the same order`, () => {
        expect(sim(id).calls).toEqual(go.calls.map((c) => c.plugin));
      });

      if (go.ok) {
        it(`${id}: created, with the adjustment Go merged`, () => {
          expect(sim(id).messages).toEqual([]);
          expect(sim(id).ok).toBe(true);
          expect(sim(id).adjust).toEqual(fromGo('ContainerAdjustment', go.adjust ?? {}));
          expect(sim(id).updates ?? []).toEqual(go.update ?? []);
        });
      }

      const conflict = go.error === undefined ? undefined : goConflict(go.error);
      if (conflict) {
        it(`${id}: refused for the conflict Go found (${conflict.field}${conflict.key ? ` ${conflict.key}` : ''}), naming the same plugins`, () => {
          expect(sim(id).ok).toBe(false);
          const c = sim(id).conflict;
          expect(c && { plugins: c.plugins, field: c.field, ...(c.key !== undefined ? { key: c.key } : {}) }).toEqual(
            conflict,
          );
        });
        it(`${id}: the conflict message reads as Go's`, () => {
          expect(sim(id).messages).toEqual([go.error]);
        });
      } else if (!go.ok) {
        const own = go.error!.replace(GO_PLUGIN_ERROR_PREFIX, '');
        it(`${id}: refused because the plugin failed, with its error`, () => {
          expect(sim(id).ok).toBe(false);
          expect(sim(id).messages).toHaveLength(1);
          expect(sim(id).messages[0]).toContain(own);
        });
        // Go hands the runtime the plugin's ttrpc status as is, naming no plugin.
        it(`${id}: the failure message reads as Go's`, () => {
          expect(sim(id).messages).toEqual([go.error]);
        });
      }

      for (const [plugin, seen] of Object.entries(go.seen ?? {})) {
        it(`${id}: ${plugin} is handed the container as Go handed it (earlier plugins' changes included)`, () => {
          expect(handedFields(sim(id).handed[plugin])).toEqual(handedFields(fromGo('Container', seen)));
        });
      }
    }
  });
}
