// Large, realistic, reproducible scenarios: kubernetes-style pods and containers for
// load tests and benchmarks (e.g. 1,000 pods x 5 containers). The default, compact
// form is what `nrictl sim --generate` serves; detail 'full' adds what containerd hands
// a plugin for a kubelet pod besides (env, mounts, namespaces, cgroup paths, more
// labels and annotations), the weight of a real node's state for encoding benchmarks.
import { nri } from '../../api/index.js';
import type { Scenario } from './scenario.js';
import { seededRandom } from './seeded-random.js';

export interface GenerateOptions {
  pods: number;
  containersPerPod: number;
  seed?: number;
  /** 'compact' (default) or 'full'; the compact part is the same for a seed either way. */
  detail?: 'compact' | 'full';
}

interface Random {
  rand(): number;
  pick<T>(xs: readonly T[]): T;
  hex(n: number): string;
  below(n: number): number;
}

function random(seed: number): Random {
  const rand = seededRandom(seed);
  return {
    rand,
    pick: (xs) => xs[Math.floor(rand() * xs.length)],
    hex: (n) => {
      let s = '';
      while (s.length < n)
        s += Math.floor(rand() * 0x100000000)
          .toString(16)
          .padStart(8, '0');
      return s.slice(0, n);
    },
    below: (n) => Math.floor(rand() * n),
  };
}

const NAMESPACES = ['default', 'shop', 'payments', 'monitoring', 'kube-system', 'data'];
const APPS = [
  'checkout',
  'cart',
  'frontend',
  'catalog',
  'search',
  'ledger',
  'redis',
  'postgres',
  'kafka',
  'nginx',
  'prometheus',
  'fluent-bit',
];
const SIDECARS = ['envoy', 'istio-proxy', 'log-shipper', 'metrics-exporter', 'config-reloader', 'vault-agent'];
const SHARES = [102, 204, 256, 512, 1024, 2048];
const MEMORY_MIB = [64, 128, 256, 512, 1024, 2048];
const COMPONENTS = ['frontend', 'backend', 'database', 'queue'];
const IMAGES = ['nginx:1.27', 'redis:7.2', 'postgres:16', 'python:3.12-slim', 'golang:1.22', 'envoyproxy/envoy:v1.30'];
const BASE_TIME_MS = Date.UTC(2024, 4, 1);

/** What a pod's containers need to know of it. */
interface PodFacts {
  index: number;
  id: string;
  name: string;
  namespace: string;
  uid: string;
  app: string;
  hash: string;
  qos: string;
  ip: string;
}

