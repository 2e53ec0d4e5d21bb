// The floor of a Node runtime relaying NRI events, and what nrictl's layers add to it.
// It launches FLOOR_PLUGINS (default 1) pre-started plugins (argv[2]) on socketpairs as
// the simulator does, answers their RegisterPlugin, configures and synchronizes each,
// then runs CYCLES cycles of CreateContainer + PostCreateContainer + RemoveContainer
// (the vs-go-events workload, per-event RPCs) and writes one JSON line per event to
// stdout, as refrt and `nrictl sim -o json` do. FLOOR_LAYERS says how much of nrictl a
// call goes through:
//   none       (default) every request encoded once, before the first cycle; a call is
//              one write of those bytes framed by hand with a fresh stream id, and a wait
//              for the answer frame, whose headers alone are read
//   client     nrictl's mux and ttrpc client and server, with the same prebuilt payloads
//   transport  the same, plus a protobuf encode of each request (once per event, for all
//              plugins, as the simulator encodes it) and a decode of each answer
// Each event goes to the plugins one after the other, in index order, as a runtime
// relays it. Prints the CPU of this process (all threads, getrusage) per relayed call
// from the WARM-th cycle on, and cycles/s and events/s, as bench/vs-go-events.bench.ts
// counts them.
//   [FLOOR_PLUGINS=N] node --import tsx bench/vs-go/experiments/relay-floor.ts PLUGIN [CYCLES] [WARM]
import { spawn } from 'node:child_process';
import type { Duplex } from 'node:stream';
import { nri } from '../../../src/api/index.js';
import { Mux } from '../../../src/mux/index.js';
import { TtrpcClient, TtrpcServer } from '../../../src/ttrpc/index.js';

const [plugin, cyclesArg = '300', warmArg = '20'] = process.argv.slice(2);
if (!plugin) throw new Error('usage: relay-floor.ts PLUGIN [CYCLES] [WARM]');
const CYCLES = Number(cyclesArg);
const WARM = Number(warmArg);
const LAYERS = process.env.FLOOR_LAYERS ?? 'none';
if (!['none', 'client', 'transport'].includes(LAYERS)) throw new Error(`FLOOR_LAYERS: none, client or transport`);
const PLUGINS = Number(process.env.FLOOR_PLUGINS ?? 1);
if (!Number.isInteger(PLUGINS) || PLUGINS < 1 || PLUGINS > 89) throw new Error('FLOOR_PLUGINS: 1 to 89');
const PLUGIN_CONN = 1;
const RUNTIME_CONN = 2;
const PLUGIN_SERVICE = 'nri.pkg.api.v1alpha1.Plugin';
const TIMEOUT = { timeoutMs: 2000 };

/** One pre-started plugin, as the simulator launches it: its socket on fd 3. */
function launch(i: number): { child: ReturnType<typeof spawn>; socket: Duplex } {
  const child = spawn(plugin, [], {
    stdio: ['ignore', 'ignore', 'ignore', 'pipe'],
    env: { NRI_PLUGIN_NAME: `template${i}`, NRI_PLUGIN_IDX: String(10 + i), NRI_PLUGIN_SOCKET: '3' },
  });
  return { child, socket: child.stdio[3] as Duplex };
}

// ---- the workload's pod and container, as the bench's scenario has them ----
const pod = nri.PodSandbox.fromObject({
  id: 'pod-bench',
  name: 'bench-0',
  uid: 'uid-bench-0',
  namespace: 'bench',
  labels: { app: 'bench' },
});
const container = nri.Container.fromObject({
  id: 'c-0',
  podSandboxId: 'pod-bench',
  name: 'bench-0',
  state: nri.ContainerState.CONTAINER_CREATED,
  labels: { 'io.kubernetes.container.name': 'bench' },
  args: ['/bin/sleep', 'infinity'],
  env: ['A=1'],
  linux: {
    resources: {
      cpu: { shares: { value: 256 }, quota: { value: 50000 }, period: { value: 100000 } },
      memory: { limit: { value: 268435456 } },
    },
    cgroupsPath: 'kubepods-pod-bench.slice:cri-containerd:c-0',
  },
});

interface Step {
  method: string;
  encode(): Uint8Array;
  decode(answer: Uint8Array): unknown;
}
const steps: Step[] = [
  {
    method: 'CreateContainer',
    encode: () => nri.CreateContainerRequest.encode({ pod, container }).finish(),
    decode: (b) => nri.CreateContainerResponse.decode(b),
  },
  {
    method: 'PostCreateContainer',
    encode: () => nri.PostCreateContainerRequest.encode({ pod, container }).finish(),
    decode: (b) => nri.PostCreateContainerResponse.decode(b),
  },
  {
    method: 'RemoveContainer',
    encode: () => nri.RemoveContainerRequest.encode({ pod, container }).finish(),
    decode: (b) => nri.RemoveContainerResponse.decode(b),
  },
];
const prebuilt = steps.map((s) => s.encode());
const configure = nri.ConfigureRequest.encode({
  runtimeName: 'floor',
  runtimeVersion: '0',
  registrationTimeout: 5000,
  requestTimeout: 2000,
}).finish();
const synchronize = nri.SynchronizeRequest.encode({ pods: [pod] }).finish();

