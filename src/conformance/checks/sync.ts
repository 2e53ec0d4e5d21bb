// H of nri-contract.md: a plugin that joins late is synchronized with what exists, and
// nothing made while it synchronizes is lost. The hold of its Synchronize stays well under
// the runtime's request timeout (timing.ts): critest's 2 s hold is what loses containers.
import { KNOWN } from '../known.js';
import type { Check } from '../check.js';
import { createContainer, runContainer, startContainer, startCreateAndStart } from '../steps/containers.js';
import { connect, connectWhileHeld, settleInFlight } from '../steps/holds.js';
import { runPod } from '../steps/pods.js';
import { broughtUp, expectReached, expectSynchronized } from '../steps/sync.js';

const LOST = [KNOWN.syncNotSerialized, KNOWN.lostDuringSyncContainerd, KNOWN.lostDuringSyncCrio];
const late = { index: '10', joins: 'step' as const };
const heldLate = { ...late, rules: [{ on: 'Synchronize' as const, react: { block: true as const } }] };

export const SYNC_CHECKS: Check[] = [
  {
    name: 'sync/late-plugin-sees-state',
    critest: 18,
    source: 'critest',
    clause:
      "a plugin that connects late is synchronized with the pods and containers that exist, then gets the next container's CreateContainer",
    plugins: [{ index: '00' }, late],
    steps: [
      runPod('p'),
      ...runContainer('c1', 'p'),
      connect('10'),
      expectSynchronized('10', ['p'], ['c1']),
      createContainer('c2', 'p'),
      startContainer('c2'),
      expectReached('10', ['c2'], []),
    ],
  },
  {
    name: 'sync/created-during-sync',
    critest: 19,
    source: 'critest',
    clause:
      'a container created while a late plugin synchronizes reaches it, in its Synchronize or as CreateContainer (the hold is kept under the request timeout)',
    plugins: [{ index: '00' }, heldLate],
    steps: [
      runPod('p'),
      ...runContainer('c1', 'p'),
      connectWhileHeld('10', [startCreateAndStart('c2', 'p'), settleInFlight()]),
      broughtUp(['c2']),
      expectReached('10', ['c1', 'c2'], LOST),
    ],
  },
  {
    name: 'sync/created-during-sync-under-load',
    critest: 20,
    source: 'critest',
    clause:
      'of containers made before, during and after a late plugin synchronizes, every one reaches it (2 before, 3 at once during, 2 after)',
    plugins: [{ index: '00' }, heldLate],
    steps: [
      runPod('p'),
      ...runContainer('c1', 'p'),
      ...runContainer('c2', 'p'),
      connectWhileHeld('10', [
        startCreateAndStart('c3', 'p'),
        startCreateAndStart('c4', 'p'),
        startCreateAndStart('c5', 'p'),
        settleInFlight(),
      ]),
      broughtUp(['c3', 'c4', 'c5']),
      ...runContainer('c6', 'p'),
      ...runContainer('c7', 'p'),
      expectReached('10', ['c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'c7'], LOST),
    ],
  },
];
