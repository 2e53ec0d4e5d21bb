// Peak memory of `nrictl sync dump` by node size: the built CLI against the simulator in
// this process, for 500, 1,000 and 2,000 pods of 5 containers in full detail (labels,
// annotations, env, mounts, resources), table and -o json. A dump written as it is
// rendered should grow by about the payload (the bytes it keeps), not by the decoded
// state. Prints peak RSS and CPU (GNU time, where installed) and the payload's size.
// DUMP_BASELINE_NRICTL: another build's bin/run.js (e.g. main's), run in the same turns.
import path from 'node:path';
import { nri } from '../src/api/index.js';
import { generateScenario } from '../src/runtime/sim/generate.js';
import { Runtime } from '../src/runtime/sim/runtime.js';
import { SimState } from '../src/runtime/sim/state.js';
import { tempDir } from '../test/commands/nri-cli.js';
import { runToLastByte, type LastByte } from './vs-go/last-byte.js';
import { NRICTL_BIN } from './vs-go/nrictl.js';

const SIZES = [500, 1000, 2000];
const ROUNDS = Number(process.env.DUMP_MEMORY_ROUNDS ?? 3);
const builds = [{ label: 'nrictl', bin: NRICTL_BIN }];
if (process.env.DUMP_BASELINE_NRICTL)
  builds.push({ label: 'baseline', bin: path.resolve(process.env.DUMP_BASELINE_NRICTL) });

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

for (const pods of SIZES) {
  const state = generateScenario({ pods, containersPerPod: 5, detail: 'full' });
  const payloadMb = nri.SynchronizeRequest.encode(state).finish().length / 2 ** 20;
  const t = tempDir('nrdm-');
  const socketPath = path.join(t.dir, 'nri.sock');
  const runtime = new Runtime(new SimState(state), { socketPath });
  await runtime.start();
  try {
    const runs = new Map<string, LastByte[]>();
    for (let r = 0; r < ROUNDS; r++)
      for (const b of builds)
        for (const output of ['table', 'json']) {
          const run = await runToLastByte(process.execPath, [
            b.bin,
            'sync',
            'dump',
            '--socket',
            socketPath,
            '-o',
            output,
          ]);
          const key = `${b.label} ${output}`;
          runs.set(key, [...(runs.get(key) ?? []), run]);
        }
    console.log(`${pods} pods, ${pods * 5} containers, payload ${payloadMb.toFixed(1)} MiB; medians of ${ROUNDS}`);
    for (const [key, rs] of runs) {
      const cpu =
        rs[0].cpuMs === undefined
          ? ''
          : `cpu ${median(rs.map((x) => x.cpuMs!)).toFixed(0)} ms, peak ${median(rs.map((x) => x.peakMb!)).toFixed(0)} MB, `;
      console.log(
        `  ${key.padEnd(16)} ${cpu}to last byte ${median(rs.map((x) => x.lastByteMs)).toFixed(0)} ms, ${(rs[0].bytes / 2 ** 20).toFixed(1)} MiB out`,
      );
    }
  } finally {
    await runtime.stop();
    t.cleanup();
  }
}
