// What a runtime's NRI generation means for update and evict.
import type { RuntimeInfo } from '../session/index.js';

/** The vintage label runtimeVintage gives runtimes that drop evictions on the floor. */
export const NO_EVICTION_VINTAGE = 'NRI v0.6 or older';

export function ignoresEvictions(runtime: RuntimeInfo | undefined): boolean {
  return runtime?.vintage === NO_EVICTION_VINTAGE;
}
