// Each preset gives the verdicts its real runtime is known to give (nri-contract.md,
// "Known runtime results"), or, where nothing is known, what the runtime's source says
// (docs/conformance.md has the table and its sources). Every check not listed passes.
// Conformance labels its containers as the kubelet does, so CRI-O's presets show plugins
// the container's name (cri-o#10011 bites only requests without the kubelet's label).
import { describe, expect, it } from 'vitest';
import { runMatrix } from '../../src/conformance/index.js';
import { conformanceMatrixJunit } from '../../src/views/index.js';

type Expected = Record<string, string>;

const UPDATE_POD = [
  'update-pod/relayed',
  'update-pod/rejection',
  'update-pod/rejected-values-not-applied',
  'update-pod/post-failure-harmless',
];
const skipsPodUpdates: Expected = Object.fromEntries(UPDATE_POD.map((c) => [c, 'skip']));
const noReuse: Expected = { 'stop-pod/no-reuse': 'fail containerd#13599' };
const crioNoPost: Expected = {
  'update-pod/relayed': 'fail cri-o internal/nri',
  'update-pod/rejection': 'fail cri-o internal/nri',
  'update-pod/post-failure-harmless': 'fail cri-o internal/nri',
};

const EXPECTED: Record<string, Expected | 'not applicable'> = {
  'containerd-1.7.0': { ...noReuse, ...skipsPodUpdates },
  'containerd-1.7.13': { ...noReuse, ...skipsPodUpdates },
  'containerd-1.7.25': {
    ...noReuse,
    ...skipsPodUpdates,
    'sync/created-during-sync': 'fail containerd#11384',
    'sync/created-during-sync-under-load': 'fail containerd#11384',
  },
  'containerd-1.7.34': { ...noReuse, ...skipsPodUpdates },
  'containerd-2.0': { ...noReuse, ...skipsPodUpdates },
  'containerd-2.1': { ...noReuse, ...skipsPodUpdates },
  'containerd-2.2.0': { ...noReuse, ...skipsPodUpdates },
  'containerd-2.2.1': { ...skipsPodUpdates },
  'containerd-2.3': {},
  'crio-1.32': { ...skipsPodUpdates },
  'crio-1.33': { ...skipsPodUpdates },
  'crio-1.34': { ...crioNoPost },
  'crio-1.35': { ...crioNoPost },
  'crio-1.36': { ...crioNoPost },
  'docker-29': 'not applicable',
  'isulad-2.1.5': {
    ...skipsPodUpdates,
    'run-pod/hook-error-leaves-nothing': 'fail',
    'create-container/hook-error-leaves-nothing': 'fail',
    'teardown/index-order': 'fail',
    'ordering/index-order-and-held-back': 'fail',
    'adjust/env': 'fail',
  },
};

describe('--preset all', () => {
  it('gives each preset the verdicts its runtime is known to give, and JUnit per preset', async () => {
    const m = await runMatrix({ signal: new AbortController().signal });
    const seen: Record<string, Expected | 'not applicable'> = {};
    for (const p of m.presets) {
      if (p.notApplicable) {
        seen[p.preset] = 'not applicable';
        continue;
      }
      seen[p.preset] = Object.fromEntries(
        p.verdicts
          .filter((v) => v.status !== 'pass')
          .map((v) => [v.name, [v.status, v.known?.ref].filter(Boolean).join(' ')]),
      );
    }
    expect(seen).toEqual(EXPECTED);
    expect(m.presets.find((p) => p.preset === 'docker-29')?.notApplicable).toMatch(/^Docker serves no CRI/);
    expect(m.exitCode).toBe(1);

    const xml = conformanceMatrixJunit(m);
    expect(xml.match(/<testsuite /g)).toHaveLength(15);
    expect(xml).toMatch(
      /<failure message="expected CreateContainer of c in pod p-c\d+ to fail, saw it create container/,
    );
    expect(xml).toContain('[known: containerd#13599]" type="known-gap"');
    expect(xml).toMatch(/<skipped message="the runtime&apos;s CRI has no UpdatePodSandboxResources/);
  });
});
