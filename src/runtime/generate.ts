// Large, realistic, reproducible scenarios: kubernetes-style pods and containers for
// load tests and benchmarks (e.g. 1,000 pods x 5 containers).
import { nri } from '../api/index.js';
import type { Scenario } from './scenario.js';

export interface GenerateOptions {
  pods: number;
  containersPerPod: number;
  seed?: number;
}

/** mulberry32: tiny, fast, and the same sequence on every platform for a seed. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NAMESPACES = ['default', 'shop', 'payments', 'monitoring', 'kube-system', 'data'];
const APPS = ['checkout', 'cart', 'frontend', 'catalog', 'search', 'ledger', 'redis', 'postgres', 'kafka', 'nginx', 'prometheus', 'fluent-bit'];
const SIDECARS = ['envoy', 'istio-proxy', 'log-shipper', 'metrics-exporter', 'config-reloader', 'vault-agent'];
const SHARES = [102, 204, 256, 512, 1024, 2048];
const MEMORY_MIB = [64, 128, 256, 512, 1024, 2048];

export function generateScenario(opts: GenerateOptions): Scenario {
  const rand = rng(opts.seed ?? 1);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const hex = (n: number): string => {
    let s = '';
    while (s.length < n) s += Math.floor(rand() * 0x100000000).toString(16).padStart(8, '0');
    return s.slice(0, n);
  };
  const pods: nri.IPodSandbox[] = [];
  const containers: nri.IContainer[] = [];
  for (let p = 0; p < opts.pods; p++) {
    const app = pick(APPS);
    const ns = pick(NAMESPACES);
    const hash = hex(10);
    const podName = `${app}-${hash.slice(0, 9)}-${hex(5)}`;
    const uidHex = hex(32);
    const uid = `${uidHex.slice(0, 8)}-${uidHex.slice(8, 12)}-4${uidHex.slice(13, 16)}-8${uidHex.slice(17, 20)}-${uidHex.slice(20)}`;
    const podId = hex(64);
    const qos = pick(['burstable', 'besteffort', 'guaranteed']);
    pods.push({
      id: podId,
      name: podName,
      uid,
      namespace: ns,
      labels: { 'app.kubernetes.io/name': app, 'app.kubernetes.io/part-of': ns, 'pod-template-hash': hash.slice(0, 9) },
      annotations: { 'kubernetes.io/config.source': 'api', 'kubernetes.io/config.seen': new Date(Date.UTC(2024, 4, 1) + p * 1000).toISOString() },
      runtimeHandler: 'runc',
      linux: { cgroupParent: `/kubepods.slice/kubepods-${qos}.slice/kubepods-${qos}-pod${uid.replaceAll('-', '_')}.slice` },
    });
    for (let c = 0; c < opts.containersPerPod; c++) {
      const name = c === 0 ? app : `${pick(SIDECARS)}-${c}`;
      const shares = pick(SHARES);
      containers.push({
        id: hex(64),
        podSandboxId: podId,
        name,
        state: nri.ContainerState.CONTAINER_RUNNING,
        labels: { 'io.kubernetes.container.name': name, 'io.kubernetes.pod.name': podName, 'io.kubernetes.pod.namespace': ns, 'io.kubernetes.pod.uid': uid },
        annotations: { 'io.kubernetes.container.restartCount': String(Math.floor(rand() * 3)), 'io.kubernetes.container.terminationMessagePath': '/dev/termination-log' },
        args: [`/usr/local/bin/${name}`, `--port=${8000 + c}`],
        env: ['PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin', `POD_NAMESPACE=${ns}`],
        linux: {
          resources: {
            cpu: { shares: { value: shares }, quota: { value: Math.round((shares / 1024) * 100000) }, period: { value: 100000 } },
            memory: { limit: { value: pick(MEMORY_MIB) * 1024 * 1024 } },
          },
        },
      });
    }
  }
  return { file: `generated:pods=${opts.pods},containers-per-pod=${opts.containersPerPod},seed=${opts.seed ?? 1}`, pods, containers, steps: [] };
}
