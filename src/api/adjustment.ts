// Whether a plugin's answer asks for anything. Plugins that change nothing still answer
// CreateContainer with an adjustment (the Go samples always do, and iSulad requires it):
// telling that empty message from a real one lets the runtime skip the copy and the merge.
import type { nri } from './schema.js';

/**
 * True when the adjustment holds no entry: no annotations, mounts, env, args, rlimits,
 * CDI devices or hooks, and no linux part. A linux part that is present counts as
 * something even when empty, as the merge treats any message it is given.
 */
export function isEmptyAdjustment(a: nri.IContainerAdjustment): boolean {
  if (a.linux) return false;
  if (a.annotations && Object.keys(a.annotations).length > 0) return false;
  if (a.mounts?.length || a.env?.length || a.args?.length || a.rlimits?.length || a.CDIDevices?.length) return false;
  const h = a.hooks;
  if (!h) return true;
  return !(
    h.prestart?.length ||
    h.createRuntime?.length ||
    h.createContainer?.length ||
    h.startContainer?.length ||
    h.poststart?.length ||
    h.poststop?.length
  );
}
