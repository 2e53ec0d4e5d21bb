// A warm start: before a plugin registers, run its hot path (mux framing, ttrpc decode
// and dispatch, NRI decode, the SDK's event dispatch, NRI and ttrpc encode) on sample
// events, so that V8 has compiled it before the runtime's first real event. A fresh
// Node process runs that code in its interpreter for the first few thousand events,
// and on a node those events are a new plugin's first pods.
//
// What runs: the SDK's own code, on an in-memory pair of streams (no socket, no file),
// with handlers of its own (WARM_HANDLERS). The author's handlers are never called, so
// nothing the plugin does (side effects, counters, logs) can see the warm-up. The cost
// is bounded in time and in rounds, and paid once per process.
import { Duplex } from 'node:stream';
import { PLUGIN_SERVICE, PluginMethod, nri } from '../api/index.js';
import { Mux, PLUGIN_SERVICE_CONN } from '../mux/index.js';
import { TtrpcClient, TtrpcServer } from '../ttrpc/index.js';
import type { PluginHandlers } from './handlers.js';
import { eventMethods, gatedEventMethods, registerPluginService } from './plugin-service.js';

/** The longest a warm-up may take; a plugin's registration bound is 5 s by default. */
export const WARM_BUDGET_MS = 250;
/** Rounds of sample events at most: past a few thousand calls V8 has nothing left to learn. */
export const WARM_MAX_ROUNDS = 2000;

export interface WarmResult {
  rounds: number;
  ms: number;
}

let warmed: Promise<WarmResult> | undefined;

/**
 * Warms the hot path once per process; later calls get the first one's result.
 * `methods` are the Plugin service methods to run (the ones the plugin serves).
 * Never rejects: a warm-up that fails only leaves the plugin as cold as it was.
 */
export function warmOnce(methods: readonly PluginMethod[], budgetMs = WARM_BUDGET_MS): Promise<WarmResult> {
  warmed ??= warm(methods, budgetMs).catch(() => ({ rounds: 0, ms: 0 }));
  return warmed;
}

/** The Plugin service methods that serve the given handlers (CreateContainer always). */
export function warmMethods(handlers: PluginHandlers): PluginMethod[] {
  const methods = new Set<PluginMethod>([PluginMethod.CreateContainer]);
  for (const method of Object.values(PluginMethod)) {
    const handler = (method[0].toLowerCase() + method.slice(1)) as keyof PluginHandlers;
    if (typeof handlers[handler] === 'function' && method in samples()) methods.add(method);
  }
  return [...methods];
}

async function warm(methods: readonly PluginMethod[], budgetMs: number): Promise<WarmResult> {
  const started = performance.now();
  const [pluginSide, runtimeSide] = streamPair();
  const pluginMux = new Mux(pluginSide, { label: 'warm-up' });
  const runtimeMux = new Mux(runtimeSide, { label: 'warm-up' });
  const server = new TtrpcServer();
  // Wired as Stub wires a connection, on handlers of our own.
  registerPluginService(
    server,
    {
      ...gatedEventMethods(eventMethods(WARM_HANDLERS), () => true, 'warm-up'),
      Configure: () => ({}),
      Synchronize: () => ({}),
      Shutdown: () => undefined,
    },
    'warm-up',
  );
  server.serve(pluginMux.open(PLUGIN_SERVICE_CONN));
  const client = new TtrpcClient(runtimeMux.open(PLUGIN_SERVICE_CONN));
  const calls = methods.flatMap((m) => {
    const payload = samples()[m];
    return payload ? [{ method: m, payload }] : [];
  });
  let rounds = 0;
  try {
    while (rounds < WARM_MAX_ROUNDS && performance.now() - started < budgetMs) {
      for (const { method, payload } of calls) {
        // A deadline, as runtimes send one: the server's timer path is part of every call.
        await client.call(PLUGIN_SERVICE, method, payload, { timeoutMs: 2000 });
      }
      rounds++;
    }
  } finally {
    runtimeMux.destroy();
    pluginMux.destroy();
  }
  return { rounds, ms: performance.now() - started };
}

/**
 * Two connected in-memory streams. Delivery is deferred (never inside the writer's
 * call, which a socket never does either) but only to the next tick: a turn of the event
 * loop per chunk would spend the budget on waiting rather than on the code to warm.
 */
function streamPair(): [Duplex, Duplex] {
  const ends: Duplex[] = [];
  const end = (peer: () => Duplex) =>
    new Duplex({
      read() {},
      write(chunk: Buffer, _encoding, done) {
        process.nextTick(() => peer().push(chunk));
        done();
      },
      final(done) {
        process.nextTick(() => peer().push(null));
        done();
      },
    });
  ends.push(
    end(() => ends[1]),
    end(() => ends[0]),
  );
  return [ends[0], ends[1]];
}

// The sample answers exercise the encoders of what plugins answer most: an adjustment
// with annotations, environment and resources.
const WARM_HANDLERS: PluginHandlers = {
  createContainer: () => ({
    adjust: {
      annotations: { 'example.com/warm': 'yes' },
      env: [{ key: 'WARM', value: '1' }],
      linux: { resources: { cpu: { shares: { value: 512 } }, memory: { limit: { value: 1 << 30 } } } },
    },
  }),
  updateContainer: () => [],
  stopContainer: () => [],
  validateContainerAdjustment: () => undefined,
};