export function generateScenario(opts: GenerateOptions): Scenario {
  const r = random(opts.seed ?? 1);
  const full = opts.detail === 'full';
  // The detail draws from a stream of its own, so the compact part stays the same for a seed.
  const d = random(((opts.seed ?? 1) ^ 0x5bd1e995) >>> 0);
  const pods: nri.IPodSandbox[] = [];
  const containers: nri.IContainer[] = [];
  for (let p = 0; p < opts.pods; p++) {
    const app = r.pick(APPS);
    const ns = r.pick(NAMESPACES);
    const hash = r.hex(10);
    const podName = `${app}-${hash.slice(0, 9)}-${r.hex(5)}`;
    const uidHex = r.hex(32);
    const uid = `${uidHex.slice(0, 8)}-${uidHex.slice(8, 12)}-4${uidHex.slice(13, 16)}-8${uidHex.slice(17, 20)}-${uidHex.slice(20)}`;
    const podId = r.hex(64);
    const qos = r.pick(['burstable', 'besteffort', 'guaranteed']);
    const pod: nri.IPodSandbox = {
      id: podId,
      name: podName,
      uid,
      namespace: ns,
      labels: { 'app.kubernetes.io/name': app, 'app.kubernetes.io/part-of': ns, 'pod-template-hash': hash.slice(0, 9) },
      annotations: {
        'kubernetes.io/config.source': 'api',
        'kubernetes.io/config.seen': new Date(BASE_TIME_MS + p * 1000).toISOString(),
      },
      runtimeHandler: 'runc',
      linux: {
        cgroupParent: `/kubepods.slice/kubepods-${qos}.slice/kubepods-${qos}-pod${uid.replaceAll('-', '_')}.slice`,
      },
    };
    const facts: PodFacts = {
      index: p,
      id: podId,
      name: podName,
      namespace: ns,
      uid,
      app,
      hash: hash.slice(0, 9),
      qos,
      ip: `10.${(p >> 16) & 255}.${(p >> 8) & 255}.${p & 255}`,
    };
    if (full) addPodDetail(pod, facts, opts.containersPerPod, d);
    pods.push(pod);
    for (let c = 0; c < opts.containersPerPod; c++) {
      const name = c === 0 ? app : `${r.pick(SIDECARS)}-${c}`;
      const shares = r.pick(SHARES);
      const ctr: nri.IContainer = {
        id: r.hex(64),
        podSandboxId: podId,
        name,
        state: nri.ContainerState.CONTAINER_RUNNING,
        labels: {
          'io.kubernetes.container.name': name,
          'io.kubernetes.pod.name': podName,
          'io.kubernetes.pod.namespace': ns,
          'io.kubernetes.pod.uid': uid,
        },
        annotations: {
          'io.kubernetes.container.restartCount': String(r.below(3)),
          'io.kubernetes.container.terminationMessagePath': '/dev/termination-log',
        },
        args: [`/usr/local/bin/${name}`, `--port=${8000 + c}`],
        env: ['PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin', `POD_NAMESPACE=${ns}`],
        linux: {
          resources: {
            cpu: {
              shares: { value: shares },
              quota: { value: Math.round((shares / 1024) * 100000) },
              period: { value: 100000 },
            },
            memory: { limit: { value: r.pick(MEMORY_MIB) * 1024 * 1024 } },
          },
        },
      };
      if (full) addContainerDetail(ctr, facts, c, containers.length, d);
      containers.push(ctr);
    }
  }
  const detail = full ? ',detail=full' : '';
  return {
    file: `generated:pods=${opts.pods},containers-per-pod=${opts.containersPerPod},seed=${opts.seed ?? 1}${detail}`,
    pods,
    containers,
    steps: [],
  };
}

function addPodDetail(pod: nri.IPodSandbox, f: PodFacts, containersPerPod: number, r: Random): void {
  const cgroupParent = pod.linux!.cgroupParent!;
  Object.assign(pod.labels!, {
    app: f.app,
    'app.kubernetes.io/instance': `${f.app}-${f.namespace}`,
    'app.kubernetes.io/version': `1.${r.below(20)}.${r.below(10)}`,
    'app.kubernetes.io/component': r.pick(COMPONENTS),
    'app.kubernetes.io/managed-by': 'helm',
    'io.kubernetes.pod.name': f.name,
    'io.kubernetes.pod.namespace': f.namespace,
    'io.kubernetes.pod.uid': f.uid,
  });
  Object.assign(pod.annotations!, {
    'kubectl.kubernetes.io/restartedAt': new Date(BASE_TIME_MS - 86_400_000).toISOString(),
    'prometheus.io/scrape': 'true',
    'prometheus.io/port': String(8000 + r.below(1000)),
    'prometheus.io/path': '/metrics',
    'cluster-autoscaler.kubernetes.io/safe-to-evict': 'true',
    'checksum/config': r.hex(64),
    'seccomp.security.alpha.kubernetes.io/pod': 'runtime/default',
    'io.kubernetes.cri.sandbox-id': f.id,
  });
  pod.pid = 10_000 + f.index;
  pod.ips = [f.ip];
  pod.linux = {
    cgroupParent,
    cgroupsPath: `${cgroupParent}:cri-containerd:${f.id}`,
    podResources: {
      cpu: {
        shares: { value: 1024 * containersPerPod },
        quota: { value: 100_000 * containersPerPod },
        period: { value: 100_000 },
      },
      memory: { limit: { value: containersPerPod * 512 * 2 ** 20 } },
    },
    namespaces: [
      { type: 'network', path: `/var/run/netns/cni-${r.hex(8)}-${r.hex(4)}-${r.hex(4)}-${r.hex(4)}-${r.hex(12)}` },
      { type: 'ipc' },
      { type: 'uts' },
    ],
  };
}

