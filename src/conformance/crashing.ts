// CRI calls known to bring a runtime down. nrictl never hurts the node it inspects: a
// check that needs such a call is skipped on that runtime, with the reason, unless the
// run is told to include it (--include-crashing), and then the runtime goes down.
import { runtimeFamily, type RuntimeFamily } from '../api/index.js';

export type CrashingCall = 'UpdateContainerResources';

const CRASHES: Record<CrashingCall, ReadonlyArray<{ family: RuntimeFamily; why: string }>> = {
  UpdateContainerResources: [
    {
      family: 'isulad',
      // Seen on iSulad master d2434895 (the real-runtime kit), still so at fd0fcf85.
      why: 'iSulad with NRI enabled exits (SIGSEGV) on any CRI UpdateContainerResources, whether or not a plugin is connected: NRIAdaptation::UpdateContainer reads pluginResult::GetReplyResources, an entry nothing filled',
    },
  ],
};

/** Why `call` would bring this runtime (CRI Version's name and version) down, or undefined. */
export function crashesOn(call: CrashingCall, runtimeName: string, runtimeVersion: string): string | undefined {
  const family = runtimeFamily(runtimeName, runtimeVersion);
  return CRASHES[call].find((c) => c.family === family)?.why;
}
