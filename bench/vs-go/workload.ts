// The same work for both runtimes: one pod known at start, then `cycles` times
// CreateContainer + PostCreateContainer + RemoveContainer of a new container. nrictl
// sim's `create` step sends CreateContainer and PostCreateContainer; refrt's script
// names each call.
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';

const POD = { id: 'pod-bench', name: 'bench-0', uid: 'uid-bench-0', namespace: 'bench', labels: { app: 'bench' } };
/** The container of refrt's own bench-script.json. */
const CONTAINER = {
  labels: { 'io.kubernetes.container.name': 'bench' },
  args: ['/bin/sleep', 'infinity'],
  env: ['A=1'],
  resources: { cpu_shares: 256, cpu_quota: 50000, cpu_period: 100000, memory_limit: 268435456 },
};
export const EVENTS_PER_CYCLE = 3;

const containerId = (i: number): string => `c-${i}`;

/** A scenario file for `nrictl sim` (JSON, which its YAML reader takes). */
export async function writeSimScenario(file: string, cycles: number): Promise<void> {
  const steps: unknown[] = [];
  for (let i = 0; i < cycles; i++) {
    steps.push({ create: { id: containerId(i), pod: POD.id, name: `bench-${i}`, ...CONTAINER } });
    steps.push({ remove: containerId(i) });
  }
  await writeFile(file, JSON.stringify({ pods: [POD], containers: [], steps }));
}

/** refrt's --scenario (the pod) and --script (the cycles) files. */
export async function writeRefrtFiles(scenarioFile: string, scriptFile: string, cycles: number): Promise<void> {
  await writeFile(scenarioFile, JSON.stringify({ pods: [POD], containers: [] }));
  const steps: unknown[] = [];
  for (let i = 0; i < cycles; i++) {
    const container = containerId(i);
    steps.push({ op: 'CreateContainer', pod: POD.id, container, name: `bench-${i}`, ...CONTAINER });
    steps.push({ op: 'PostCreateContainer', container });
    steps.push({ op: 'RemoveContainer', container });
  }
  await writeFile(scriptFile, JSON.stringify(steps));
}

/**
 * A plugin directory of `count` pre-started plugins, NN-name symlinks to `binary`, as
 * both runtimes read one (the index orders them).
 */
export async function writePluginDir(dir: string, binary: string, count: number, name = 'template'): Promise<void> {
  await mkdir(dir, { recursive: true });
  for (let i = 0; i < count; i++)
    await symlink(binary, path.join(dir, `${String(10 + i).padStart(2, '0')}-${name}${i}`));
}
