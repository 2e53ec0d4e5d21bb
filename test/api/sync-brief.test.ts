// A node's state read in brief (src/api/sync-brief.ts) against the same state decoded
// whole by the generated classes: every field a brief carries must be the decoded one.
import { describe, expect, it } from 'vitest';
import { nri, syncBriefs, synchronizeEntries } from '../../src/api/index.js';
import { generateScenario } from '../../src/runtime/sim/generate.js';

const state = generateScenario({ pods: 60, containersPerPod: 4, detail: 'full' });
// A container without linux and one without a pod's namespace, as runtimes may send them.
const bare: nri.IContainer = {
  id: 'bare',
  podSandboxId: 'nowhere',
  name: 'bare',
  state: nri.ContainerState.CONTAINER_PAUSED,
};
const noNamespace: nri.IPodSandbox = { id: 'lonely', name: 'lonely' };
// Split over two messages, as the runtime splits a large state.
const payloads = [
  nri.SynchronizeRequest.encode({ pods: [...state.pods.slice(0, 30), noNamespace], more: true }).finish(),
  nri.SynchronizeRequest.encode({ pods: state.pods.slice(30), containers: [...state.containers, bare] }).finish(),
];
const decoded = payloads.map((p) => nri.SynchronizeRequest.decode(p));
const pods = decoded.flatMap((d) => d.pods as nri.PodSandbox[]);
const containers = decoded.flatMap((d) => d.containers as nri.Container[]);

describe('sync briefs', () => {
  const briefs = syncBriefs(payloads);

  it('reads every pod and container, in the order they came', () => {
    expect(briefs.pods.map((p) => p.id)).toEqual(pods.map((p) => p.id));
    expect(briefs.containers.map((c) => c.id)).toEqual(containers.map((c) => c.id));
  });

  it('carries the fields of the decoded messages: names, namespace, pod id, state, labels', () => {
    briefs.pods.forEach((b, i) => {
      const p = pods[i];
      expect([b.id, b.name, b.namespace, b.labels]).toEqual([p.id, p.name, p.namespace, { ...p.labels }]);
    });
    briefs.containers.forEach((b, i) => {
      const c = containers[i];
      expect([b.id, b.podSandboxId, b.name, b.state, b.labels]).toEqual([
        c.id,
        c.podSandboxId,
        c.name,
        c.state,
        { ...c.labels },
      ]);
    });
    expect(briefs.containers.some((c) => Object.keys(c.labels).length > 0)).toBe(true);
  });

  it('reads linux.resources on first use, and null for a container without linux', () => {
    briefs.containers.forEach((b, i) => {
      const c = containers[i];
      if (c.linux)
        expect(b.linux?.resources?.toJSON()).toEqual((c.linux.resources as nri.LinuxResources | null)?.toJSON());
      else expect(b.linux).toBeNull();
    });
    expect(briefs.containers.at(-1)!.linux).toBeNull();
    expect(briefs.containers.filter((c) => c.linux?.resources?.cpu).length).toBeGreaterThan(100);
  });

  it('decodes the complete message from the same bytes', () => {
    expect(briefs.pods.map((b) => b.complete().toJSON())).toEqual(pods.map((p) => p.toJSON()));
    expect(briefs.containers.map((b) => b.complete().toJSON())).toEqual(containers.map((c) => c.toJSON()));
  });

  it('finds the same entries as synchronizeEntries', () => {
    const entries = payloads.flatMap((p) => synchronizeEntries(p));
    expect(entries.length).toBe(briefs.pods.length + briefs.containers.length);
  });
});

describe('sync briefs of bytes that are not UTF-8', () => {
  it('fail as the generated decoder does, before anything is printed', () => {
    const bytes = Buffer.from(nri.SynchronizeRequest.encode({ pods: [{ id: 'p', name: 'xx' }] }).finish());
    bytes[bytes.length - 1] = 0xff;
    expect(() => nri.SynchronizeRequest.decode(bytes)).toThrow();
    expect(() => syncBriefs([bytes])).toThrow();
  });
});