// A pod and a container shaped like the ones kubelet makes: labels, annotations,
// environment, mounts, namespaces and resources, so that decoding meets every kind of field.
const labels = {
  'io.kubernetes.pod.name': 'web-7d9c8b6f5-x2x9q',
  'io.kubernetes.pod.namespace': 'default',
  'io.kubernetes.pod.uid': '6b1c0f4e-2f5e-4b8e-9d6a-1f2e3d4c5b6a',
  app: 'web',
  'pod-template-hash': '7d9c8b6f5',
};
const resources: nri.ILinuxResources = {
  cpu: { shares: { value: 102 }, quota: { value: 50000 }, period: { value: 100000 }, cpus: '0-3' },
  memory: { limit: { value: 268435456 } },
};
const pod: nri.IPodSandbox = {
  id: 'a'.repeat(64),
  name: 'web-7d9c8b6f5-x2x9q',
  uid: '6b1c0f4e-2f5e-4b8e-9d6a-1f2e3d4c5b6a',
  namespace: 'default',
  labels,
  annotations: { 'kubernetes.io/config.source': 'api', 'kubernetes.io/config.seen': '2026-01-01T00:00:00Z' },
  runtimeHandler: 'runc',
  linux: {
    cgroupParent: '/kubepods/burstable/pod6b1c0f4e',
    cgroupsPath: '/kubepods/burstable/pod6b1c0f4e/' + 'a'.repeat(64),
    namespaces: [{ type: 'network', path: '/var/run/netns/cni-1' }, { type: 'ipc' }, { type: 'uts' }],
    resources,
  },
  pid: 4242,
  ips: ['10.0.0.12'],
};
const container: nri.IContainer = {
  id: 'b'.repeat(64),
  podSandboxId: pod.id,
  name: 'web',
  state: nri.ContainerState.CONTAINER_CREATED,
  labels: { ...labels, 'io.kubernetes.container.name': 'web' },
  annotations: { 'io.kubernetes.container.hash': '1a2b3c4d', 'io.kubernetes.container.restartCount': '0' },
  args: ['nginx', '-g', 'daemon off;'],
  env: ['PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin', 'HOSTNAME=web', 'KUBERNETES_SERVICE_HOST=10.96.0.1'],
  mounts: [
    { destination: '/etc/hosts', type: 'bind', source: '/var/lib/kubelet/pods/x/etc-hosts', options: ['rbind', 'rw'] },
    { destination: '/dev/termination-log', type: 'bind', source: '/var/lib/kubelet/pods/x/term', options: ['rbind'] },
  ],
  linux: {
    namespaces: [{ type: 'pid' }, { type: 'mount' }, { type: 'network', path: '/var/run/netns/cni-1' }],
    resources,
    oomScoreAdj: { value: 1000 },
    cgroupsPath: 'kubepods-burstable-pod6b1c0f4e.slice:cri-containerd:' + 'b'.repeat(64),
  },
  pid: 4343,
};
const podAndContainer = { pod, container };

const encode = <T>(type: { encode(m: T): { finish(): Uint8Array } }, m: T): Uint8Array => type.encode(m).finish();

/** One encoded request for every method warmed; made on first use, not when the SDK is imported. */
function samples(): Partial<Record<PluginMethod, Uint8Array>> {
  return (sampleRequests ??= encodeSamples());
}
let sampleRequests: Partial<Record<PluginMethod, Uint8Array>> | undefined;

function encodeSamples(): Partial<Record<PluginMethod, Uint8Array>> {
  return {
    [PluginMethod.RunPodSandbox]: encode(nri.RunPodSandboxRequest, { pod }),
    [PluginMethod.UpdatePodSandbox]: encode(nri.UpdatePodSandboxRequest, { pod, linuxResources: resources }),
    [PluginMethod.PostUpdatePodSandbox]: encode(nri.PostUpdatePodSandboxRequest, { pod }),
    [PluginMethod.StopPodSandbox]: encode(nri.StopPodSandboxRequest, { pod }),
    [PluginMethod.RemovePodSandbox]: encode(nri.RemovePodSandboxRequest, { pod }),
    [PluginMethod.CreateContainer]: encode(nri.CreateContainerRequest, podAndContainer),
    [PluginMethod.PostCreateContainer]: encode(nri.PostCreateContainerRequest, podAndContainer),
    [PluginMethod.StartContainer]: encode(nri.StartContainerRequest, podAndContainer),
    [PluginMethod.PostStartContainer]: encode(nri.PostStartContainerRequest, podAndContainer),
    [PluginMethod.UpdateContainer]: encode(nri.UpdateContainerRequest, {
      ...podAndContainer,
      linuxResources: resources,
    }),
    [PluginMethod.PostUpdateContainer]: encode(nri.PostUpdateContainerRequest, podAndContainer),
    [PluginMethod.StopContainer]: encode(nri.StopContainerRequest, podAndContainer),
    [PluginMethod.RemoveContainer]: encode(nri.RemoveContainerRequest, podAndContainer),
    [PluginMethod.ValidateContainerAdjustment]: encode(nri.ValidateContainerAdjustmentRequest, {
      pod,
      container,
      adjust: { annotations: { 'example.com/warm': 'yes' } },
    }),
  };
}
