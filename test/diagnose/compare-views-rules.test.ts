// The rules of doctor's comparison, on lists made by hand: what no simulator run makes
// (a runtime that loses a container, or hands plugins one its CRI does not know) and
// the races that a run makes only by chance (an object that comes or goes between the
// lists). The runs that do make each reason are in compare-views.test.ts.
import { describe, expect, it } from 'vitest';
import { compareViews, type CompareInput, type Listing } from '../../src/diagnose/compare-views.js';

const pod = (id: string, state: 'ready' | 'notready' = 'ready') => ({ id, name: `pod-${id}`, namespace: 'ns', state });
const ctr = (id: string, podId: string, state: 'running' | 'exited' | 'created' | 'unknown' = 'running') => ({
  id,
  podId,
  name: `ctr-${id}`,
  state,
});
const listing = (pods: Listing['pods'], containers: Listing['containers'] = []): Listing => ({ pods, containers });

function compare(input: Partial<CompareInput> & Pick<CompareInput, 'before' | 'synchronized' | 'after'>) {
  return compareViews({
    criSocket: '/run/containerd/containerd.sock',
    criChoice: 'CRI socket /run/containerd/containerd.sock (as given)',
    criRuntime: 'containerd v2.3.4',
    family: 'containerd',
    sightings: [],
    ...input,
  });
}

describe('compareViews', () => {
  it('a container CRI lists before and after, running, that NRI did not hand over: a warning, by name', () => {
    const both = listing([pod('p1')], [ctr('c1', 'p1'), ctr('c2', 'p1')]);
    const { comparison, findings } = compare({
      before: both,
      synchronized: listing([pod('p1')], [ctr('c1', 'p1')]),
      after: both,
    });
    expect(comparison.differences).toEqual([
      expect.objectContaining({
        id: 'c2',
        name: 'ns/pod-p1/ctr-c2',
        in: 'cri',
        reason: 'not-handed-over',
        expected: false,
      }),
    ]);
    expect(findings.map((f) => [f.severity, f.code])).toEqual([['warning', 'cri-not-synchronized']]);
    expect(findings[0].message).toMatch(
      /^CRI lists 1 container that the runtime's NRI Synchronize did not hand over.*\(container ns\/pod-p1\/ctr-c2 c2\)/,
    );
  });

  it('a pod NRI handed over that CRI lists neither before nor after, and no event removed: a warning', () => {
    const cri = listing([pod('p1')]);
    const { comparison, findings } = compare({
      before: cri,
      synchronized: listing([pod('p1'), pod('stale')]),
      after: cri,
    });
    expect(comparison.differences).toEqual([
      expect.objectContaining({ object: 'pod', id: 'stale', in: 'nri', reason: 'unknown-to-cri', expected: false }),
    ]);
    expect(findings.map((f) => f.code)).toEqual(['nri-unknown-to-cri']);
  });

  it('what is in one CRI list only came or went while doctor looked: counted, never a difference', () => {
    const { comparison, findings } = compare({
      before: listing([pod('p1'), pod('gone')], [ctr('c-gone', 'gone')]),
      synchronized: listing([pod('p1'), pod('new')]),
      after: listing([pod('p1'), pod('new')]),
    });
    expect(comparison.differences).toEqual([]);
    expect(comparison.changed).toEqual({ pods: 2, containers: 1 });
    expect(findings).toEqual([]);
  });

  it('what an event after the Synchronize explains is counted as changed: created late, or removed (with its pod) before the second list', () => {
    const { comparison } = compare({
      // c-late: listed by CRI before the Synchronize while its creation went on, handed over
      // only by its PostCreateContainer after it; p-old and its container went after it.
      before: listing([pod('p1'), pod('p-old')], [ctr('c-late', 'p1', 'created')]),
      synchronized: listing([pod('p1'), pod('p-old')], [ctr('c-old', 'p-old')]),
      after: listing([pod('p1')], [ctr('c-late', 'p1', 'created')]),
      sightings: [
        { event: 'PostCreateContainer', podId: 'p1', containerId: 'c-late' },
        { event: 'RemovePodSandbox', podId: 'p-old' },
      ],
    });
    expect(comparison.differences).toEqual([]);
    expect(comparison.changed).toEqual({ pods: 1, containers: 2 });
  });

  it("takes CRI's second look for the state: a container that exited while NRI synchronized is the expected kind", () => {
    const { comparison, findings } = compare({
      before: listing([pod('p1')], [ctr('c1', 'p1', 'running')]),
      synchronized: listing([pod('p1')]),
      after: listing([pod('p1')], [ctr('c1', 'p1', 'exited')]),
    });
    expect(comparison.differences).toEqual([expect.objectContaining({ id: 'c1', reason: 'exited', expected: true })]);
    expect(findings).toEqual([]);
  });

  it('on iSulad, which hands plugins its exited containers too, an exited one missing is not expected', () => {
    const cri = listing([pod('p1')], [ctr('c1', 'p1', 'exited')]);
    const { comparison } = compare({ family: 'isulad', before: cri, synchronized: listing([pod('p1')]), after: cri });
    expect(comparison.differences).toEqual([expect.objectContaining({ reason: 'not-handed-over', expected: false })]);
  });

  it('a pod CRI lists NOTREADY that containerd did not hand over: a sandbox whose state it lost, expected there', () => {
    const cri = listing([pod('p1'), pod('p2', 'notready')]);
    const { comparison, findings } = compare({ before: cri, synchronized: listing([pod('p1')]), after: cri });
    expect(comparison.differences).toEqual([
      expect.objectContaining({ id: 'p2', reason: 'not-ready', expected: true }),
    ]);
    expect(findings).toEqual([]);
    const crio = compare({ family: 'cri-o', before: cri, synchronized: listing([pod('p1')]), after: cri });
    expect(crio.comparison.differences).toEqual([expect.objectContaining({ id: 'p2', reason: 'not-handed-over' })]);
  });

  it('names at most five objects in a finding, and counts the rest', () => {
    const ids = Array.from({ length: 8 }, (_, i) => `c${i}`);
    const cri = listing(
      [pod('p1')],
      ids.map((id) => ctr(id, 'p1')),
    );
    const { findings } = compare({ before: cri, synchronized: listing([pod('p1')]), after: cri });
    expect(findings[0].message).toMatch(/ctr-c4 c4 and 3 more\)/);
  });
});