/** Sends one request and resolves once it is answered. */
type Call = (method: string, payload: Uint8Array) => Promise<Uint8Array>;

// ---- by hand: mux header (conn, length) + ttrpc header (length, stream, type, flags) ----
function handFramedCalls(socket: Duplex, registered: () => void): Call {
  const frame = (conn: number, stream: number, type: number, message: Uint8Array): Buffer => {
    const b = Buffer.allocUnsafe(18 + message.length);
    b.writeUInt32BE(conn, 0);
    b.writeUInt32BE(10 + message.length, 4);
    b.writeUInt32BE(message.length, 8);
    b.writeUInt32BE(stream, 12);
    b[16] = type;
    b[17] = 0;
    b.set(message, 18);
    return b;
  };
  // A ttrpc Request: service (1), method (2), payload (3), each length-delimited.
  const request = (method: string, payload: Uint8Array): Uint8Array => {
    const out: number[] = [];
    for (const [no, bytes] of [
      [1, Buffer.from(PLUGIN_SERVICE)],
      [2, Buffer.from(method)],
      [3, payload],
    ] as const) {
      out.push((no << 3) | 2);
      let n = bytes.length;
      for (; n > 127; n >>>= 7) out.push((n & 127) | 128);
      out.push(n, ...bytes);
    }
    return Uint8Array.from(out);
  };
  const requests = new Map<Uint8Array, Uint8Array>();
  let pending: Buffer = Buffer.alloc(0);
  let waiting: { stream: number; resolve(b: Uint8Array): void } | undefined;
  socket.on('data', (chunk: Buffer) => {
    pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
    while (pending.length >= 8 && pending.length >= 8 + pending.readUInt32BE(4)) {
      const end = 8 + pending.readUInt32BE(4);
      const [conn, stream, type] = [pending.readUInt32BE(0), pending.readUInt32BE(12), pending[16]];
      const message = pending.subarray(18, end);
      pending = pending.subarray(end);
      // The plugin's calls (RegisterPlugin): a Response with an empty payload.
      if (conn === RUNTIME_CONN && type === 1) {
        socket.write(frame(RUNTIME_CONN, stream, 2, Uint8Array.of(0x12, 0)));
        registered();
      } else if (conn === PLUGIN_CONN && type === 2 && waiting?.stream === stream) waiting.resolve(message);
    }
  });
  let stream = 1;
  return (method, payload) => {
    let message = requests.get(payload);
    if (!message) requests.set(payload, (message = request(method, payload)));
    const id = stream;
    stream += 2;
    return new Promise((resolve) => {
      waiting = { stream: id, resolve };
      socket.write(frame(PLUGIN_CONN, id, 1, message));
    });
  };
}

function nrictlCalls(socket: Duplex, registered: () => void): Call {
  const mux = new Mux(socket);
  const client = new TtrpcClient(mux.open(PLUGIN_CONN), { strictGoFraming: true });
  const server = new TtrpcServer({ strictGoFraming: true });
  server.register('nri.pkg.api.v1alpha1.Runtime', 'RegisterPlugin', () => {
    queueMicrotask(registered);
    return nri.Empty.encode({}).finish();
  });
  server.serve(mux.open(RUNTIME_CONN));
  return (method, payload) => client.call(PLUGIN_SERVICE, method, payload, TIMEOUT);
}

function line(event: string, id: number): void {
  process.stdout.write(`{"time":"${new Date().toISOString()}","event":"${event}","container":"c-${id}"}\n`);
}

// The plugins register first; then Configure and Synchronize, and the cycles.
const plugins = await Promise.all(
  Array.from({ length: PLUGINS }, async (_, i) => {
    const { child, socket } = launch(i);
    let registered!: () => void;
    const done = new Promise<void>((r) => (registered = r));
    const call = (LAYERS === 'none' ? handFramedCalls : nrictlCalls)(socket, registered);
    await done;
    return { child, socket, call };
  }),
);
for (const p of plugins) {
  await p.call('Configure', configure);
  await p.call('Synchronize', synchronize);
}
let from = process.cpuUsage();
let t0 = process.hrtime.bigint();
for (let i = 0; i < CYCLES; i++) {
  if (i === WARM) {
    from = process.cpuUsage();
    t0 = process.hrtime.bigint();
  }
  for (const [n, step] of steps.entries()) {
    const payload = LAYERS === 'transport' ? step.encode() : prebuilt[n];
    for (const p of plugins) {
      const answer = await p.call(step.method, payload);
      if (LAYERS === 'transport') step.decode(answer);
    }
    line(step.method, i);
  }
}
const cpu = process.cpuUsage(from);
const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
const events = (CYCLES - WARM) * steps.length;
process.stderr.write(
  `floor (${LAYERS}, ${PLUGINS} plugin${PLUGINS === 1 ? '' : 's'}): ${CYCLES} cycles, from cycle ${WARM}: ` +
    `${((cpu.user + cpu.system) / (events * PLUGINS)).toFixed(0)} µs CPU per relayed call, ` +
    `${((CYCLES - WARM) / seconds).toFixed(0)} cycles/s, ${(events / seconds).toFixed(0)} events/s\n`,
);
for (const p of plugins) {
  p.child.kill('SIGTERM');
  p.socket.destroy();
}
