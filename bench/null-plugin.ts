// A control for logs.bench.ts: an SDK plugin subscribed to what `nrictl logs` subscribes
// to by default (every event but validation) that answers at once and does nothing else, so the figures separate what the transport and the
// machine cost from what `nrictl logs` adds on top. Usage: null-plugin.ts SOCKET NAME
import { DEFAULT_LOG_EVENTS } from '../src/observe/log-stream.js';
import { Stub, EVENT_HANDLER_NAMES, type PluginHandlers } from '../src/plugin/index.js';

const [socketPath, name = 'null'] = process.argv.slice(2);
const handlers: PluginHandlers = {};
for (const [handler] of EVENT_HANDLER_NAMES) (handlers as Record<string, () => void>)[handler] = () => {};
const stub = new Stub(handlers, { socketPath, name, index: '99', events: DEFAULT_LOG_EVENTS });
await stub.start();
process.on('SIGTERM', () => void stub.stop().then(() => process.exit(0)));
