// Cost of generating a large simulated node (1,000 pods x 5 containers), loading it
// into SimState and taking the Synchronize snapshot: what `nrictl sim --pods 1000
// --containers-per-pod 5` pays before the first plugin connects.
import { performance } from 'node:perf_hooks';
import { generateScenario } from '../src/runtime/sim/generate.js';
import { SimState } from '../src/runtime/sim/state.js';

const RUNS = 7;
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const gen: number[] = [];
const load: number[] = [];
const snap: number[] = [];
for (let i = 0; i < RUNS; i++) {
  let t = performance.now();
  const s = generateScenario({ pods: 1000, containersPerPod: 5, seed: i + 1 });
  gen.push(performance.now() - t);
  t = performance.now();
  const state = new SimState({ pods: s.pods, containers: s.containers });
  load.push(performance.now() - t);
  t = performance.now();
  state.snapshot();
  snap.push(performance.now() - t);
}
console.log(`generate 1000 pods x 5 containers: median ${median(gen).toFixed(1)} ms`);
console.log(`load into SimState:                median ${median(load).toFixed(1)} ms`);
console.log(`Synchronize snapshot (deep copy):  median ${median(snap).toFixed(1)} ms`);
