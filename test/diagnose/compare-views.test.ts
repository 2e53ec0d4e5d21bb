// doctor's comparison of what the runtime's CRI lists with what its NRI Synchronize
// hands plugins, against the simulator serving both over real sockets (the CRI face and
// the NRI socket of one simulated runtime), driven over CRI as a kubelet or crictl
// would: each reason doctor names shown by a run that makes it, and no finding where
// the two views agree. diagnose() runs in this process; the CLI's own runs are in
// test/commands/doctor-cri.test.ts.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { nri } from '../../src/api/index.js';
import { diagnose, type DoctorDiagnosis, type ViewsCompared } from '../../src/diagnose/index.js';
import { Stub } from '../../src/plugin/index.js';
import { container, criSimPerTest, POD, type CriSim } from '../cri/helpers.js';
import { waitFor } from '../runtime/helpers.js';

const criSim = criSimPerTest();
// An empty node: the offline checks find nothing of this machine's to judge.
const root = mkdtempSync(path.join(os.tmpdir(), 'doctor-cri-root-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const doctor = (s: CriSim, extra: { criSocket?: string } = {}): Promise<DoctorDiagnosis> =>
  diagnose({
    name: 'nrictl-doctor',
    index: '99',
    root,
    socketPath: s.sim.socketPath,
    criSocket: s.criSocket,
    timeoutMs: 5000,
    ...extra,
  });

/** The findings the comparison made (not the offline ones about this empty node). */
const comparisonFindings = (d: DoctorDiagnosis) =>
  d.findings.filter((f) => /^(cri|nri)-/.test(f.code)).map((f) => `${f.severity}:${f.code}`);

function compared(d: DoctorDiagnosis): ViewsCompared {
  expect(d.views.status, JSON.stringify(d.views)).toBe('compared');
  return d.views as ViewsCompared;
}

/** A pod with `names` containers, each created, and started unless listed in `notStarted`. */
async function podWith(s: CriSim, name: string, ctrs: string[], notStarted: string[] = []) {
  const config = { ...POD, metadata: { ...POD.metadata, name, uid: `uid-${name}` } };
  const { podSandboxId } = await s.client.runPodSandbox(config);
  const ids: Record<string, string> = {};
  for (const c of ctrs) {
    const { containerId } = await s.client.createContainer(podSandboxId, container(c), config);
    if (!notStarted.includes(c)) await s.client.startContainer(containerId);
    ids[c] = containerId;
  }
  return { podSandboxId, ids, config };
}

const scenarioPod = { id: 'pod-scenario', name: 'db', namespace: 'shop', uid: 'uid-db' };

describe('doctor compares what CRI lists with what NRI hands plugins', () => {
  it('a healthy node: both views agree, created and running containers alike, and nothing is found', async () => {
    const s = await criSim({
      preset: 'containerd-2.3',
      scenario: {
        pods: [scenarioPod],
        containers: [{ id: 'ctr-db', podSandboxId: 'pod-scenario', name: 'db', state: 3 }],
      },
    });
    await podWith(s, 'web', ['app', 'sidecar'], ['sidecar']); // sidecar: CONTAINER_CREATED
    const d = await doctor(s);
    const v = compared(d);
    expect(v).toMatchObject({
      criSocket: s.criSocket,
      criChoice: `CRI socket ${s.criSocket} (as given)`,
      criRuntime: 'containerd v2.3.4',
      cri: { pods: 2, containers: 3 },
      nri: { pods: 2, containers: 3 },
      differences: [],
      changed: { pods: 0, containers: 0 },
    });
    expect(comparisonFindings(d)).toEqual([]);
    expect(d.verdict.reason).not.toMatch(/cri|nri-/);
  });

  it('an exited container: CRI lists it, containerd hands plugins none, and that is named and expected', async () => {
    const s = await criSim({ preset: 'containerd-2.3' });
    const { ids } = await podWith(s, 'job', ['init', 'app']);
    await s.client.stopContainer(ids.init);
    const v = compared(await doctor(s));
    expect(v.differences).toEqual([
      {
        object: 'container',
        id: ids.init,
        name: 'shop/job/init',
        in: 'cri',
        state: 'exited',
        reason: 'exited',
        explanation: expect.stringMatching(/^it exited: the runtime hands plugins no exited container/),
        expected: true,
      },
    ]);
    expect(v.nri.containers).toBe(1);
  });

  it('a container whose state the runtime lost (a scenario says so): CRI lists it UNKNOWN, NRI leaves it out, expected', async () => {
    const s = await criSim({
      preset: 'crio-1.35',
      scenario: {
        pods: [scenarioPod],
        containers: [
          {
            id: 'ctr-lost',
            podSandboxId: 'pod-scenario',
            name: 'lost',
            labels: { 'io.kubernetes.container.name': 'lost' },
            state: nri.ContainerState.CONTAINER_UNKNOWN,
          },
        ],
      },
    });
    const d = await doctor(s);
    expect(compared(d).differences).toEqual([
      expect.objectContaining({
        id: 'ctr-lost',
        name: 'shop/db/lost',
        in: 'cri',
        state: 'unknown',
        reason: 'unknown-state',
        expected: true,
      }),
    ]);
    expect(comparisonFindings(d)).toEqual([]);
  });

  it('a pod whose RunPodSandbox is still in flight while doctor looks: it came during the check, no difference', async () => {
    const s = await criSim({ preset: 'containerd-2.3' });
    // A plugin holds RunPodSandbox until doctor registered: CRI's first list cannot show
    // the pod (containerd shows none before its hook returned), NRI's Synchronize waits
    // for the hook and hands it over, CRI's second list shows it.
    let entered!: () => void;
    const inHook = new Promise<void>((r) => (entered = r));
    const holder = new Stub(
      {
        runPodSandbox: async () => {
          entered();
          await waitFor('doctor registered', () =>
            s.sim.events.find((e) => e.type === 'registered' && e.plugin === '99-nrictl-doctor'),
          );
        },
      },
      { name: 'holder', index: '10', socketPath: s.sim.socketPath },
    );
    await holder.start();
    try {
      const running = s.client.runPodSandbox(POD);
      await inHook;
      const d = await doctor(s);
      await running;
      const v = compared(d);
      expect(v.differences).toEqual([]);
      expect(v.changed).toEqual({ pods: 1, containers: 0 });
      expect(v.nri.pods).toBe(1);
      expect(comparisonFindings(d)).toEqual([]);
    } finally {
      await holder.stop();
    }
  });

  it("CRI-O's empty container names: a container made without the kubelet's label reaches plugins nameless, said as a note", async () => {
    const s = await criSim({ preset: 'crio-1.35' });
    const { podSandboxId, config } = await podWith(s, 'web', ['app']);
    await s.client.createContainer(podSandboxId, container('bare', { labels: {} }), config);
    const d = await doctor(s);
    expect(compared(d).differences).toEqual([]);
    expect(comparisonFindings(d)).toEqual(['info:nri-container-names-empty']);
    expect(d.findings.find((f) => f.code === 'nri-container-names-empty')?.message).toMatch(
      /^1 of 2 containers reach plugins with an empty name though CRI names them \(bare\): CRI-O names a container to plugins only by its label io\.kubernetes\.container\.name/,
    );
  });

  it('iSulad hands plugins sparse data: no state in Synchronize (a note), and its exited containers too (no difference)', async () => {
    const s = await criSim({ preset: 'isulad-2.1.5' });
    const { ids } = await podWith(s, 'web', ['app', 'done']);
    await s.client.stopContainer(ids.done);
    const d = await doctor(s);
    const v = compared(d);
    expect(v.differences).toEqual([]);
    expect(v.nri.containers).toBe(2);
    expect(comparisonFindings(d)).toEqual(['info:nri-container-states-missing']);
    expect(d.findings.find((f) => f.code === 'nri-container-states-missing')?.message).toMatch(
      /^2 of 2 containers reach plugins in Synchronize without a state \(CONTAINER_UNKNOWN\) where CRI shows one: iSulad hands plugins sparse data/,
    );
  });

  it("another runtime's CRI socket: not compared, and why", async () => {
    const crio = await criSim({ preset: 'crio-1.35' });
    const containerd = await criSim({ preset: 'containerd-2.3' });
    const d = await doctor(containerd, { criSocket: crio.criSocket });
    expect(d.views).toEqual({
      status: 'not-checked',
      criSocket: crio.criSocket,
      reason: expect.stringMatching(
        /^the CRI socket answers as cri-o 1\.35\.6 and the NRI socket as containerd v2\.3\.4: two runtimes/,
      ),
    });
    expect(comparisonFindings(d)).toEqual(['info:cri-not-compared']);
  });

  it('no CRI socket there: not checked, saying which and why, never "consistent"', async () => {
    const s = await criSim({ preset: 'containerd-2.3' });
    const missing = path.join(s.sim.dir, 'no', 'cri.sock');
    const d = await doctor(s, { criSocket: missing });
    expect(d.views).toEqual({
      status: 'not-checked',
      criSocket: missing,
      reason: `no CRI socket at ${missing}: is the runtime running? (give the runtime's CRI socket with --cri-socket)`,
    });
    expect(d.findings.find((f) => f.code === 'cri-not-compared')).toMatchObject({
      severity: 'info',
      message: expect.stringMatching(/^what CRI lists and what NRI hands plugins: not checked: no CRI socket at /),
    });
  });

  it('Docker: not compared, Docker has no CRI', async () => {
    const s = await criSim({ preset: 'docker-29' });
    const d = await doctor(s);
    expect(d.connection.status).toBe('answered');
    expect(d.views).toMatchObject({
      status: 'not-checked',
      reason: expect.stringMatching(/^Docker serves no CRI socket/),
    });
  });
});
