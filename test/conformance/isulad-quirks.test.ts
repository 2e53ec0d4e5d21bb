// Where real iSulad (master d2434895, the real-runtime kit) breaks the contract, the
// isulad-2.1.5 preset fails the same checks with the same words: each expectation below is
// the reason the kit's iSulad gave (docs/fidelity/conformance-isulad-2.1.5.json), with ids,
// namespaces and waits left open. Without the quirk named, each check passes.
import { describe, expect, it } from 'vitest';
import { runOnSimulator } from '../../src/conformance/index.js';

const stop = new AbortController().signal;
const NS = 'nrictl-conformance-[0-9a-f]{8}';
const UID = '[0-9a-f]{8}-p-c\\d+';

const SEEN_ON_ISULAD: Array<{ check: string; quirk: string; reason: RegExp }> = [
  {
    check: 'pod-lifecycle',
    quirk: 'runtimeNames',
    reason: new RegExp(
      `^expected RunPodSandbox to carry name/namespace/uid p-c\\d+/${NS}/${UID}, saw k8s_POD_p-c\\d+_${NS}_${UID}_1/${NS}/${UID}$`,
    ),
  },
  {
    check: 'container-lifecycle',
    quirk: 'runtimeNames',
    reason: new RegExp(
      `^expected PostCreateContainer of container c to carry its name "c", saw "k8s_c_p-c\\d+_${NS}_${UID}_0"$`,
    ),
  },
  {
    check: 'container-exits-by-itself',
    quirk: 'noStopEventOnExit',
    reason: /^expected StopContainer for container c, saw nothing within \d+ ms$/,
  },
  {
    check: 'run-pod/hidden-while-hook-runs',
    quirk: 'podLiveDuringRunHook',
    reason:
      /^expected no pod p-c\d+ in ListPodSandbox while its RunPodSandbox hook runs, saw [0-9a-f]{64} \(SANDBOX_READY\)$/,
  },
  {
    // Created while the hook is held (iSulad's NRI takes no lock); judged after the hold
    // where the call took longer than the simulator's 30 ms window (a loaded machine).
    check: 'run-pod/no-workload-before-hook-returns',
    quirk: 'podLiveDuringRunHook',
    reason:
      /^expected CreateContainer into pod p-c\d+ to fail while its RunPodSandbox hook runs, saw it (wait for the hook, then )?create container [0-9a-f]{64}$/,
  },
  {
    check: 'stop-pod/idempotent',
    quirk: 'stopPodEventEveryTime',
    reason: /^expected 1 StopPodSandbox for pod p-c\d+, saw 2$/,
  },
  {
    check: 'remove-pod/stops-first',
    quirk: 'podTeardownOnlyPodEvents',
    reason:
      /^expected StopContainer, StopPodSandbox, RemoveContainer, RemovePodSandbox for pod p-c\d+, saw RemovePodSandbox$/,
  },
  {
    check: 'invalid/create-without-metadata',
    quirk: 'acceptsMissingMetadata',
    reason: /^expected CreateContainer without metadata to fail, saw it succeed$/,
  },
  {
    check: 'invalid/run-pod-without-metadata',
    quirk: 'acceptsMissingMetadata',
    reason: /^expected RunPodSandbox without metadata to fail, saw it succeed$/,
  },
];

describe('conformance --sim --preset isulad-2.1.5 fails where the kit’s iSulad fails, in its words', () => {
  it('for each of the checks its quirks break, and leaves nothing behind', async () => {
    const r = await runOnSimulator({
      preset: 'isulad-2.1.5',
      focus: SEEN_ON_ISULAD.map((s) => s.check),
      signal: stop,
    });
    const got = r.verdicts.map((v) => ({ check: v.name, status: v.status, reason: v.reason ?? '' }));
    for (const s of SEEN_ON_ISULAD) {
      const v = got.find((g) => g.check === s.check);
      expect({ check: s.check, quirk: s.quirk, status: v?.status }).toEqual({
        check: s.check,
        quirk: s.quirk,
        status: 'fail',
      });
      expect(v?.reason).toMatch(s.reason);
    }
    expect(r.leftovers).toEqual([]);
  }, 60_000);

  it('passes the sync checks, as the kit’s iSulad does once the SDK takes events during Synchronize', async () => {
    const r = await runOnSimulator({ preset: 'isulad-2.1.5', focus: ['sync'], signal: stop });
    expect(r.verdicts.map((v) => [v.name, v.status, v.reason ?? ''])).toEqual([
      ['sync/late-plugin-sees-state', 'pass', ''],
      ['sync/created-during-sync', 'pass', ''],
      ['sync/created-during-sync-under-load', 'pass', ''],
    ]);
  }, 60_000);
});
