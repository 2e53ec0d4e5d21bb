// A plugin written against the wire, without the SDK: it serves only the methods a
// v0.6-era Go stub serves, records every call as it arrives, and can say things the
// SDK refuses to say (event bits the runtime does not know, names the runtime forbids).
import net from 'node:net';
import { nri, PLUGIN_SERVICE, RUNTIME_SERVICE } from '../../src/api/index.js';
import { Mux, PLUGIN_SERVICE_CONN, RUNTIME_SERVICE_CONN } from '../../src/mux/index.js';
import { Code, TtrpcClient, TtrpcError, TtrpcServer } from '../../src/ttrpc/index.js';

/** Methods newer runtimes call that a v0.6-era stub does not serve. */
const NEWER_METHODS = [
  'RunPodSandbox',
  'UpdatePodSandbox',
  'PostUpdatePodSandbox',
  'StopPodSandbox',
  'RemovePodSandbox',
  'PostCreateContainer',
  'StartContainer',
  'PostStartContainer',
  'PostUpdateContainer',
  'RemoveContainer',
  'ValidateContainerAdjustment',
];

export interface RawCall {
  method: string;
  /** StateChange: the event name carried. */
  refused?: true;
  event?: string;
  request: Record<string, unknown>;
}

export interface RawPlugin {
  calls: RawCall[];
  /** Resolves once RegisterPlugin was answered; rejects with the runtime's refusal. */
  registered: Promise<void>;
  close(): void;
}

export function connectRawPlugin(socketPath: string, opts: { name: string; index: string; events: number }): RawPlugin {
  const calls: RawCall[] = [];
  const socket = net.connect(socketPath);
  const mux = new Mux(socket);
  const server = new TtrpcServer();
  const record = (
    method: string,
    type: { decode(b: Buffer): object; toObject(m: never, o?: object): Record<string, unknown> },
    payload: Buffer,
  ): Record<string, unknown> => {
    const request = type.toObject(type.decode(payload) as never, { enums: String, defaults: false });
    calls.push({ method, ...(method === 'StateChange' ? { event: String(request.event) } : {}), request });
    return request;
  };
  server.register(PLUGIN_SERVICE, 'Configure', (p) => {
    record('Configure', nri.ConfigureRequest, p);
    return nri.ConfigureResponse.encode({ events: opts.events }).finish();
  });
  server.register(PLUGIN_SERVICE, 'Synchronize', (p) => {
    const req = record('Synchronize', nri.SynchronizeRequest, p);
    return nri.SynchronizeResponse.encode({ more: req.more === true }).finish();
  });
  server.register(PLUGIN_SERVICE, 'CreateContainer', (p) => {
    record('CreateContainer', nri.CreateContainerRequest, p);
    return nri.CreateContainerResponse.encode({}).finish();
  });
  server.register(PLUGIN_SERVICE, 'UpdateContainer', (p) => {
    record('UpdateContainer', nri.UpdateContainerRequest, p);
    return nri.UpdateContainerResponse.encode({}).finish();
  });
  server.register(PLUGIN_SERVICE, 'StopContainer', (p) => {
    record('StopContainer', nri.StopContainerRequest, p);
    return nri.StopContainerResponse.encode({}).finish();
  });
  server.register(PLUGIN_SERVICE, 'StateChange', (p) => {
    record('StateChange', nri.StateChangeEvent, p);
    return nri.Empty.encode({}).finish();
  });
  for (const method of NEWER_METHODS) {
    server.register(PLUGIN_SERVICE, method, () => {
      // Recorded, then refused the way a Go stub without the method refuses it.
      calls.push({ method, refused: true, request: {} });
      throw new TtrpcError(Code.Unimplemented, `method ${method} not implemented`);
    });
  }
  server.serve(mux.open(PLUGIN_SERVICE_CONN)).on('error', () => undefined);
  const conn = mux.open(RUNTIME_SERVICE_CONN);
  conn.on('error', () => undefined);
  const client = new TtrpcClient(conn);
  client.on('error', () => undefined);
  mux.on('close', () => undefined);
  socket.on('error', () => undefined);
  const registered = client
    .call(
      RUNTIME_SERVICE,
      'RegisterPlugin',
      nri.RegisterPluginRequest.encode({ pluginName: opts.name, pluginIdx: opts.index }).finish(),
      { timeoutMs: 5000 },
    )
    .then(() => undefined);
  registered.catch(() => undefined);
  return {
    calls,
    registered,
    close: () => {
      client.close();
      mux.close();
      socket.destroy();
    },
  };
}
