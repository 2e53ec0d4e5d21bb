// Pins containers to the CPUs their pod asks for: the pod annotation
// cpu-pinner.nri.io/cpus.<container> (for one container) or cpu-pinner.nri.io/cpus
// (for all of them) holds a cpuset list such as "2-3" or "0,4-5".
import { Stub, PluginError, socketPathFromArgs, type nri } from 'nrictl/plugin';

const KEY = 'cpu-pinner.nri.io/cpus';
const CPUSET = /^\d+(-\d+)?(,\d+(-\d+)?)*$/;

function createContainer(pod: nri.IPodSandbox, ctr: nri.IContainer) {
  const cpus = pod.annotations?.[`${KEY}.${ctr.name}`] ?? pod.annotations?.[KEY];
  if (cpus === undefined) return;
  // A bad annotation fails the creation: better than a container on CPUs nobody asked for.
  if (!CPUSET.test(cpus))
    throw new Error(`pod ${pod.namespace}/${pod.name}: ${KEY} "${cpus}" is not a cpuset list such as 2-3 or 0,4-5`);
  return { adjust: { linux: { resources: { cpu: { cpus } } } } };
}

const stub = new Stub(
  { createContainer, onClose: (err) => process.exit(err ? 1 : 0) },
  { socketPath: socketPathFromArgs() },
);
try {
  await stub.start();
} catch (err) {
  console.error(err instanceof PluginError ? err.message : err);
  process.exit(1);
}
