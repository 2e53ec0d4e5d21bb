// A Go NRI plugin and a Go NRI runtime as far as the wire is concerned: the trunk,
// the two logical connections and ttrpc behave like containerd/nri's pkg/net/multiplex
// and containerd/ttrpc (see go-mux.ts, go-bufio.ts, go-ttrpc.ts). They speak just
// enough NRI for the framing tests: register, configure, synchronize, one event.
import net from 'node:net';
import { nri, PLUGIN_SERVICE, RUNTIME_SERVICE } from '../../src/api/index.js';
import { GoMux } from './go-mux.js';
import { GoClient, goServe } from './go-ttrpc.js';

const PLUGIN_CONN = 1;
const RUNTIME_CONN = 2;

/** A Go plugin (pkg/stub) connected to a runtime: it records what it received and every read error. */
export interface GoPlugin {
  mux: GoMux;
  configure?: nri.ConfigureRequest;
  /** Each Synchronize request as it arrived: the parts of a split state. */
  syncParts: nri.SynchronizeRequest[];
  creates: nri.CreateContainerRequest[];
  readErrors: Error[];
  registered: Promise<void>;
  close(): void;
}

export interface GoPluginOptions {
  events?: number;
  /** The answer to every CreateContainer. */
  createAnswer?: nri.ICreateContainerResponse;
  /** Answer in one frame per message, as a Go peer never does (see GoChannel). */
  wholeFrames?: boolean;
}

export function goPlugin(socket: net.Socket, name: string, index: string, opts: GoPluginOptions = {}): GoPlugin {
  const events = opts.events ?? 0x7ff;
  const mux = new GoMux(socket);
  const plugin: GoPlugin = {
    mux,
    syncParts: [],
    creates: [],
    readErrors: [],
    registered: Promise.resolve(),
    close: () => mux.close(),
  };
  void goServe(
    mux.open(PLUGIN_CONN),
    PLUGIN_SERVICE,
    (method, payload) => {
      switch (method) {
        case 'Configure':
          plugin.configure = nri.ConfigureRequest.decode(payload);
          return nri.ConfigureResponse.encode({ events }).finish();
        case 'Synchronize': {
          const req = nri.SynchronizeRequest.decode(payload);
          plugin.syncParts.push(req);
          return nri.SynchronizeResponse.encode({ more: req.more }).finish();
        }
        case 'CreateContainer':
          plugin.creates.push(nri.CreateContainerRequest.decode(payload));
          return nri.CreateContainerResponse.encode(opts.createAnswer ?? {}).finish();
        default:
          return nri.Empty.encode({}).finish();
      }
    },
    (err) => {
      plugin.readErrors.push(err);
      mux.close('plugin service read failed'); // the Go stub closes the plugin on it
    },
    opts.wholeFrames,
  );
  const client = new GoClient(mux.open(RUNTIME_CONN));
  plugin.registered = client
    .call(
      RUNTIME_SERVICE,
      'RegisterPlugin',
      nri.RegisterPluginRequest.encode({ pluginName: name, pluginIdx: index }).finish(),
    )
    .then(() => undefined);
  plugin.registered.catch(() => undefined);
  return plugin;
}

/** A Go runtime (pkg/adaptation) that has accepted one plugin connection. */
export interface GoRuntime {
  mux: GoMux;
  client: GoClient;
  registration: Promise<nri.RegisterPluginRequest>;
  updates: nri.UpdateContainersRequest[];
  readErrors: Error[];
  call<T>(method: string, req: Uint8Array, decode: (b: Buffer) => T): Promise<T>;
}

export interface GoRuntimeOptions {
  /** Take UpdateContainers requests and never answer them: a runtime that went silent. */
  stallUpdates?: boolean;
}

export function goRuntime(socket: net.Socket, opts: GoRuntimeOptions = {}): GoRuntime {
  const mux = new GoMux(socket);
  let registered!: (r: nri.RegisterPluginRequest) => void;
  const rt: GoRuntime = {
    mux,
    client: new GoClient(mux.open(PLUGIN_CONN)),
    registration: new Promise((resolve) => (registered = resolve)),
    updates: [],
    readErrors: [],
    call: async (method, req, decode) => decode(await rt.client.call(PLUGIN_SERVICE, method, req)),
  };
  void goServe(
    mux.open(RUNTIME_CONN),
    RUNTIME_SERVICE,
    (method, payload) => {
      if (method === 'RegisterPlugin') registered(nri.RegisterPluginRequest.decode(payload));
      if (method === 'UpdateContainers') {
        rt.updates.push(nri.UpdateContainersRequest.decode(payload));
        if (opts.stallUpdates) return new Promise<Uint8Array>(() => undefined);
      }
      return nri.Empty.encode({}).finish();
    },
    (err) => rt.readErrors.push(err),
  );
  return rt;
}

/** Listens like the Go runtime and hands over the first plugin that connects. */
export async function listenGoRuntime(
  socketPath: string,
  opts: GoRuntimeOptions = {},
): Promise<{ accepted: Promise<GoRuntime>; close(): void }> {
  const server = net.createServer();
  let accept!: (rt: GoRuntime) => void;
  const accepted = new Promise<GoRuntime>((resolve) => (accept = resolve));
  server.on('connection', (sock) => accept(goRuntime(sock, opts)));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, resolve);
  });
  return {
    accepted,
    close: () => {
      server.close();
      void accepted.then((rt) => rt.mux.close());
    },
  };
}