function addContainerDetail(ctr: nri.IContainer, f: PodFacts, c: number, serial: number, r: Random): void {
  const name = ctr.name!;
  const image = r.pick(IMAGES);
  const cpus = Math.max(1, r.below(4));
  const resources = ctr.linux!.resources!;
  const memLimit = resources.memory!.limit!.value!;
  Object.assign(ctr.labels!, {
    app: f.app,
    'app.kubernetes.io/name': f.app,
    'app.kubernetes.io/component': r.pick(COMPONENTS),
    'app.kubernetes.io/managed-by': 'helm',
    'pod-template-hash': f.hash,
    tier: r.pick(['gold', 'silver', 'bronze']),
  });
  Object.assign(ctr.annotations!, {
    'io.kubernetes.container.hash': r.hex(8),
    'io.kubernetes.container.terminationMessagePolicy': 'File',
    'io.kubernetes.pod.terminationGracePeriod': '30',
    'io.kubernetes.cri.container-type': 'container',
    'io.kubernetes.cri.image-name': `docker.io/library/${image}`,
    'io.kubernetes.cri.sandbox-id': f.id,
    'io.kubernetes.cri.sandbox-name': f.name,
    'io.kubernetes.cri.sandbox-namespace': f.namespace,
  });
  ctr.args = image.startsWith('nginx')
    ? ['nginx', '-g', 'daemon off;']
    : [`/usr/local/bin/${name}`, `--port=${8000 + c}`, `--log-level=${r.pick(['info', 'debug'])}`];
  const service = f.app.toUpperCase().replaceAll('-', '_');
  ctr.env!.push(
    `HOSTNAME=${f.name}`,
    `POD_NAME=${f.name}`,
    `POD_IP=${f.ip}`,
    `NODE_NAME=node-${r.below(50)}`,
    'KUBERNETES_SERVICE_HOST=10.96.0.1',
    'KUBERNETES_SERVICE_PORT=443',
    `${service}_SERVICE_HOST=10.96.${r.below(255)}.${r.below(255)}`,
    `${service}_SERVICE_PORT=8080`,
    `GOMAXPROCS=${cpus}`,
    'TZ=UTC',
  );
  const bind = (destination: string, source: string, mode: 'rw' | 'ro' = 'rw'): nri.IMount => ({
    destination,
    type: 'bind',
    source,
    options: ['rbind', 'rprivate', mode],
  });
  const sandbox = `io.containerd.grpc.v1.cri/sandboxes/${f.id}`;
  ctr.mounts = [
    bind('/etc/hosts', `/var/lib/kubelet/pods/${f.uid}/etc-hosts`),
    bind('/dev/termination-log', `/var/lib/kubelet/pods/${f.uid}/containers/${name}/${r.hex(8)}`),
    bind('/etc/hostname', `/var/lib/containerd/${sandbox}/hostname`),
    bind('/etc/resolv.conf', `/var/lib/containerd/${sandbox}/resolv.conf`),
    bind('/dev/shm', `/run/containerd/${sandbox}/shm`),
    bind(
      '/var/run/secrets/kubernetes.io/serviceaccount',
      `/var/lib/kubelet/pods/${f.uid}/volumes/kubernetes.io~projected/kube-api-access-${r.hex(5)}`,
      'ro',
    ),
    bind('/config', `/var/lib/kubelet/pods/${f.uid}/volumes/kubernetes.io~configmap/config`, 'ro'),
  ];
  ctr.pid = 20_000 + serial;
  ctr.createdAt = (BASE_TIME_MS + f.index * 1000 + c) * 1_000_000;
  ctr.startedAt = (BASE_TIME_MS + f.index * 1000 + c + 500) * 1_000_000;
  resources.memory!.swap = { value: memLimit };
  resources.cpu!.cpus = `0-${cpus * 2 - 1}`;
  resources.cpu!.mems = '0';
  resources.hugepageLimits = [
    { pageSize: '2MB', limit: 0 },
    { pageSize: '1GB', limit: 0 },
  ];
  resources.unified = { 'memory.oom.group': '1' };
  const podNs = `/proc/${10_000 + f.index}/ns`;
  ctr.linux!.namespaces = [
    { type: 'pid' },
    { type: 'ipc', path: `${podNs}/ipc` },
    { type: 'uts', path: `${podNs}/uts` },
    { type: 'mount' },
    { type: 'network', path: `${podNs}/net` },
  ];
  ctr.linux!.oomScoreAdj = { value: f.qos === 'guaranteed' ? -997 : f.qos === 'burstable' ? 500 + r.below(400) : 1000 };
  ctr.linux!.cgroupsPath = `kubepods-${f.qos}-pod${f.uid.replaceAll('-', '_')}.slice:cri-containerd:${ctr.id}`;
}
