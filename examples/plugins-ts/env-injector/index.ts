// Adds environment variables and annotations to the containers of chosen namespaces.
// What to add comes from the plugin's configuration, which the runtime reads from
// conf.d (NN-env-injector.conf or env-injector.conf) and sends in Configure:
//
//   namespaces: [shop]        # omit for every namespace
//   env: {TZ: UTC}
//   annotations: {example.com/injected: "true"}
import { Stub, PluginError, socketPathFromArgs, type nri } from 'nrictl/plugin';
import YAML from 'yaml';

interface Config {
  namespaces?: string[];
  env: Record<string, string>;
  annotations: Record<string, string>;
}

let config: Config = { env: {}, annotations: {} };

function configure(req: nri.IConfigureRequest) {
  const raw = (req.config ? YAML.parse(req.config) : {}) as Partial<Config> | null;
  // A configuration we cannot use fails Configure, and the runtime tells the operator.
  if (raw !== null && typeof raw !== 'object')
    throw new Error('env-injector: the configuration must be a map with env:, annotations: and namespaces:');
  config = { namespaces: raw?.namespaces, env: raw?.env ?? {}, annotations: raw?.annotations ?? {} };
}

function createContainer(pod: nri.IPodSandbox) {
  if (config.namespaces && !config.namespaces.includes(pod.namespace ?? '')) return;
  const env = Object.entries(config.env).map(([key, value]) => ({ key, value: String(value) }));
  const annotations = Object.fromEntries(Object.entries(config.annotations).map(([k, v]) => [k, String(v)]));
  return { adjust: { env, annotations } };
}

const stub = new Stub(
  { configure, createContainer, onClose: (err) => process.exit(err ? 1 : 0) },
  { socketPath: socketPathFromArgs() },
);
try {
  await stub.start();
} catch (err) {
  console.error(err instanceof PluginError ? err.message : err);
  process.exit(1);
}
