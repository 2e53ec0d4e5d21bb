// Conformance asks for pods and containers as the kubelet does (src/conformance/kubelet.ts):
// the kubelet's labels on pods and containers, so that a runtime that reads them (CRI-O's
// container name, cri-o#10011) shows plugins what it shows under a kubelet; and the image
// as the id ImageStatus gave, with the image as written in user_specified_image, which a
// CRI-O that verifies signatures requires. Seen by a plugin of the test's own on the
// simulator's NRI socket, and in the config the simulator's CRI face keeps.
import { describe, expect, it } from 'vitest';
import type { nri } from '../../src/api/index.js';
import { SUBSCRIBED } from '../../src/conformance/test-plugin.js';
import { openCriClient } from '../../src/cri/index.js';
import { ProbeSet } from '../../src/session/index.js';
import { simulatedNode } from './simulated-node.js';

const node = simulatedNode();

describe('conformance speaks CRI as the kubelet does', () => {
  it('the kubelet’s labels on pods and containers, and the image by id with the name as written', async () => {
    const cri = await openCriClient({ socketPath: node.criSocket, timeoutMs: 5000 });
    const pods: nri.IPodSandbox[] = [];
    const ctrs: nri.IContainer[] = [];
    const configs: Array<Promise<unknown>> = [];
    const watcher = await ProbeSet.open({
      target: { socketPath: node.sim.socketPath },
      name: 'kubelet-fields',
      probes: [
        {
          index: '50',
          events: SUBSCRIBED,
          handlers: {
            runPodSandbox: (pod) => void pods.push(pod),
            createContainer: (_pod, ctr) => {
              ctrs.push(ctr);
              return { adjust: {} };
            },
            // Created by now: the config as the runtime got it, from its verbose status.
            postCreateContainer: (_pod, ctr) =>
              void configs.push(
                cri.containerStatus(ctr.id ?? '', true).then((s) => JSON.parse(s.info.info ?? '{}').config),
              ),
          },
        },
      ],
    });
    const plan = await node.plan(['container-lifecycle'], new AbortController().signal);
    try {
      const report = await plan.run();
      expect(report.verdicts.map((v) => [v.name, v.status])).toEqual([['container-lifecycle', 'pass']]);
      const pod = pods.find((p) => p.name === 'p-c1');
      expect(pod?.labels).toMatchObject({
        'io.kubernetes.pod.name': 'p-c1',
        'io.kubernetes.pod.namespace': pod?.namespace,
        'io.kubernetes.pod.uid': pod?.uid,
      });
      expect(ctrs.map((c) => c.labels)).toEqual([
        expect.objectContaining({
          'io.kubernetes.container.name': 'c',
          'io.kubernetes.pod.name': 'p-c1',
          'io.kubernetes.pod.namespace': pod?.namespace,
          'io.kubernetes.pod.uid': pod?.uid,
        }),
      ]);
      const id = (await cri.imageStatus('registry.k8s.io/pause:3.10')).image?.id;
      expect(id).toMatch(/^sha256:[0-9a-f]{64}$/);
      expect(await Promise.all(configs)).toEqual([
        expect.objectContaining({ image: { image: id, user_specified_image: 'registry.k8s.io/pause:3.10' } }),
      ]);
    } finally {
      plan.close();
      await watcher.close();
      cri.close();
    }
  });
});
