// "Nothing left" judged beyond CRI's listings. containerd 2.1 keeps a sandbox running
// when a plugin refuses its RunPodSandbox (containerd#13609): CRI lists no pod, the node
// still runs its shim and pause process. The containerd-2.1 preset does so in the
// simulator's process table, so run-pod/hook-error-leaves-nothing fails, and the run
// lists what is left with the command that removes it; containerd-2.3 (2.3.4 has the
// fix) leaves nothing. Where the node cannot be looked at, the run says so and never
// calls the node clean.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runOnSimulator } from '../../src/conformance/index.js';
import { openProcNode } from '../../src/conformance/node-proc.js';
import { conformanceView } from '../../src/views/index.js';
import { reachableTempDir } from '../support/reachable.js';
import { simulatedNode } from './simulated-node.js';

const CHECK = 'run-pod/hook-error-leaves-nothing';
const signal = new AbortController().signal;
const node = simulatedNode();
const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const f of cleanups.splice(0)) f();
});

describe('run-pod/hook-error-leaves-nothing looks at the node', () => {
  it('fails on containerd-2.1, whose refused sandbox runs on in no CRI listing, and lists it with ctr', async () => {
    const r = await runOnSimulator({ preset: 'containerd-2.1', focus: [CHECK], signal });
    const v = r.verdicts[0];
    expect(v.status).toBe('fail');
    expect(v.reason).toMatch(
      /^expected nothing of pod p-c1 left on the node after its hook failed, saw its sandbox ([0-9a-f]{64}) still there, in no CRI listing: \/usr\/local\/bin\/containerd-shim-runc-v2 pid \d+, \/pause pid \d+$/,
    );
    expect(v.known?.ref).toBe('containerd#13609');
    const id = /sandbox ([0-9a-f]{64})/.exec(v.reason ?? '')?.[1];
    expect(r.leftovers).toEqual([
      {
        kind: 'node',
        id,
        name: expect.stringMatching(/containerd-shim-runc-v2 pid \d+, \/pause pid \d+$/),
        command: `ctr -n k8s.io task rm -f ${id} && ctr -n k8s.io container rm ${id}`,
      },
    ]);
    expect(r.beyondCri).toEqual({ checked: true, limits: [] });
    expect(r.exitCode).toBe(1);
    const text = conformanceView.text(r, { width: 1000, wide: false });
    expect(text).toContain(`Left on the node (1): remove with\n  ctr -n k8s.io task rm -f ${id}`);
    expect(text).toMatch(
      /container rm [0-9a-f]{64} {4}# in no CRI listing: \/usr\/local\/bin\/containerd-shim-runc-v2 pid \d+/,
    );
    expect(text).not.toContain('Nothing left');
  });

  it('passes on containerd-2.3, whose refused sandbox is shut down, and the run says nothing is left, on the node too', async () => {
    const r = await runOnSimulator({ preset: 'containerd-2.3', focus: [CHECK], signal });
    expect(r.verdicts.map((v) => v.status)).toEqual(['pass']);
    expect(r.leftovers).toEqual([]);
    expect(r.beyondCri).toEqual({ checked: true, limits: [] });
    expect(r.exitCode).toBe(0);
    expect(conformanceView.text(r, { width: 1000, wide: false })).toContain(
      "Nothing left: no pod or container of this run in CRI's listings, and none of their ids on the node (no shim, process or cgroup).",
    );
  });

  it('where the node cannot be looked at, says so in the check and in the run, and never calls the node clean', async () => {
    // A procfs that shows no process of containerd: another pid namespace than the runtime's.
    const t = reachableTempDir('nrictl-proc-');
    cleanups.push(() => t.cleanup());
    mkdirSync(path.join(t.dir, '1'));
    writeFileSync(path.join(t.dir, '1', 'cmdline'), '/sbin/init\0');
    const blind = openProcNode({ runtimeName: 'containerd', proc: t.dir, root: true });
    const plan = await node.plan([CHECK], signal, blind);
    try {
      const r = await plan.run();
      const why = `no containerd process is in sight in ${t.dir}: nrictl runs in another pid namespace than the runtime's (a container without the host's pid namespace?), so neither are its shims`;
      expect(r.verdicts[0].status).toBe('pass');
      expect(r.verdicts[0].notes).toContain(`not checked beyond CRI: ${why}`);
      expect(r.beyondCri).toEqual({ checked: false, why });
      const text = conformanceView.text(r, { width: 1000, wide: false });
      expect(text).toContain(`Not checked beyond CRI: ${why}.`);
      expect(text).not.toContain('Nothing left');
    } finally {
      plan.close();
    }
  });
});
