// I of nri-contract.md: pod resource updates (CRI UpdatePodSandboxResources, NRI v0.10+).
import { KNOWN } from '../known.js';
import type { Check } from '../check.js';
import type { Requirement } from '../model.js';
import { connect } from '../steps/holds.js';
import { expectPodState } from '../steps/state.js';
import {
  expectApplied,
  expectPostUpdates,
  expectSyncedPodResources,
  expectUpdateRelayed,
  INITIAL,
  RETRIED,
  runPodWith,
  UPDATED,
  updatePod,
  updatePodFails,
} from '../steps/update-pod.js';

const REQUIRES: Requirement[] = [{ criCall: 'UpdatePodSandboxResources' }, { events: ['UpdatePodSandbox'] }];
const NO_POST = [KNOWN.noPostUpdatePod];
const INJECTED = 'nrictl conformance: injected UpdatePodSandbox failure';

export const UPDATE_POD_CHECKS: Check[] = [
  {
    name: 'update-pod/relayed',
    critest: 21,
    source: 'critest',
    clause:
      'UpdatePodSandboxResources reaches plugins as UpdatePodSandbox (before the call returns, with the values asked for), then PostUpdatePodSandbox',
    plugins: [{ index: '00' }],
    requires: REQUIRES,
    steps: [
      runPodWith('p', INITIAL),
      updatePod('p', UPDATED),
      expectUpdateRelayed('00', 'p', UPDATED, 1),
      expectPostUpdates('00', 'p', 1, NO_POST),
      expectApplied('p', UPDATED),
    ],
  },
  {
    name: 'update-pod/rejection',
    critest: 22,
    source: 'critest',
    clause:
      "a plugin's error in UpdatePodSandbox fails the call with its words, sends no PostUpdatePodSandbox and leaves the pod ready; the next update succeeds",
    plugins: [{ index: '00', rules: [{ on: 'UpdatePodSandbox', pod: 'p', react: { fail: INJECTED } }] }],
    requires: REQUIRES,
    steps: [
      runPodWith('p', INITIAL),
      updatePodFails('p', UPDATED, INJECTED),
      expectUpdateRelayed('00', 'p', UPDATED, 1),
      expectPostUpdates('00', 'p', 0, []),
      expectPodState('p', 'SANDBOX_READY', ' after a refused update'),
      updatePod('p', UPDATED),
      expectUpdateRelayed('00', 'p', UPDATED, 2),
      expectPostUpdates('00', 'p', 1, NO_POST),
    ],
  },
  {
    name: 'update-pod/rejected-values-not-applied',
    critest: 23,
    source: 'critest',
    clause:
      'values a plugin refused are not applied, nor shown to a plugin that connects afterwards; values it accepts are',
    plugins: [
      { index: '00', rules: [{ on: 'UpdatePodSandbox', pod: 'p', react: { fail: INJECTED } }] },
      { index: '10', joins: 'step' },
    ],
    requires: REQUIRES,
    steps: [
      runPodWith('p', INITIAL),
      updatePodFails('p', RETRIED, INJECTED),
      expectApplied('p', INITIAL, true),
      connect('10'),
      expectSyncedPodResources('10', 'p', INITIAL),
      updatePod('p', UPDATED),
      expectApplied('p', UPDATED, true),
    ],
  },
  {
    name: 'update-pod/post-failure-harmless',
    critest: 24,
    source: 'critest',
    clause:
      "a plugin's error in PostUpdatePodSandbox does not fail the update: the values are applied, the pod stays ready, the next update succeeds",
    plugins: [
      {
        index: '00',
        rules: [
          {
            on: 'PostUpdatePodSandbox',
            pod: 'p',
            react: { fail: 'nrictl conformance: injected PostUpdatePodSandbox failure' },
          },
        ],
      },
    ],
    requires: REQUIRES,
    steps: [
      runPodWith('p', INITIAL),
      updatePod('p', UPDATED),
      expectPostUpdates('00', 'p', 1, NO_POST),
      expectPodState('p', 'SANDBOX_READY', ' after a PostUpdatePodSandbox error'),
      expectApplied('p', UPDATED),
      updatePod('p', RETRIED),
      expectApplied('p', RETRIED),
    ],
  },
];
