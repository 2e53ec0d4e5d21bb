// A warm-up of the JSON writer of wire-json.ts: a pod and a container shaped as a node's
// are (cri-o's and containerd's labels, annotations, env, resources), written and thrown
// away. A one-shot `sync dump -o json` otherwise writes its first thousand messages with
// code V8 has not optimized yet, at about half speed (some 50 ms of a node's 6,000);
// written while the runtime prepares its answer, that time is gone from the wait after it.
import { nri } from './schema.js';
import { wireJsonType, WireJsonWriter, type WireJsonType } from './wire-json.js';

let samples: { type: WireJsonType; bytes: Uint8Array }[] | undefined;

function sampleMessages(): { type: WireJsonType; bytes: Uint8Array }[] {
  const id = (c: string) => c.repeat(64);
  const labels = {
    'io.kubernetes.pod.name': 'svc-193-61acddf505-d721c',
    'io.kubernetes.pod.namespace': 'team-34',
    'io.kubernetes.pod.uid': '1251e5dc-c3e7-f141-d51d-2b42f392aefa',
    app: 'svc-193',
    'app.kubernetes.io/name': 'svc-193',
    'app.kubernetes.io/instance': 'svc-193-prod',
    'app.kubernetes.io/version': '1.8.13',
    'app.kubernetes.io/managed-by': 'helm',
    'topology.kubernetes.io/zone': 'zone-c',
    'pod-template-hash': '61acddf505',
  };
  // kubectl apply's annotation: JSON in a string, every quote escaped.
  const applied = JSON.stringify({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { labels: { app: 'svc-193' }, name: 'svc-193-61acddf505-d721c', namespace: 'team-34' },
    spec: { containers: [{ image: 'registry.example.com/svc-193:1.0', name: 'main' }] },
  });
  const resources = {
    memory: { limit: { value: 106954752 }, swap: { value: 106954752 } },
    cpu: { shares: { value: 102 }, quota: { value: 10200 }, period: { value: 100000 }, cpus: '0-3' },
    unified: { 'memory.high': '100000000' },
  };
  const pod = {
    id: id('a'),
    name: 'svc-193-61acddf505-d721c',
    uid: '1251e5dc-c3e7-f141-d51d-2b42f392aefa',
    namespace: 'team-34',
    labels,
    annotations: {
      'prometheus.io/scrape': 'true',
      'checksum/config': id('c'),
      'kubectl.kubernetes.io/last-applied-configuration': applied,
      'kubernetes.io/config.seen': '2026-11-24T08:00:00.000000000Z',
      'kubernetes.io/config.source': 'api',
    },
    runtimeHandler: 'runc',
    linux: {
      cgroupParent: '/kubepods/burstable/pod1251e5dc',
      namespaces: [{ type: 'network', path: '/var/run/netns/cni-1' }, { type: 'ipc' }],
      podResources: resources,
    },
    pid: 20000,
    ips: ['10.244.1.17'],
  };
  const container = {
    id: id('b'),
    podSandboxId: id('a'),
    name: 'main',
    state: nri.ContainerState.CONTAINER_RUNNING,
    labels: { ...labels, 'io.kubernetes.container.name': 'main' },
    annotations: {
      'io.kubernetes.container.restartCount': '0',
      'io.kubernetes.container.hash': '271f70b2',
      'io.kubernetes.container.ports': '[{"name":"http","containerPort":8080,"protocol":"TCP"}]',
    },
    args: ['/usr/local/bin/main', '--port=8080', '--config=/etc/svc/config.yaml'],
    env: ['PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin', 'KUBERNETES_SERVICE_HOST=10.96.0.1'],
    mounts: [
      {
        destination: '/etc/hosts',
        type: 'bind',
        source: '/var/lib/kubelet/pods/x/etc-hosts',
        options: ['rbind', 'rw'],
      },
    ],
    linux: {
      namespaces: [{ type: 'pid' }, { type: 'mount' }],
      resources,
      oomScoreAdj: { value: 999 },
      cgroupsPath: '/kubepods/burstable/pod1251e5dc/' + id('b'),
    },
    pid: 20001,
    createdAt: 1795507850890238700,
    user: { uid: 1000, gid: 1000, additionalGids: [1000, 10] },
  };
  return [
    { type: wireJsonType('PodSandbox'), bytes: nri.PodSandbox.encode(pod).finish() },
    { type: wireJsonType('Container'), bytes: nri.Container.encode(container).finish() },
  ];
}

/**
 * Writes the sample pod and container `rounds` times, and throws the text away. Through
 * every path a real writer takes, its buffer growing and its text taken: V8 keeps a field
 * never written again as a constant in the code it optimizes, and drops that code when
 * the field changes after all.
 */
export function warmUpWireJson(rounds: number): void {
  samples ??= sampleMessages();
  const writer = new WireJsonWriter(256);
  for (let i = 0; i < rounds; i++) {
    writer.text(',\n    ');
    for (const s of samples) writer.message(s.type, s.bytes, 2);
  }
  writer.take();
}
