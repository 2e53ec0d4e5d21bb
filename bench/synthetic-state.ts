// A deterministic, realistic-looking node state for benchmarks and tests: pods and
// containers shaped like what containerd hands NRI for Kubernetes workloads (k8s
// labels and annotations, env, mounts, cgroup paths, linux resources). Same seed, same
// state, so figures are comparable from run to run.
import { nri } from '../src/api/index.js';

export interface SyntheticStateOptions {
  pods: number;
  containersPerPod: number;
  seed?: number;
}

// mulberry32: tiny, fast, good enough to vary names and numbers.
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

const APPS = ['web', 'api', 'worker', 'cache', 'db', 'ingest', 'metrics', 'auth', 'search', 'billing'];
const NAMESPACES = ['default', 'prod', 'staging', 'kube-system', 'monitoring', 'payments'];
const QOS = ['besteffort', 'burstable', 'guaranteed'] as const;
const IMAGES = ['nginx:1.27', 'redis:7.2', 'postgres:16', 'python:3.12-slim', 'golang:1.22', 'envoyproxy/envoy:v1.30'];

export function syntheticState({ pods, containersPerPod, seed = 1 }: SyntheticStateOptions): {
  pods: nri.IPodSandbox[];
  containers: nri.IContainer[];
} {
  const rand = rng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const hex = (n: number): string => Array.from({ length: n }, () => Math.floor(rand() * 16).toString(16)).join('');
  const uuid = (): string => `${hex(8)}-${hex(4)}-4${hex(3)}-8${hex(3)}-${hex(12)}`;
  const baseTime = 1_700_000_000_000; // ms; timestamps below are ms-precise ns values

  const podList: nri.IPodSandbox[] = [];
  const ctrList: nri.IContainer[] = [];

  for (let p = 0; p < pods; p++) {
    const app = pick(APPS);
    const ns = pick(NAMESPACES);
    const qos = pick(QOS);
    const uid = uuid();
    const hash = hex(10);
    const podName = `${app}-${hash}-${hex(5)}`;
    const podId = hex(64);
    const cgroupParent = `/kubepods.slice/kubepods-${qos}.slice/kubepods-${qos}-pod${uid.replace(/-/g, '_')}.slice`;
    podList.push({
      id: podId,
      name: podName,
      uid,
      namespace: ns,
      labels: {
        app,
        'app.kubernetes.io/name': app,
        'app.kubernetes.io/instance': `${app}-${ns}`,
        'app.kubernetes.io/version': `1.${Math.floor(rand() * 20)}.${Math.floor(rand() * 10)}`,
        'app.kubernetes.io/component': pick(['frontend', 'backend', 'database', 'queue']),
        'app.kubernetes.io/part-of': 'shop',
        'app.kubernetes.io/managed-by': 'helm',
        'pod-template-hash': hash,
        'io.kubernetes.pod.name': podName,
        'io.kubernetes.pod.namespace': ns,
        'io.kubernetes.pod.uid': uid,
      },
      annotations: {
        'kubernetes.io/config.seen': new Date(baseTime + p * 1000).toISOString(),
        'kubernetes.io/config.source': 'api',
        'kubectl.kubernetes.io/restartedAt': new Date(baseTime - 86_400_000).toISOString(),
        'prometheus.io/scrape': 'true',
        'prometheus.io/port': String(8000 + Math.floor(rand() * 1000)),
        'prometheus.io/path': '/metrics',
        'cluster-autoscaler.kubernetes.io/safe-to-evict': 'true',
        'checksum/config': hex(64),
        'seccomp.security.alpha.kubernetes.io/pod': 'runtime/default',
        'io.kubernetes.cri.sandbox-id': podId,
      },
      runtimeHandler: 'runc',
      pid: 10_000 + p,
      ips: [`10.${(p >> 16) & 255}.${(p >> 8) & 255}.${p & 255}`],
      linux: {
        cgroupParent,
        cgroupsPath: `${cgroupParent}:cri-containerd:${podId}`,
        podResources: {
          cpu: { shares: { value: 1024 * containersPerPod }, quota: { value: 100_000 * containersPerPod }, period: { value: 100_000 } },
          memory: { limit: { value: containersPerPod * 512 * 2 ** 20 } },
        },
        namespaces: [
          { type: 'network', path: `/var/run/netns/cni-${uuid()}` },
          { type: 'ipc' },
          { type: 'uts' },
        ],
      },
    });

    for (let c = 0; c < containersPerPod; c++) {
      const name = c === 0 ? app : pick(['sidecar', 'envoy', 'log-shipper', 'init-config', 'exporter']) + `-${c}`;
      const ctrId = hex(64);
      const image = pick(IMAGES);
      const cpus = Math.max(1, Math.floor(rand() * 4));
      const memLimit = (128 << Math.floor(rand() * 4)) * 2 ** 20;
      ctrList.push({
        id: ctrId,
        podSandboxId: podId,
        name,
        state: c === 0 || rand() < 0.9 ? nri.ContainerState.CONTAINER_RUNNING : nri.ContainerState.CONTAINER_CREATED,
        labels: {
          'io.kubernetes.container.name': name,
          'io.kubernetes.pod.name': podName,
          'io.kubernetes.pod.namespace': ns,
          'io.kubernetes.pod.uid': uid,
          app,
          'app.kubernetes.io/name': app,
          'app.kubernetes.io/component': pick(['frontend', 'backend', 'database', 'queue']),
          'app.kubernetes.io/managed-by': 'helm',
          'pod-template-hash': hash,
          tier: pick(['gold', 'silver', 'bronze']),
        },
        annotations: {
          'io.kubernetes.container.hash': hex(8),
          'io.kubernetes.container.restartCount': String(Math.floor(rand() * 3)),
          'io.kubernetes.container.terminationMessagePath': '/dev/termination-log',
          'io.kubernetes.container.terminationMessagePolicy': 'File',
          'io.kubernetes.pod.terminationGracePeriod': '30',
          'io.kubernetes.cri.container-type': 'container',
          'io.kubernetes.cri.image-name': `docker.io/library/${image}`,
          'io.kubernetes.cri.sandbox-id': podId,
          'io.kubernetes.cri.sandbox-name': podName,
          'io.kubernetes.cri.sandbox-namespace': ns,
        },
        args: image.startsWith('nginx') ? ['nginx', '-g', 'daemon off;'] : ['/app/server', '--port=8080', `--log-level=${pick(['info', 'debug'])}`],
        env: [
          'PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
          `HOSTNAME=${podName}`,
          `POD_NAME=${podName}`,
          `POD_NAMESPACE=${ns}`,
          `POD_IP=10.${(p >> 16) & 255}.${(p >> 8) & 255}.${p & 255}`,
          `NODE_NAME=node-${Math.floor(rand() * 50)}`,
          'KUBERNETES_SERVICE_HOST=10.96.0.1',
          'KUBERNETES_SERVICE_PORT=443',
          `${app.toUpperCase()}_SERVICE_HOST=10.96.${Math.floor(rand() * 255)}.${Math.floor(rand() * 255)}`,
          `${app.toUpperCase()}_SERVICE_PORT=8080`,
          `GOMAXPROCS=${cpus}`,
          'TZ=UTC',
        ],
        mounts: [
          { destination: '/etc/hosts', type: 'bind', source: `/var/lib/kubelet/pods/${uid}/etc-hosts`, options: ['rbind', 'rprivate', 'rw'] },
          { destination: '/dev/termination-log', type: 'bind', source: `/var/lib/kubelet/pods/${uid}/containers/${name}/${hex(8)}`, options: ['rbind', 'rprivate', 'rw'] },
          { destination: '/etc/hostname', type: 'bind', source: `/var/lib/containerd/io.containerd.grpc.v1.cri/sandboxes/${podId}/hostname`, options: ['rbind', 'rprivate', 'rw'] },
          { destination: '/etc/resolv.conf', type: 'bind', source: `/var/lib/containerd/io.containerd.grpc.v1.cri/sandboxes/${podId}/resolv.conf`, options: ['rbind', 'rprivate', 'rw'] },
          { destination: '/dev/shm', type: 'bind', source: `/run/containerd/io.containerd.grpc.v1.cri/sandboxes/${podId}/shm`, options: ['rbind', 'rprivate', 'rw'] },
          { destination: '/var/run/secrets/kubernetes.io/serviceaccount', type: 'bind', source: `/var/lib/kubelet/pods/${uid}/volumes/kubernetes.io~projected/kube-api-access-${hex(5)}`, options: ['rbind', 'rprivate', 'ro'] },
          { destination: '/config', type: 'bind', source: `/var/lib/kubelet/pods/${uid}/volumes/kubernetes.io~configmap/config`, options: ['rbind', 'rprivate', 'ro'] },
        ],
        pid: 20_000 + ctrList.length,
        createdAt: (baseTime + p * 1000 + c) * 1_000_000,
        startedAt: (baseTime + p * 1000 + c + 500) * 1_000_000,
        linux: {
          namespaces: [
            { type: 'pid' },
            { type: 'ipc', path: `/proc/${10_000 + p}/ns/ipc` },
            { type: 'uts', path: `/proc/${10_000 + p}/ns/uts` },
            { type: 'mount' },
            { type: 'network', path: `/proc/${10_000 + p}/ns/net` },
          ],
          resources: {
            memory: { limit: { value: memLimit }, swap: { value: memLimit } },
            cpu: {
              shares: { value: cpus * 1024 },
              quota: { value: cpus * 100_000 },
              period: { value: 100_000 },
              cpus: `0-${cpus * 2 - 1}`,
              mems: '0',
            },
            hugepageLimits: [
              { pageSize: '2MB', limit: 0 },
              { pageSize: '1GB', limit: 0 },
            ],
            unified: { 'memory.oom.group': '1' },
          },
          oomScoreAdj: { value: qos === 'guaranteed' ? -997 : qos === 'burstable' ? 500 + Math.floor(rand() * 400) : 1000 },
          cgroupsPath: `kubepods-${qos}-pod${uid.replace(/-/g, '_')}.slice:cri-containerd:${ctrId}`,
        },
      });
    }
  }
  return { pods: podList, containers: ctrList };
}
