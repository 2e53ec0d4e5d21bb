// Experiment (node --import this before bin/run.js): warm the simulator's relay path
// before nrictl runs, to measure what a built-in warm-up would give a short run.
// It loads the runtime chunk the bundled CLI itself loads (same module instances, so the
// same functions get the type feedback and optimized code), runs WARM_RELAY_CYCLES
// (default 300) CreateContainer + RemoveContainer cycles against one in-process SDK
// plugin on a socket in a temp dir, and stops it; then the CLI starts as usual.
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const dist = new URL('../../../dist/', import.meta.url);
// Builds since the CLI became one code-cached bundle (dist/cli.cjs) have no runtime chunk
// to share: this experiment (src/runtime/README.md: it cost more than it saved) needs a
// build of d0fbcb1 or before.
if (!existsSync(new URL('chunks/', dist))) {
  throw new Error(
    'warm-relay: dist/chunks/ is gone since the CLI is one bundle; run it on a build of d0fbcb1 or earlier',
  );
}
const chunk = readdirSync(new URL('chunks/', dist)).find((f) => /^runtime-.*\.js$/.test(f));
const { Runtime, SimState } = await import(new URL(`chunks/${chunk}`, dist).href);
const { Stub } = await import(new URL('src/plugin/index.js', dist).href);

const cycles = Number(process.env.WARM_RELAY_CYCLES ?? 300);
const dir = mkdtempSync(path.join(os.tmpdir(), 'warm-relay-'));
const runtime = new Runtime(new SimState({ pods: [{ id: 'p', name: 'p', namespace: 'n' }] }), {
  socketPath: path.join(dir, 's'),
});
await runtime.start();
const stub = new Stub(
  { createContainer: () => ({}), postCreateContainer: () => {}, removeContainer: () => {} },
  { name: 'warm', index: '00', socketPath: runtime.socketPath },
);
await stub.start();
while (runtime.plugins().length < 1) await new Promise((r) => setTimeout(r, 1));
for (let i = 0; i < cycles; i++) {
  await runtime.createContainer('p', {
    id: `w${i}`,
    name: 'w',
    args: ['/bin/sleep'],
    env: ['A=1'],
    labels: { a: 'b' },
  });
  await runtime.removeContainer(`w${i}`);
}
await stub.stop();
await runtime.stop();
rmSync(dir, { recursive: true, force: true });
