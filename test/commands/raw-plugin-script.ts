// A pre-started plugin as a Go plugin behaves where the SDK would not: it subscribes to
// exactly the mask in its name (NN-mHEX), whether the runtime knows those events or not
// (the SDK narrows its mask to what the runtime knows), and serves the pod update events.
// Written into a plugin directory by the tests of sim --preset and sim --replay. It runs
// on the build's wire layers, bundled (test/support/built.ts).
import { builtBundle } from '../support/built.js';

/** The plugin's executable text. */
export async function rawPlugin(): Promise<string> {
  return `#!${process.execPath}
const net = require('node:net');
const { nri, PLUGIN_SERVICE, RUNTIME_SERVICE, Mux, PLUGIN_SERVICE_CONN, RUNTIME_SERVICE_CONN, TtrpcClient, TtrpcServer } = require(${JSON.stringify(await builtBundle())});
const events = parseInt(process.env.NRI_PLUGIN_NAME.slice(1), 16);
const socket = new net.Socket({ fd: 3, readable: true, writable: true });
const mux = new Mux(socket);
const server = new TtrpcServer();
const empty = () => nri.Empty.encode({}).finish();
server.register(PLUGIN_SERVICE, 'Configure', () => nri.ConfigureResponse.encode({ events }).finish());
server.register(PLUGIN_SERVICE, 'Synchronize', (p) => nri.SynchronizeResponse.encode({ more: nri.SynchronizeRequest.decode(p).more }).finish());
server.register(PLUGIN_SERVICE, 'UpdatePodSandbox', () => nri.UpdatePodSandboxResponse.encode({}).finish());
server.register(PLUGIN_SERVICE, 'PostUpdatePodSandbox', empty);
server.register(PLUGIN_SERVICE, 'StateChange', empty);
server.serve(mux.open(PLUGIN_SERVICE_CONN));
const client = new TtrpcClient(mux.open(RUNTIME_SERVICE_CONN));
// A refused registration ends the process with the error, as an unhandled rejection does.
void client.call(RUNTIME_SERVICE, 'RegisterPlugin', nri.RegisterPluginRequest.encode({ pluginName: process.env.NRI_PLUGIN_NAME, pluginIdx: process.env.NRI_PLUGIN_IDX }).finish(), { timeoutMs: 5000 });
socket.on('close', () => process.exit(0));
`;
}
