// A runtime that names pods its own way to plugins (iSulad: k8s_POD_<name>_<ns>_<uid>_<attempt>)
// still passes the CRI uid on. Conformance must then find its pods by the uid: the canary
// that proves delivery arrives at once, and only the checks that judge the name fail.
// Before, the canary was looked for by name alone: on real iSulad every check with a
// canary waited out its 30 s and erred "a canary pod's RunPodSandbox did not reach it".
import { describe, expect, it } from 'vitest';
import { CHECKS, runOnSimulator } from '../../src/conformance/index.js';

const stop = new AbortController().signal;

/** The checks that judge the pod's name in an event, and what they must say. */
const JUDGE_THE_NAME: Record<string, RegExp> = {
  'pod-lifecycle': /RunPodSandbox to carry name\/namespace\/uid p-c\d+\/.* saw k8s_POD_p-c\d+_/,
  'update-pod/relayed': /UpdatePodSandbox to carry the pod's name and uid, saw k8s_POD_p-c\d+_/,
  'update-pod/rejection': /UpdatePodSandbox to carry the pod's name and uid, saw k8s_POD_p-c\d+_/,
};

describe('conformance against a runtime that names pods its own way', () => {
  it('finds every pod by its uid: no error, and only the name is failed', async () => {
    const r = await runOnSimulator({ faults: ['pods-named-by-runtime'], signal: stop });
    expect(r.verdicts.map((v) => v.name)).toEqual(CHECKS.map((c) => c.name));
    const wrong = r.verdicts
      .filter((v) =>
        JUDGE_THE_NAME[v.name]
          ? v.status !== 'fail' || !JUDGE_THE_NAME[v.name].test(v.reason ?? '')
          : v.status !== 'pass',
      )
      .map((v) => `${v.name}: ${v.status} ${v.reason ?? ''}`);
    expect(wrong).toEqual([]);
    expect(r.leftovers).toEqual([]);
  }, 120_000);
});
