import type { Container, Pod } from '../../src/output/nri-values.js';

/** A synthetic node: `pods` pods with `perPod` containers each, with resources set. */
export function syntheticState(pods: number, perPod: number): { pods: Pod[]; containers: Container[] } {
  const podList: Pod[] = [];
  const containers: Container[] = [];
  for (let p = 0; p < pods; p++) {
    const podId = `${p.toString(16).padStart(8, '0')}${'f'.repeat(56)}`;
    podList.push({
      id: podId,
      name: `app-${p}-7d4b9c`,
      uid: `uid-${p}`,
      namespace: `team-${p % 20}`,
      labels: { app: `app-${p}` },
    });
    for (let c = 0; c < perPod; c++) {
      containers.push({
        id: `${(p * perPod + c).toString(16).padStart(8, '0')}${'c'.repeat(56)}`,
        podSandboxId: podId,
        name: c === 0 ? 'main' : `sidecar-${c}`,
        state: c % 4 === 3 ? 4 : 3,
        linux: {
          resources: {
            cpu: {
              cpus: `${c * 2}-${c * 2 + 1}`,
              mems: '0',
              shares: { value: 1024 },
              quota: { value: 200000 },
              period: { value: 100000 },
            },
            memory: { limit: { value: (c + 1) * 256 * 1024 * 1024 } },
          },
        },
      });
    }
  }
  return { pods: podList, containers };
}
